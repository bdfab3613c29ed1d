// Which account a command works on, against a real nats-server and the real binary: with a profile that
// holds every account's credentials (as the demo's), a command that works on one account and is given no
// --account says to give --account and how to see the accounts (a usage error, 64), never that only a
// system connection was given; an account that does not exist is said not to exist by every command, in
// the words `check --account` uses. An account that exists but whose credentials are missing still says
// that credentials are needed.
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "mqttclient.h"
#include "natsserverfixture.h"

using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kUsage = 64;
constexpr int kCouldNotCheck = 3;

QJsonObject errorOf(const CliRunner::Run &run)
{
    return run.json.value("error"_L1).toObject();
}

QString message(const CliRunner::Run &run)
{
    return errorOf(run).value("message"_L1).toString();
}

QString hint(const CliRunner::Run &run)
{
    return errorOf(run).value("hint"_L1).toString();
}

} // namespace

class TestCliAccounts : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server;
    QTemporaryDir m_dir;
    QString m_profile;

    QStringList systemOnly() const
    {
        return {u"--server"_s, m_server.url(), u"--system-user"_s, u"sys"_s, u"--system-password"_s, u"syspass"_s};
    }

    /** The commands that work on one account, each with what it needs besides the account. */
    QList<QStringList> oneAccountCommands() const
    {
        const QString backupFile = m_dir.filePath(u"from-backup.jsonl"_s);
        return {{u"streams"_s},
                {u"sessions"_s},
                {u"session"_s, u"accounts-sub"_s},
                {u"retained"_s},
                {u"backup"_s, u"--stream"_s, u"$MQTT_sess"_s, u"--out"_s, m_dir.filePath(u"never-written.jsonl"_s)},
                {u"restore"_s, backupFile, u"--dry-run"_s},
                {u"repair"_s, u"--dry-run"_s}};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_server.start(u"2.9"_s), qPrintable(m_server.errorString()));
        MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        QVERIFY(mqtt.createPersistentSession(u"accounts-sub"_s, {u"accounts/#"_s}, 1).subscribed());
        const QJsonObject profile{
            {u"servers"_s, QJsonArray{m_server.url()}},
            {u"system"_s, QJsonObject{{u"user"_s, u"sys"_s}, {u"password"_s, u"syspass"_s}}},
            {u"accounts"_s, QJsonObject{{u"ACME"_s, QJsonObject{{u"user"_s, u"acme"_s}, {u"password"_s, u"acmepass"_s}}}}}};
        m_profile = m_dir.filePath(u"fleet.json"_s);
        QFile file(m_profile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(profile).toJson());
        file.close();
        // A real backup file for restore.
        const auto backup = CliRunner::run({u"--profile"_s, m_profile, u"backup"_s, u"--account"_s, u"ACME"_s, u"--stream"_s,
                                            u"$MQTT_sess"_s, u"--out"_s, m_dir.filePath(u"from-backup.jsonl"_s), u"--json"_s});
        QVERIFY2(backup.exitCode() == 0, qPrintable(backup.describe()));
    }

    // Issue item 4: the profile holds every account's credentials, no --account: say to give it.
    void noAccountGiven()
    {
        for (const QStringList &command : oneAccountCommands()) {
            const auto run = CliRunner::run(QStringList{u"--profile"_s, m_profile} + command + QStringList{u"--json"_s});
            const QString what = command.join(u' ') + u'\n' + run.describe();
            QVERIFY2(run.exitCode() == kUsage && run.jsonValid, qPrintable(what));
            QCOMPARE(errorOf(run).value("kind"_L1).toString(), u"invalid_input"_s);
            QVERIFY2(message(run).contains(u"give --account NAME"_s) && message(run).startsWith(command.first()), qPrintable(what));
            QVERIFY2(hint(run).contains(u"accounts command"_s), qPrintable(what));
            QVERIFY2(hint(run).contains(u"ACME"_s), qPrintable(what)); // the accounts the profile holds
            QVERIFY2(!message(run).contains(u"only a system connection"_s) && !hint(run).contains(u"only a system connection"_s),
                     qPrintable(what));
        }
        QVERIFY(!QFileInfo::exists(m_dir.filePath(u"never-written.jsonl"_s)));

        // The same with only a system connection; the record commands also say that they need credentials.
        const auto sessions = CliRunner::run(systemOnly() + QStringList{u"sessions"_s, u"--json"_s});
        QVERIFY2(sessions.exitCode() == kUsage && message(sessions).contains(u"give --account NAME"_s), qPrintable(sessions.describe()));
        QVERIFY2(hint(sessions).contains(u"own credentials"_s), qPrintable(sessions.describe()));
        const auto streams = CliRunner::run(systemOnly() + QStringList{u"streams"_s});
        QVERIFY2(streams.exitCode() == kUsage && streams.err().contains(u"give --account NAME"_s) && streams.out().isEmpty(),
                 qPrintable(streams.describe()));
    }

    // Not usage errors: with --account, or with a user of an account to default to, the commands run.
    void accountGivenOrImplied()
    {
        const auto named = CliRunner::run({u"--profile"_s, m_profile, u"sessions"_s, u"--account"_s, u"ACME"_s, u"--json"_s});
        QVERIFY2(named.exitCode() == 0 && named.json.value("account"_L1).toString() == u"ACME"_s, qPrintable(named.describe()));
        const auto implied =
            CliRunner::run(systemOnly() + QStringList{u"--user"_s, u"acme"_s, u"--password"_s, u"acmepass"_s, u"sessions"_s, u"--json"_s});
        QVERIFY2(implied.exitCode() == 0 && implied.json.value("sessions"_L1).toArray().size() == 1, qPrintable(implied.describe()));
        // check runs on every account without one (documented), through the same profile.
        const auto check = CliRunner::run({u"--profile"_s, m_profile, u"check"_s, u"--no-records"_s, u"--json"_s});
        QVERIFY2(check.exitCode() != kUsage && check.exitCode() != kCouldNotCheck && check.jsonValid, qPrintable(check.describe()));
    }

    // Issue item 4: an account that does not exist, said the way check says it, by every command.
    void unknownAccount()
    {
        const auto check = CliRunner::run({u"--profile"_s, m_profile, u"check"_s, u"--account"_s, u"NOPE"_s, u"--json"_s});
        QVERIFY2(check.exitCode() == kCouldNotCheck && check.jsonValid, qPrintable(check.describe()));
        QCOMPARE(errorOf(check).value("kind"_L1).toString(), u"not_found"_s);
        QVERIFY2(message(check).contains(u"NOPE"_s), qPrintable(check.describe()));
        for (const QStringList &connection : {QStringList{u"--profile"_s, m_profile}, systemOnly()}) {
            for (const QStringList &command : oneAccountCommands()) {
                const auto run = CliRunner::run(connection + command + QStringList{u"--account"_s, u"NOPE"_s, u"--json"_s});
                const QString what = command.join(u' ') + u'\n' + run.describe();
                QVERIFY2(run.exitCode() == kCouldNotCheck && run.jsonValid, qPrintable(what));
                QCOMPARE(errorOf(run), errorOf(check));
            }
        }
        // With a user of another account as well: the same, not "the connected user belongs to ACME".
        const auto retained = CliRunner::run(
            systemOnly()
            + QStringList{u"--user"_s, u"acme"_s, u"--password"_s, u"acmepass"_s, u"retained"_s, u"--account"_s, u"NOPE"_s, u"--json"_s});
        QVERIFY2(retained.exitCode() == kCouldNotCheck, qPrintable(retained.describe()));
        QCOMPARE(errorOf(retained), errorOf(check));
    }

    // Failure path: an account that exists, without its credentials, still needs them (not "not found").
    void existingAccountWithoutCredentials()
    {
        for (const QStringList &command : {QStringList{u"sessions"_s}, QStringList{u"session"_s, u"accounts-sub"_s},
                                           QStringList{u"retained"_s}, QStringList{u"repair"_s, u"--dry-run"_s}}) {
            const auto run = CliRunner::run(systemOnly() + command + QStringList{u"--account"_s, u"ACME"_s, u"--json"_s});
            const QString what = command.join(u' ') + u'\n' + run.describe();
            QVERIFY2(run.exitCode() == kCouldNotCheck && run.jsonValid, qPrintable(what));
            QCOMPARE(errorOf(run).value("kind"_L1).toString(), u"invalid_input"_s);
            QVERIFY2(message(run).contains(u"credentials"_s) && !message(run).contains(u"not found"_s), qPrintable(what));
        }
        // streams reads the system view then: no error.
        const auto streams = CliRunner::run(systemOnly() + QStringList{u"streams"_s, u"--account"_s, u"ACME"_s, u"--json"_s});
        QVERIFY2(streams.exitCode() == 0 && streams.json.value("source"_L1).toString() == u"jsz"_s, qPrintable(streams.describe()));
    }
};

QTEST_GUILESS_MAIN(TestCliAccounts)
#include "tst_cliaccounts.moc"
