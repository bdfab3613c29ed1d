// RecentProfiles remembers profiles for the connection dialog without any secret on disk.
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "settings/recentprofiles.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

class TestRecentProfiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void secretsAreNotWritten();
    void mostRecentFirstAndBounded();
    void forget();

private:
    static Profile sample(const QString &name);
};

void TestRecentProfiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"nats-mqtt-doctor-test"_s);
    QCoreApplication::setApplicationName(u"tst_recentprofiles"_s);
}

void TestRecentProfiles::init()
{
    QSettings().clear();
}

Profile TestRecentProfiles::sample(const QString &name)
{
    Profile p;
    p.name = name;
    p.servers = {u"nats://127.0.0.1:4222"_s, u"nats://127.0.0.1:4223"_s};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = u"acme"_s;
    p.auth.password = u"acme-secret-password"_s;
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = u"sys"_s;
    p.system.password = u"sys-secret-password"_s;
    p.jsDomain = u"hub"_s;
    p.timeoutMs = 7000;
    p.allowChanges = true;
    return p;
}

void TestRecentProfiles::secretsAreNotWritten()
{
    RecentProfiles::remember(sample(u"prod"_s));
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
    const QByteArray written = file.readAll();
    QVERIFY(written.contains("acme"));
    QVERIFY(!written.contains("secret-password"));

    const auto loaded = RecentProfiles::load(u"prod"_s);
    QVERIFY(loaded);
    QCOMPARE(loaded->servers, sample(u"prod"_s).servers);
    QCOMPARE(loaded->auth.kind, Credentials::Kind::UserPassword);
    QCOMPARE(loaded->auth.user, u"acme"_s);
    QVERIFY(loaded->auth.password.isEmpty());
    QCOMPARE(loaded->system.user, u"sys"_s);
    QVERIFY(loaded->system.password.isEmpty());
    QCOMPARE(loaded->jsDomain, u"hub"_s);
    QCOMPARE(loaded->timeoutMs, 7000);
    QCOMPARE(loaded->allowChanges, true);
    QVERIFY(!RecentProfiles::load(u"unknown"_s));
}

void TestRecentProfiles::mostRecentFirstAndBounded()
{
    for (int i = 0; i < RecentProfiles::maxCount() + 3; ++i)
        RecentProfiles::remember(sample(u"p%1"_s.arg(i)));
    RecentProfiles::remember(sample(u"p5"_s)); // used again: moves to the front
    const QStringList names = RecentProfiles::names();
    QCOMPARE(names.size(), RecentProfiles::maxCount());
    QCOMPARE(names.first(), u"p5"_s);
    QCOMPARE(names.at(1), u"p12"_s);
    QCOMPARE(names.count(u"p5"_s), 1);
    QVERIFY(!names.contains(u"p0"_s));
}

void TestRecentProfiles::forget()
{
    RecentProfiles::remember(sample(u"a"_s));
    RecentProfiles::remember(sample(u"b"_s));
    RecentProfiles::forget(u"a"_s);
    QCOMPARE(RecentProfiles::names(), QStringList{u"b"_s});
}

QTEST_GUILESS_MAIN(TestRecentProfiles)
#include "tst_recentprofiles.moc"
