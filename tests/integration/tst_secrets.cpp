// Secrets and file permissions: every CLI command runs with distinctive secrets, on success and on
// failure paths; no secret may appear in any output, nor in any file the tool writes (audit log, backups, repair
// journals, settings). Files the tool writes are 0600 and the folders it creates 0700.
//
// The CLI runs with HOME and the XDG folders pointing into a temporary folder, so every file it writes is found.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/connectionset.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

// Distinctive values: none of them can appear by accident.
const QString kAcmePassword = u"acme-Pw-7Hq2ZxK9wR"_s;
const QString kSysPassword = u"sys-Pw-4Vn8LmQ3tY"_s;
const QString kWrongPassword = u"wrong-Pw-9Jd3KsP1vB"_s;
const QString kToken = u"tok-Secret-2Xc7Nw5Lq"_s;
const QString kUrlPassword = u"url-Pw-6Fb1RtZ8mE"_s;
const QStringList kSecrets{kAcmePassword, kSysPassword, kWrongPassword, kToken, kUrlPassword};

QString permissionsOf(const QString &path)
{
    return QString::number(
        int(QFileInfo(path).permissions()
            & (QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup | QFileDevice::WriteGroup
               | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther)),
        16);
}

// Qt's permission bits: owner rw = 0x6000 (Read/WriteOwner), owner rwx = 0x7000.
const QString kPrivateFile = QString::number(int(QFileDevice::ReadOwner | QFileDevice::WriteOwner), 16);
const QString kPrivateFolder = QString::number(int(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner), 16);

} // namespace

