// The demo's profile holds every demo account's password: it is written readable and writable by its owner
// only (0600), also over a file that exists with wider permissions, and the demo itself (the real binary,
// against a real nats-server) leaves it that way.
#include <sys/stat.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "commandrunner.h"
#include "demoscenario.h"

using namespace MqttDoctor::Demo;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

/** The file's mode bits as the kernel has them (07777), -1 when it cannot be read. */
int modeOf(const QString &path)
{
    struct stat st
    {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString demoBinary()
{
    const QString binaryDir = qEnvironmentVariable("MQTTDOCTOR_BINARY_DIR");
    return (binaryDir.isEmpty() ? QCoreApplication::applicationDirPath() + u"/.."_s : binaryDir) + u"/bin/nats-mqtt-doctor-demo"_s;
}

} // namespace

class TestDemoProfile : public QObject
{
    Q_OBJECT

private slots:
    void newFileIsPrivate()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"demo-profile.json"_s);
        QString error;
        QVERIFY2(DemoScenario::writeProfile(path, u"nats://127.0.0.1:4222"_s, &error), qPrintable(error));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(QJsonDocument::fromJson(contentOf(path)).object(), DemoScenario::profile(u"nats://127.0.0.1:4222"_s));
    }

    void existingFileIsNarrowedAndReplaced()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"demo-profile.json"_s);
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write(QByteArray(4096, 'x')); // longer than the profile: must not survive at its end
        }
        QVERIFY(QFile::setPermissions(path,
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther
                                          | QFileDevice::WriteOther));
        QCOMPARE(modeOf(path), 0646);
        QString error;
        QVERIFY2(DemoScenario::writeProfile(path, u"nats://127.0.0.1:4333"_s, &error), qPrintable(error));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(QJsonDocument::fromJson(contentOf(path)).object(), DemoScenario::profile(u"nats://127.0.0.1:4333"_s));
    }

    void unwritablePathFails()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString missingFolder = dir.filePath(u"no-such-folder/demo-profile.json"_s);
        QVERIFY(!DemoScenario::writeProfile(missingFolder, u"nats://127.0.0.1:4222"_s, &error));
        QVERIFY2(error.contains(missingFolder), qPrintable(error));
        QVERIFY(!QFileInfo::exists(missingFolder));
        error.clear();
        QVERIFY(!DemoScenario::writeProfile(dir.path(), u"nats://127.0.0.1:4222"_s, &error)); // a folder
        QVERIFY2(!error.isEmpty(), "the reason is given");
    }

    // The demo binary: it writes the profile and runs a command on it ({profile} is its path).
    void demoWritesAPrivateProfile()
    {
        const auto run = CommandRunner::run(
            demoBinary(), {u"--server-version"_s, u"2.9"_s, u"--"_s, u"stat"_s, u"-c"_s, u"mode=%a"_s, u"{profile}"_s}, 300000);
        const QString out = QString::fromUtf8(run.standardOutput);
        const QString describe =
            u"exit %1\n%2\n%3"_s.arg(run.exitCode).arg(out.right(3000), QString::fromUtf8(run.standardError).right(3000));
        QVERIFY2(run.succeeded(), qPrintable(describe));
        QVERIFY2(out.split(u'\n').contains(u"mode=600"_s), qPrintable(describe));
    }
};

QTEST_GUILESS_MAIN(TestDemoProfile)
#include "tst_demoprofile.moc"
