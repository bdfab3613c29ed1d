// The CLI's command line, against a real nats-server and the real binary: every usage error (unknown
// command or option, a missing or extra argument, an option value it cannot take, no account where one
// is needed) exits 64 with the one documented JSON error object on standard output under --json, while
// errors of servers, files and profiles keep exit 3; `--help` shows a command's usage line with its
// arguments, its own options, then the global ones, and the top level lists the commands; a timeout has
// one range (1ms to 24h) and one message on the command line and in profiles; the backup "file exists"
// error names --overwrite.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
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

QString errorText(const CliRunner::Run &run)
{
    const QJsonObject e = errorOf(run);
    return e.value("message"_L1).toString() + u' ' + e.value("hint"_L1).toString();
}

/** The documented error object (docs/cli.md, Errors): exactly these keys, of these types, and nothing else in the document. */
bool isErrorDocument(const CliRunner::Run &run, QString *why)
{
    if (!run.jsonValid) {
        *why = u"standard output is not one JSON object"_s;
        return false;
    }
    if (run.json.keys() != QStringList{u"error"_s, u"schema"_s}) {
        *why = u"the document's keys are "_s + run.json.keys().join(u", "_s);
        return false;
    }
    if (run.json.value("schema"_L1).toString() != u"nats-mqtt-doctor/error/1"_s) {
        *why = u"the document names schema "_s + run.json.value("schema"_L1).toString();
        return false;
    }
    const QJsonObject e = errorOf(run);
    if (e.keys() != QStringList{u"hint"_s, u"js_err_code"_s, u"kind"_s, u"message"_s, u"nats_status"_s}) {
        *why = u"the error's keys are "_s + e.keys().join(u", "_s);
        return false;
    }
    if (!e.value("kind"_L1).isString() || !e.value("message"_L1).isString() || !e.value("hint"_L1).isString()
        || !e.value("nats_status"_L1).isDouble() || !e.value("js_err_code"_L1).isDouble()) {
        *why = u"a key has the wrong type"_s;
        return false;
    }
    if (e.value("message"_L1).toString().isEmpty()) {
        *why = u"the message is empty"_s;
        return false;
    }
    return true;
}

/** The lines of `text` from the one equal to `heading` up to the next blank line (empty when there is no such heading). */
QStringList section(const QString &text, const QString &heading)
{
    const QStringList lines = text.split(u'\n');
    const qsizetype start = lines.indexOf(heading);
    if (start < 0)
        return {};
    QStringList out;
    for (qsizetype i = start + 1; i < lines.size() && !lines.at(i).isEmpty(); ++i)
        out << lines.at(i);
    return out;
}

/** The option names (`--name`) at the start of a section's rows. */
QStringList optionNames(const QStringList &rows)
{
    static const QRegularExpression name(u"^  (?:-\\w, )?(--[\\w-]+)"_s);
    QStringList names;
    for (const QString &row : rows)
        if (const QRegularExpressionMatch m = name.match(row); m.hasMatch())
            names << m.captured(1);
    return names;
}

} // namespace