class TestSecrets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    NatsServerFixture m_server;
    QList<CliRunner::Run> m_runs;
    QStringList m_labels;

    QString home(const QString &rel) const { return m_home.filePath(rel); }

    QStringList acme() const { return {u"--server"_s, m_server.url(), u"--user"_s, u"acme"_s, u"--password"_s, kAcmePassword}; }
    QStringList system() const { return {u"--system-user"_s, u"sys"_s, u"--system-password"_s, kSysPassword}; }

    CliRunner::Run cli(const QString &label, const QStringList &args, int timeoutMs = 60000)
    {
        CliRunner::Run run = CliRunner::run(args, timeoutMs);
        m_runs << run;
        m_labels << label;
        return run;
    }

    static QString secretIn(const QByteArray &bytes)
    {
        for (const QString &s : kSecrets)
            if (bytes.contains(s.toUtf8()))
                return s;
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // Everything the CLI writes by default lands in the temporary home.
        qputenv("HOME", QFile::encodeName(m_home.path()));
        qputenv("XDG_DATA_HOME", QFile::encodeName(home(u"data"_s)));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(home(u"config"_s)));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(home(u"cache"_s)));
        qputenv("XDG_STATE_HOME", QFile::encodeName(home(u"state"_s)));

        ServerConfig config;
        config.setSystemAccount(ServerConfig::plainAccount(u"SYS"_s, u"sys"_s, kSysPassword));
        config.addAccount(ServerConfig::jetStreamAccount(u"ACME"_s, u"acme"_s, kAcmePassword));
        QVERIFY2(m_server.start(u"2.10"_s, config), qPrintable(m_server.errorString()));

        // Real MQTT state: a session with a queued message, a retained message, and a garbage record for the repair.
        const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, kAcmePassword);
        QVERIFY(mqtt.createPersistentSession(u"sensor-1"_s, {u"alerts/#"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"garbage-2"_s, {u"junk/#"_s}, 1).subscribed());
        QVERIFY(mqtt.publish(u"alerts/smoke"_s, "smoke!", 1).acknowledged);
        QVERIFY(mqtt.publish(u"status/gw"_s, "online", 1, true).acknowledged);
        Profile p;
        p.servers = {m_server.url()};
        p.auth.kind = Credentials::Kind::UserPassword;
        p.auth.user = u"acme"_s;
        p.auth.password = kAcmePassword;
        ConnectionSet connections(p);
        auto conn = connections.primary();
        QVERIFY2(conn, conn ? "" : qPrintable(conn.error().toString()));
        const auto stored = (*conn)->request(u"$MQTT.sess."_s + ClientIdHash::hash(u"garbage-2"_s), "not a session", 5000);
        QVERIFY2(stored && stored->data.contains("\"seq\""), stored ? stored->data.constData() : qPrintable(stored.error().toString()));

        // A profile file and a natscli context that hold the password.
        QDir().mkpath(home(u"config/nats/context"_s));
        QFile ctx(home(u"config/nats/context/acme-ctx.json"_s));
        QVERIFY(ctx.open(QIODevice::WriteOnly));
        ctx.write(QJsonDocument(QJsonObject{{u"url"_s, m_server.url()}, {u"user"_s, u"acme"_s}, {u"password"_s, kAcmePassword}}).toJson());
        ctx.close();
        QFile prof(home(u"profile.json"_s));
        QVERIFY(prof.open(QIODevice::WriteOnly));
        prof.write(QJsonDocument(QJsonObject{{u"name"_s, u"secret-test"_s},
                                             {u"servers"_s, QJsonArray{m_server.url()}},
                                             {u"auth"_s, QJsonObject{{u"user"_s, u"acme"_s}, {u"password"_s, kAcmePassword}}},
                                             {u"system"_s, QJsonObject{{u"user"_s, u"sys"_s}, {u"password"_s, kSysPassword}}}})
                       .toJson());
        prof.close();
    }

    // Every command, as text and as JSON, with the secrets on the command line, in a profile and in a context.
    void everyCommand()
    {
        const QStringList both = acme() + system();
        for (const QString &format : {QString(), u"--json"_s}) {
            const QStringList fmt = format.isEmpty() ? QStringList() : QStringList{format};
            QCOMPARE(cli(u"servers"_s, both + QStringList{u"servers"_s} + fmt).exitCode(), 0);
            QCOMPARE(cli(u"accounts"_s, both + QStringList{u"accounts"_s} + fmt).exitCode(), 0);
            QCOMPARE(cli(u"streams"_s, acme() + QStringList{u"streams"_s} + fmt).exitCode(), 0);
            const auto check = cli(u"check"_s, both + QStringList{u"check"_s, u"--all-accounts"_s} + fmt);
            QVERIFY2(check.exitCode() == 2, qPrintable(check.describe())); // the garbage record is an error
            QCOMPARE(cli(u"sessions"_s, acme() + QStringList{u"sessions"_s} + fmt).exitCode(), 0);
            QCOMPARE(cli(u"session"_s, acme() + QStringList{u"session"_s, u"sensor-1"_s} + fmt).exitCode(), 0);
            QCOMPARE(cli(u"retained"_s, acme() + QStringList{u"retained"_s} + fmt).exitCode(), 0);
            QCOMPARE(cli(u"profile"_s, QStringList{u"--profile"_s, home(u"profile.json"_s), u"check"_s} + fmt).exitCode(), 2);
            QCOMPARE(cli(u"context"_s, QStringList{u"--context"_s, u"acme-ctx"_s, u"sessions"_s} + fmt).exitCode(), 0);
        }
        const auto explain = cli(u"explain"_s,
                                 {u"explain"_s,
                                  u"[4711] 2026/12/02 15:50:38.001002 [ERR] 10.0.3.17:51240 - mid:89 - "
                                  u"\"sensor-7\" - unable to connect: create sessions stream for account "
                                  u"\"ACME\": subjects overlap with an existing stream (10065)"_s});
        QVERIFY2(explain.out().contains(u"SUBJECTS_OVERLAP"_s), qPrintable(explain.describe()));
        QCOMPARE(cli(u"help"_s, acme() + QStringList{u"--help"_s}).exitCode(), 0);
    }

    // Failure paths echo what went wrong, never the secret that was used.
    void failures()
    {
        const auto wrong = cli(u"wrong password"_s,
                               {u"--server"_s, m_server.url(), u"--user"_s, u"acme"_s, u"--password"_s, kWrongPassword, u"streams"_s});
        QCOMPARE(wrong.exitCode(), 3);
        const auto token = cli(u"wrong token"_s, {u"--server"_s, m_server.url(), u"--token"_s, kToken, u"streams"_s, u"--json"_s});
        QCOMPARE(token.exitCode(), 3);
        // A password in the URL, to a port where nothing listens, then to the real server with a wrong one.
        QUrl closed(m_server.url());
        closed.setPort(1);
        closed.setUserName(u"acme"_s);
        closed.setPassword(kUrlPassword);
        const auto refused = cli(u"url password, refused"_s, {u"--server"_s, closed.toString(), u"--timeout"_s, u"2s"_s, u"streams"_s});
        QCOMPARE(refused.exitCode(), 3);
        QUrl wrongUrl(m_server.url());
        wrongUrl.setUserName(u"acme"_s);
        wrongUrl.setPassword(kUrlPassword);
        const auto urlAuth = cli(u"url password, wrong"_s, {u"--server"_s, wrongUrl.toString(), u"streams"_s, u"--json"_s});
        QCOMPARE(urlAuth.exitCode(), 3);
        const auto readOnly = cli(u"read-only repair"_s, acme() + QStringList{u"repair"_s, u"--yes"_s});
        QVERIFY2(readOnly.exitCode() != 0, qPrintable(readOnly.describe()));
    }

    // Backup, restore and repair write files: no secret in them, and owner-only permissions.
    void writtenFiles()
    {
        const QString backupFile = home(u"exports/sess.jsonl"_s);
        QVERIFY(QDir().mkpath(home(u"exports"_s)));
        const auto backup = cli(u"backup"_s, acme() + QStringList{u"backup"_s, u"--stream"_s, u"$MQTT_sess"_s, u"--out"_s, backupFile});
        QVERIFY2(backup.exitCode() == 0, qPrintable(backup.describe()));
        QCOMPARE(permissionsOf(backupFile), kPrivateFile);
        const auto restore = cli(u"restore"_s, acme() + QStringList{u"--allow-changes"_s, u"restore"_s, backupFile, u"--dry-run"_s});
        QVERIFY2(restore.exitCode() <= 1, qPrintable(restore.describe()));

        // The repair purges the garbage record (destructive: backed up first) into a folder it creates.
        const QString backupDir = home(u"repair-backups/nested"_s);
        const auto repair =
            cli(u"repair"_s, acme() + system() + QStringList{u"--allow-changes"_s, u"repair"_s, u"--yes"_s, u"--backup-dir"_s, backupDir},
                120000);
        QVERIFY2(repair.exitCode() == 0, qPrintable(repair.describe()));
        QCOMPARE(permissionsOf(backupDir), kPrivateFolder);
        QCOMPARE(permissionsOf(home(u"repair-backups"_s)), kPrivateFolder);
        const QStringList written = QDir(backupDir).entryList(QDir::Files);
        QVERIFY2(!written.isEmpty(), qPrintable(repair.out()));
        for (const QString &f : written)
            QCOMPARE(permissionsOf(QDir(backupDir).filePath(f)) + u' ' + f, kPrivateFile + u' ' + f);

        const QString audit = home(u"data/nats-mqtt-doctor/audit.jsonl"_s);
        QVERIFY2(QFileInfo::exists(audit), "the repair appended to the audit log in the user's data folder");
        QCOMPARE(permissionsOf(audit), kPrivateFile);
        QCOMPARE(permissionsOf(home(u"data/nats-mqtt-doctor"_s)), kPrivateFolder);
        QFile log(audit);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY2(log.readAll().contains("purge_session"), "the audit log names the applied action");
    }

    // The sweep: no secret in any captured output or in any file under the temporary home.
    void noSecretAnywhere()
    {
        QVERIFY(m_runs.size() > 20);
        for (qsizetype i = 0; i < m_runs.size(); ++i) {
            const CliRunner::Run &run = m_runs.at(i);
            QVERIFY2(!run.process.standardOutput.isEmpty() || !run.process.standardError.isEmpty(),
                     qPrintable(m_labels.at(i) + u": no output at all"_s));
            const QString inOut = secretIn(run.process.standardOutput);
            const QString inErr = secretIn(run.process.standardError);
            QVERIFY2(inOut.isEmpty(), qPrintable(u"%1: stdout shows a secret\n%2"_s.arg(m_labels.at(i), run.out())));
            QVERIFY2(inErr.isEmpty(), qPrintable(u"%1: stderr shows a secret\n%2"_s.arg(m_labels.at(i), run.err())));
        }
        int scanned = 0;
        QDirIterator it(m_home.path(), QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            // The inputs the test wrote on purpose hold the secrets.
            if (path.endsWith(u"/profile.json"_s) || path.endsWith(u"/acme-ctx.json"_s))
                continue;
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            const QString found = secretIn(f.readAll());
            QVERIFY2(found.isEmpty(), qPrintable(u"%1 holds a secret"_s.arg(QDir(m_home.path()).relativeFilePath(path))));
            ++scanned;
        }
        QVERIFY2(scanned >= 3, "the backup, the repair backup and the audit log were scanned");
    }

    void cleanupTestCase() { m_server.stop(); }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
