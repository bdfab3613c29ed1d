// Secrets never reach QSettings (docs/safety.md): a profile with passwords and a token is saved
// through the connection dialog, then every file under the (test-mode) settings folders is searched
// for them, QtKeychain's plain-text fallback file included. Whether the OS keychain answers depends
// on the machine (headless: it does not); both outcomes are checked:
// with a keychain the secrets come back on load, without one the dialog asks for them again.
// Also: SecretStore::withSecretsFrom only fills secrets into the same login.
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "common/asyncrunner.h"
#include "dialogs/connectiondialog.h"
#include "settings/recentprofiles.h"
#include "settings/secretstore.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

// Distinctive values that cannot appear in a settings file by chance.
const QString kPassword = u"pw-Zq8-never-on-disk"_s;
const QString kSystemPassword = u"sys-Xv3-never-on-disk"_s;
const QString kToken = u"tok-Jm5-never-on-disk"_s;
constexpr int kKeychainTimeoutMs = 60000; // a D-Bus activation may take a while; failures are immediate

Profile sample(const QString &name)
{
    Profile p;
    p.name = name;
    p.servers = {u"nats://127.0.0.1:4222"_s};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = u"acme"_s;
    p.auth.password = kPassword;
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = u"sys"_s;
    p.system.password = kSystemPassword;
    Credentials beta;
    beta.kind = Credentials::Kind::Token;
    beta.token = kToken;
    p.accounts.insert(u"BETA"_s, beta);
    return p;
}

/** Every settings file Qt or QtKeychain could have written in test mode, with its content. */
QMap<QString, QByteArray> settingsFiles()
{
    QMap<QString, QByteArray> out;
    QStringList roots{QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
                      QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)};
    roots << QFileInfo(QSettings().fileName()).absolutePath() << QFileInfo(QSettings(SecretStore::serviceName()).fileName()).absolutePath();
    roots.removeDuplicates();
    for (const QString &root : std::as_const(roots)) {
        QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.open(QIODevice::ReadOnly))
                out.insert(f.fileName(), f.readAll());
        }
    }
    return out;
}

} // namespace

class TestSecretStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void savedProfileKeepsSecretsOutOfSettings();
    void mergeOnlyIntoTheSameLogin();

private:
    AsyncRunner m_runner{1};
};

void TestSecretStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"nats-mqtt-doctor-test"_s);
    QCoreApplication::setApplicationName(u"tst_secretstore"_s);
    QSettings().clear();
}

void TestSecretStore::cleanupTestCase()
{
    // A machine with a keychain keeps no test entry behind.
    SecretStore::remove(u"secret-test"_s);
    QTest::qWait(200);
}

void TestSecretStore::savedProfileKeepsSecretsOutOfSettings()
{
    bool keychainAnswered = false;
    {
        ConnectionDialog dialog(m_runner);
        dialog.setProfile(sample(u"secret-test"_s));
        QSignalSpy stored(dialog.secretStore(), &SecretStore::stored);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QTRY_COMPARE_WITH_TIMEOUT(stored.size(), 1, kKeychainTimeoutMs);
        QCOMPARE(stored.at(0).at(0).toString(), u"secret-test"_s);
        keychainAnswered = stored.at(0).at(1).toBool();
        const QString reason = stored.at(0).at(2).toString();
        qInfo("keychain %s%s", keychainAnswered ? "stored the secrets" : "did not store them: ", qPrintable(reason));
        QVERIFY(keychainAnswered || !reason.isEmpty());
        QVERIFY(!reason.contains(kPassword));
    }

    // The profile itself is remembered, its user names included, but no secret is on disk.
    QSettings().sync();
    const QMap<QString, QByteArray> files = settingsFiles();
    QVERIFY2(files.contains(QSettings().fileName()), qPrintable(QStringList(files.keys()).join(u", "_s)));
    QVERIFY(files.value(QSettings().fileName()).contains("secret-test"));
    QVERIFY(files.value(QSettings().fileName()).contains("acme"));
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        for (const QString &secret : {kPassword, kSystemPassword, kToken})
            QVERIFY2(!it.value().contains(secret.toUtf8()), qPrintable(u"%1 holds a secret"_s.arg(it.key())));
    const auto remembered = RecentProfiles::load(u"secret-test"_s);
    QVERIFY(remembered);
    QCOMPARE(remembered->auth.user, u"acme"_s);
    QVERIFY(remembered->auth.password.isEmpty());
    QVERIFY(remembered->system.password.isEmpty());
    QVERIFY(remembered->accounts.value(u"BETA"_s).token.isEmpty());

    // Loading it again: secrets from the keychain when it has them, else asked for again.
    ConnectionDialog dialog(m_runner);
    QSignalSpy loaded(dialog.secretStore(), &SecretStore::loaded);
    QSignalSpy failed(dialog.secretStore(), &SecretStore::loadFailed);
    dialog.loadRecent(u"secret-test"_s);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size() + failed.size(), 1, kKeychainTimeoutMs);
    auto *password = dialog.findChild<QLineEdit *>(u"passwordEdit"_s);
    QVERIFY(password);
    if (keychainAnswered) {
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(password->text(), kPassword);
        QCOMPARE(dialog.profile().accounts.value(u"BETA"_s).token, kToken);
    } else {
        QCOMPARE(failed.size(), 1);
        QVERIFY(password->text().isEmpty());
        QVERIFY2(dialog.statusText().contains(u"enter them again"_s), qPrintable(dialog.statusText()));
        QVERIFY(!dialog.statusText().contains(kPassword));
    }
}

void TestSecretStore::mergeOnlyIntoTheSameLogin()
{
    const Profile secrets = sample(u"p"_s);
    QVERIFY(SecretStore::hasSecrets(secrets));
    Profile bare = sample(u"p"_s);
    bare.auth.password.clear();
    bare.system.password.clear();
    bare.accounts[u"BETA"_s].token.clear();
    QVERIFY(!SecretStore::hasSecrets(bare));

    const Profile merged = SecretStore::withSecretsFrom(bare, secrets);
    QCOMPARE(merged.auth.password, kPassword);
    QCOMPARE(merged.system.password, kSystemPassword);
    QCOMPARE(merged.accounts.value(u"BETA"_s).token, kToken);

    // Another user, or another kind of login: the old secret does not belong to it.
    Profile changed = bare;
    changed.auth.user = u"other"_s;
    changed.system.kind = Credentials::Kind::Token;
    const Profile kept = SecretStore::withSecretsFrom(changed, secrets);
    QVERIFY(kept.auth.password.isEmpty());
    QVERIFY(kept.system.token.isEmpty() && kept.system.password.isEmpty());

    // A password typed meanwhile wins over the saved one.
    Profile typed = bare;
    typed.auth.password = u"typed"_s;
    QCOMPARE(SecretStore::withSecretsFrom(typed, secrets).auth.password, u"typed"_s);
}

QTEST_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