class TestCliUsage : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server;
    QTemporaryDir m_dir;

    QStringList acme() const { return {u"--server"_s, m_server.url(), u"--user"_s, u"acme"_s, u"--password"_s, u"acmepass"_s}; }

    // Every account's credentials and the system user, no default user: as the demo's profile.
    QString fleetProfile(const QString &timeout = {}) const
    {
        QJsonObject profile{{u"servers"_s, QJsonArray{m_server.url()}},
                            {u"system"_s, QJsonObject{{u"user"_s, u"sys"_s}, {u"password"_s, u"syspass"_s}}},
                            {u"accounts"_s, QJsonObject{{u"ACME"_s, QJsonObject{{u"user"_s, u"acme"_s}, {u"password"_s, u"acmepass"_s}}}}}};
        if (!timeout.isEmpty())
            profile.insert(u"timeout"_s, timeout);
        const QString path = m_dir.filePath(u"fleet-%1.json"_s.arg(timeout.isEmpty() ? u"default"_s : timeout));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(QJsonDocument(profile).toJson());
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_server.start(u"2.9"_s), qPrintable(m_server.errorString()));
        // One persistent session: ACME has its MQTT streams and one record in $MQTT_sess.
        MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        QVERIFY(mqtt.createPersistentSession(u"usage-sub"_s, {u"usage/#"_s}, 1).subscribed());
    }

    // Issue item 1: each usage error exits 64, with --json as the one documented error object on stdout.
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const QString out = m_dir.filePath(u"never-written.jsonl"_s);
        const QStringList fleet{u"--profile"_s, fleetProfile()};
        QTest::newRow("backup without --stream") << acme() + QStringList{u"backup"_s, u"--out"_s, out} << u"--stream"_s;
        QTest::newRow("backup without --out") << acme() + QStringList{u"backup"_s, u"--stream"_s, u"$MQTT_sess"_s} << u"--out"_s;
        QTest::newRow("sessions --limit abc") << acme() + QStringList{u"sessions"_s, u"--limit"_s, u"abc"_s} << u"--limit"_s;
        QTest::newRow("sessions --limit -1") << acme() + QStringList{u"sessions"_s, u"--limit"_s, u"-1"_s} << u"--limit"_s;
        QTest::newRow("repair --finding BOGUS_CODE")
            << acme() + QStringList{u"repair"_s, u"--finding"_s, u"BOGUS_CODE"_s, u"--dry-run"_s} << u"BOGUS_CODE"_s;
        QTest::newRow("repair --stale-after soon")
            << acme() + QStringList{u"repair"_s, u"--stale-after"_s, u"soon"_s} << u"--stale-after"_s;
        QTest::newRow("session without a client ID") << acme() + QStringList{u"session"_s} << u"CLIENT_ID"_s;
        QTest::newRow("session with two client IDs") << acme() + QStringList{u"session"_s, u"a"_s, u"b"_s} << u"\"b\""_s;
        QTest::newRow("restore without a file") << acme() + QStringList{u"restore"_s} << u"FILE"_s;
        QTest::newRow("--timeout 0") << acme() + QStringList{u"--timeout"_s, u"0"_s, u"servers"_s} << u"--timeout"_s;
        QTest::newRow("--timeout soon") << acme() + QStringList{u"--timeout"_s, u"soon"_s, u"servers"_s} << u"--timeout"_s;
        QTest::newRow("--timeout without a value") << acme() + QStringList{u"servers"_s, u"--timeout"_s} << u"--timeout"_s;
        QTest::newRow("streams, profile, no --account") << fleet + QStringList{u"streams"_s} << u"--account"_s;
        QTest::newRow("check ACME") << acme() + QStringList{u"check"_s, u"ACME"_s} << u"--account ACME"_s;
        QTest::newRow("servers with an argument") << acme() + QStringList{u"servers"_s, u"extra"_s} << u"no arguments"_s;
        QTest::newRow("check --account and --all-accounts")
            << fleet + QStringList{u"check"_s, u"--account"_s, u"ACME"_s, u"--all-accounts"_s} << u"--all-accounts"_s;
        QTest::newRow("check --stream-replicas 9")
            << acme() + QStringList{u"check"_s, u"--stream-replicas"_s, u"9"_s} << u"--stream-replicas"_s;
        QTest::newRow("check --stale-after 0s") << acme() + QStringList{u"check"_s, u"--stale-after"_s, u"0s"_s} << u"--stale-after"_s;
        QTest::newRow("check --parallel 0") << fleet + QStringList{u"check"_s, u"--all-accounts"_s, u"--parallel"_s, u"0"_s}
                                            << u"--parallel"_s;
        QTest::newRow("unknown option") << acme() + QStringList{u"--bogus"_s, u"servers"_s} << u"bogus"_s;
        QTest::newRow("another command's option") << acme() + QStringList{u"servers"_s, u"--limit"_s, u"3"_s} << u"limit"_s;
        QTest::newRow("unknown command") << acme() + QStringList{u"bogus"_s} << u"bogus"_s;
        QTest::newRow("no command") << acme() << u"no command"_s;
        QTest::newRow("two kinds of auth") << acme() + QStringList{u"--token"_s, u"t0ken"_s, u"servers"_s} << u"only one"_s;
        QTest::newRow("--password alone") << QStringList{u"--server"_s, m_server.url(), u"--password"_s, u"x"_s, u"servers"_s}
                                          << u"--password needs --user"_s;
        QTest::newRow("no server") << QStringList{u"servers"_s} << u"no server"_s;
        QTest::newRow("explain without lines") << QStringList{u"explain"_s} << u"no log lines"_s;
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        // --json first: a row may end with an option that lacks its value.
        const auto run = CliRunner::run(QStringList{u"--json"_s} + args);
        QVERIFY2(run.exitCode() == kUsage, qPrintable(run.describe()));
        QString why;
        QVERIFY2(isErrorDocument(run, &why), qPrintable(why + u'\n' + run.describe()));
        QCOMPARE(errorOf(run).value("kind"_L1).toString(), u"invalid_input"_s);
        QCOMPARE(errorOf(run).value("nats_status"_L1).toInt(), 0);
        QVERIFY2(errorText(run).contains(mentions), qPrintable(run.describe()));
        QVERIFY2(run.err().isEmpty(), qPrintable(run.describe()));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(u"never-written.jsonl"_s)));

        // The same without --json: the error and its hint on stderr, nothing on stdout, the same exit code.
        const auto text = CliRunner::run(args);
        QVERIFY2(text.exitCode() == kUsage, qPrintable(text.describe()));
        QVERIFY2(text.out().isEmpty(), qPrintable(text.describe()));
        QVERIFY2(text.err().startsWith(u"error: "_s) && text.err().contains(mentions), qPrintable(text.describe()));
    }

    // The failure path of the classification: what the servers, files and profiles say wrong stays exit 3.
    void otherErrorsStayThree_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("mentions");
        QFile broken(m_dir.filePath(u"broken.json"_s));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"servers\": [");
        broken.close();
        QTest::newRow("unreadable profile") << QStringList{u"--profile"_s, broken.fileName(), u"servers"_s} << u"invalid_input"_s
                                            << u"broken.json"_s;
        QTest::newRow("missing profile") << QStringList{u"--profile"_s, m_dir.filePath(u"absent.json"_s), u"servers"_s} << u"io"_s
                                         << u"absent.json"_s;
        QTest::newRow("bad URL") << QStringList{u"--server"_s, u"nats://127.0.0.1:notaport"_s, u"servers"_s} << u"invalid_input"_s
                                 << u"notaport"_s;
        QTest::newRow("no such session") << acme() + QStringList{u"session"_s, u"nobody-here"_s} << u"not_found"_s << u"nobody-here"_s;
        QTest::newRow("no such stream") << acme()
                + QStringList{u"backup"_s, u"--stream"_s, u"NOPE"_s, u"--out"_s, m_dir.filePath(u"nope.jsonl"_s)}
                                        << u"not_found"_s << u"NOPE"_s;
    }

    void otherErrorsStayThree()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, kind);
        QFETCH(QString, mentions);
        const auto run = CliRunner::run(args + QStringList{u"--json"_s});
        QVERIFY2(run.exitCode() == kCouldNotCheck, qPrintable(run.describe()));
        QString why;
        QVERIFY2(isErrorDocument(run, &why), qPrintable(why + u'\n' + run.describe()));
        QCOMPARE(errorOf(run).value("kind"_L1).toString(), kind);
        QVERIFY2(errorText(run).contains(mentions), qPrintable(run.describe()));
    }

    // Issue item 2: a command's help has its usage line with its arguments, its options, then the global ones.
    void commandHelp()
    {
        const auto run = CliRunner::run({u"session"_s, u"--help"_s}); // no server needed, none given
        QVERIFY2(run.exitCode() == 0 && run.err().isEmpty(), qPrintable(run.describe()));
        const QString help = run.out();
        QCOMPARE(help.section(u'\n', 0, 0), u"Usage: nats-mqtt-doctor-cli [global options] session CLIENT_ID [options]"_s);
        const QStringList arguments = section(help, u"Arguments:"_s);
        QCOMPARE(arguments.size(), 1);
        QVERIFY2(arguments.first().startsWith(u"  CLIENT_ID  "_s), qPrintable(help));
        QCOMPARE(optionNames(section(help, u"Options:"_s)), (QStringList{u"--account"_s, u"--limit"_s}));
        const QString globalHeading = u"Global options (connection and output; before or after the command):"_s;
        const QStringList global = optionNames(section(help, globalHeading));
        for (const QString &o : {u"--help"_s, u"--json"_s, u"--profile"_s, u"--server"_s, u"--user"_s, u"--timeout"_s, u"--system-user"_s,
                                 u"--allow-changes"_s})
            QVERIFY2(global.contains(o), qPrintable(o + u'\n' + help));
        QVERIFY2(!global.contains(u"--account"_s), qPrintable(help));
        QVERIFY2(help.indexOf(u"\nArguments:\n"_s) < help.indexOf(u"\nOptions:\n"_s)
                     && help.indexOf(u"\nOptions:\n"_s) < help.indexOf(u'\n' + globalHeading + u'\n'),
                 qPrintable(help));
        QCOMPARE(help.count(u"--server"_s), 1);
        // Only its own options: not those of `sessions` (--filter).
        QVERIFY2(!help.contains(u"Arguments:\n  session"_s) && !help.contains(u"--filter"_s), qPrintable(help));
        // Every line fits 80 columns.
        for (const QString &line : help.split(u'\n'))
            QVERIFY2(line.size() <= 80, qPrintable(line));

        // The same help with --help first, and with the arguments missing (help before usage errors).
        QCOMPARE(CliRunner::run({u"--help"_s, u"session"_s}).out(), help);

        // A command's own defaults are shown; a command without arguments has no Arguments section.
        const auto sessions = CliRunner::run({u"sessions"_s, u"--help"_s});
        QVERIFY2(sessions.exitCode() == 0, qPrintable(sessions.describe()));
        QCOMPARE(sessions.out().section(u'\n', 0, 0), u"Usage: nats-mqtt-doctor-cli [global options] sessions [options]"_s);
        QVERIFY2(section(sessions.out(), u"Arguments:"_s).isEmpty(), qPrintable(sessions.out()));
        QVERIFY2(section(sessions.out(), u"Options:"_s).join(u' ').contains(u"(default: 100)"_s), qPrintable(sessions.out()));
        const auto explain = CliRunner::run({u"explain"_s, u"--help"_s});
        QCOMPARE(explain.out().section(u'\n', 0, 0), u"Usage: nats-mqtt-doctor-cli [global options] explain [LINE ...] [options]"_s);

        // Failure path: help of a command that does not exist is a usage error, not the overview.
        const auto unknown = CliRunner::run({u"bogus"_s, u"--help"_s, u"--json"_s});
        QVERIFY2(unknown.exitCode() == kUsage && errorText(unknown).contains(u"bogus"_s), qPrintable(unknown.describe()));
    }

    void topLevelHelp()
    {
        const auto run = CliRunner::run({u"--help"_s});
        QVERIFY2(run.exitCode() == 0 && run.err().isEmpty(), qPrintable(run.describe()));
        const QString help = run.out();
        QVERIFY2(help.startsWith(u"Usage: nats-mqtt-doctor-cli [global options] COMMAND [options]\n"_s), qPrintable(help));
        const QStringList commands = section(help, u"Commands:"_s);
        QStringList names;
        for (const QString &row : commands)
            if (!row.startsWith(u"   "_s))
                names << row.trimmed().section(u"  "_s, 0, 0);
        QCOMPARE(names,
                 (QStringList{u"servers"_s,
                              u"accounts"_s,
                              u"streams"_s,
                              u"check"_s,
                              u"explain [LINE ...]"_s,
                              u"sessions"_s,
                              u"session CLIENT_ID"_s,
                              u"retained"_s,
                              u"inflight"_s,
                              u"pinned"_s,
                              u"backup"_s,
                              u"restore FILE"_s,
                              u"repair"_s,
                              u"delete-sessions [CLIENT_ID ...]"_s,
                              u"disconnect CLIENT_ID ..."_s,
                              u"clear-retained TOPIC ..."_s,
                              u"drop-backlog CLIENT_ID ..."_s,
                              u"events"_s,
                              u"history"_s,
                              u"changes"_s,
                              u"record"_s,
                              u"report"_s}));
        const QStringList global = optionNames(section(help, u"Global options (connection and output; before or after the command):"_s));
        QVERIFY2(global.contains(u"--server"_s) && global.contains(u"--json"_s) && global.contains(u"--timeout"_s), qPrintable(help));
        QCOMPARE(help.count(u"--server"_s), 1);
        // No command's own options, flat or otherwise.
        for (const QString &o : {u"--account"_s, u"--limit"_s, u"--finding"_s, u"--all-accounts"_s, u"--overwrite"_s, u"--templates"_s})
            QVERIFY2(!help.contains(o), qPrintable(o + u'\n' + help));
        QVERIFY2(section(help, u"Options:"_s).isEmpty(), qPrintable(help));
        for (const QString &line : help.split(u'\n'))
            QVERIFY2(line.size() <= 80 || line.startsWith(u"Audit log"_s), qPrintable(line));

        // Failure path: no command at all is a usage error; the overview goes to stderr.
        const auto bare = CliRunner::run({});
        QCOMPARE(bare.exitCode(), kUsage);
        QVERIFY2(bare.out().isEmpty() && bare.err().contains(u"Commands:"_s), qPrintable(bare.describe()));
    }

    // Issue item 3: one range, 1ms to 24h, on the command line and in profiles, with one message.
    void timeoutRange_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("2h") << u"2h"_s << true;
        QTest::newRow("24h") << u"24h"_s << true;
        QTest::newRow("1m30s") << u"1m30s"_s << true;
        QTest::newRow("25h") << u"25h"_s << false;
        QTest::newRow("24h1s") << u"24h1s"_s << false;
        QTest::newRow("0s") << u"0s"_s << false;
        QTest::newRow("100us") << u"100us"_s << false;
    }

    void timeoutRange()
    {
        QFETCH(QString, value);
        QFETCH(bool, accepted);
        const auto cli = CliRunner::run(acme() + QStringList{u"--timeout"_s, value, u"servers"_s, u"--json"_s});
        const auto profile = CliRunner::run({u"--profile"_s, fleetProfile(value), u"servers"_s, u"--json"_s});
        if (accepted) {
            QVERIFY2(cli.exitCode() == 0 && cli.json.contains("servers"_L1), qPrintable(cli.describe()));
            QVERIFY2(profile.exitCode() == 0 && profile.json.contains("servers"_L1), qPrintable(profile.describe()));
            return;
        }
        // Refused by both with the same sentence, naming where it was given; a command-line value is a
        // usage error (64), a profile's makes the profile invalid (3).
        const QString range = u" must be between 1ms and 24h, not \"%1\""_s.arg(value);
        QVERIFY2(cli.exitCode() == kUsage, qPrintable(cli.describe()));
        QCOMPARE(errorOf(cli).value("message"_L1).toString(), u"--timeout"_s + range);
        QVERIFY2(profile.exitCode() == kCouldNotCheck, qPrintable(profile.describe()));
        QVERIFY2(errorOf(profile).value("message"_L1).toString().endsWith(u"\"timeout\""_s + range), qPrintable(profile.describe()));
        QCOMPARE(errorOf(profile).value("hint"_L1).toString(), errorOf(cli).value("hint"_L1).toString());
    }

    // A bare number on the command line is seconds (as natscli takes it): 86400 is 24h, one more is not.
    void timeoutSecondsOnTheCommandLine()
    {
        const auto day = CliRunner::run(acme() + QStringList{u"--timeout"_s, u"86400"_s, u"servers"_s, u"--json"_s});
        QVERIFY2(day.exitCode() == 0, qPrintable(day.describe()));
        const auto more = CliRunner::run(acme() + QStringList{u"--timeout"_s, u"86401"_s, u"servers"_s, u"--json"_s});
        QVERIFY2(more.exitCode() == kUsage && errorText(more).contains(u"between 1ms and 24h"_s), qPrintable(more.describe()));
    }

    // Issue item 5: an existing backup file is refused before anything is read, and the hint names --overwrite.
    void backupFileExists()
    {
        const QString file = m_dir.filePath(u"exists.jsonl"_s);
        QFile existing(file);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("keep me\n");
        existing.close();
        const QStringList backup = acme() + QStringList{u"backup"_s, u"--stream"_s, u"$MQTT_sess"_s, u"--out"_s, file};
        const auto refused = CliRunner::run(backup + QStringList{u"--json"_s});
        QVERIFY2(refused.exitCode() == kCouldNotCheck, qPrintable(refused.describe()));
        QString why;
        QVERIFY2(isErrorDocument(refused, &why), qPrintable(why + u'\n' + refused.describe()));
        QVERIFY2(errorOf(refused).value("message"_L1).toString().contains(u"already exists"_s), qPrintable(refused.describe()));
        QVERIFY2(errorOf(refused).value("hint"_L1).toString().contains(u"--overwrite"_s), qPrintable(refused.describe()));
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QCOMPARE(existing.readAll(), QByteArray("keep me\n"));
        existing.close();

        // With --overwrite the file is replaced by the backup.
        const auto overwrite = CliRunner::run(backup + QStringList{u"--overwrite"_s, u"--json"_s});
        QVERIFY2(overwrite.exitCode() == 0 && overwrite.json.value("messages"_L1).toInt() == 1, qPrintable(overwrite.describe()));
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QVERIFY(existing.readLine().contains("\"backup\":\"nats-mqtt-doctor\""));
    }
};

QTEST_GUILESS_MAIN(TestCliUsage)
#include "tst_cliusage.moc"
