// `explain` on whole server logs. A real nats-server of every version refuses real MQTT clients (mosquitto): an
// account whose stream on $MQTT.> keeps the servers from creating $MQTT_sess, and an account whose $MQTT_sess was
// deleted; each client connects several times. The CLI then reads the server's own log file (the README's usage),
// with its debug lines and start-up banner: the repeated `unable to connect:` lines come out as one group each with
// their count, client IDs and times, as severe as the finding they point to, and nothing of the log is left
// unrecognised. Also the inputs' failure paths (a path that cannot be read, a read error half-way, binary garbage,
// huge lines, no lines), standard input, the summary/details choice and the per-line JSON of earlier versions.
#include <QElapsedTimer>
#include <QFile>
#include <QLocale>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "commandrunner.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::StringLiterals;

namespace {

const QString kOverlapLine = u"[4711] 2026/12/02 15:50:38.001002 [ERR] 10.0.3.17:51240 - mid:89 - \"%1\" - unable to connect: "
                             u"create sessions stream for account \"%2\": subjects overlap with an existing stream (10065)"_s;

/** The group of `run`'s JSON whose first line matched `templatePrefix` in `account`; empty when none. */
QJsonObject groupOf(const QJsonObject &json, const QString &templatePrefix, const QString &account)
{
    for (const QJsonValue &v : json.value(u"groups"_s).toArray()) {
        const QJsonObject match = v.toObject().value(u"match"_s).toObject();
        if (match.value(u"template_id"_s).toString().startsWith(templatePrefix) && match.value(u"account"_s).toString() == account)
            return v.toObject();
    }
    return {};
}

/** {"value": count} of a group's client_ids. */
QMap<QString, qint64> tally(const QJsonObject &group, const char *key = "client_ids")
{
    QMap<QString, qint64> out;
    for (const QJsonValue &v : group.value(QLatin1String(key)).toArray())
        out.insert(v.toObject().value(u"value"_s).toString(), v.toObject().value(u"count"_s).toInteger());
    return out;
}

/** Waits until the log has `count` lines matching `pattern` (the server writes them as the clients fail). */
bool waitForLines(const NatsServerFixture &server, const QRegularExpression &pattern, qsizetype count, int timeoutMs = 10000)
{
    QElapsedTimer timer;
    timer.start();
    while (server.logLinesMatching(pattern).size() < count && timer.elapsed() < timeoutMs)
        QTest::qWait(50);
    return server.logLinesMatching(pattern).size() >= count;
}

CommandRunner::Result explainStdin(const QStringList &arguments, const QByteArray &input)
{
    return CommandRunner::run(CliRunner::path(), QStringList{u"explain"_s} + arguments, 60000, input);
}

QString describe(const CommandRunner::Result &r)
{
    return u"exit %1\nstdout:\n%2\nstderr:\n%3"_s.arg(r.exitCode)
        .arg(QString::fromUtf8(r.standardOutput.left(4000)), QString::fromUtf8(r.standardError.left(4000)));
}

QJsonObject summaryOf(const QJsonObject &json)
{
    return json.value(u"summary"_s).toObject();
}

} // namespace

class TestExplainLog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(u"MQTT clients missing: "_s + missing));
        QVERIFY2(QFile::exists(CliRunner::path()), qPrintable(CliRunner::path()));
    }

    // --- a real server's log --------------------------------------------------------------------------------------

    void realServerLog_data() { addServerVersionRows(); }
    void realServerLog()
    {
        QFETCH(QString, version);
        ServerConfig config = ServerConfig::standard();
        config.addAccount(ServerConfig::jetStreamAccount(u"OVL"_s, u"ovl"_s, u"ovlpass"_s));
        config.addAccount(ServerConfig::jetStreamAccount(u"SESS"_s, u"sess"_s, u"sesspass"_s));
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));

        // OVL: a stream on $MQTT.> made before the first MQTT client; every CONNECT is refused (10065).
        JetStreamAdmin ovl;
        QVERIFY2(ovl.connect({server.url()}, u"ovl"_s, u"ovlpass"_s), qPrintable(ovl.error()));
        QVERIFY2(ovl.createStream({{u"name"_s, u"CATCHALL"_s}, {u"subjects"_s, QJsonArray{u"$MQTT.>"_s}}, {u"storage"_s, u"file"_s}}),
                 qPrintable(ovl.error()));
        MqttClient ovlClient(server.mqttPort(), u"ovl"_s, u"ovlpass"_s);
        for (const QString &id : {u"ovl-1"_s, u"ovl-1"_s, u"ovl-1"_s, u"ovl-2"_s, u"ovl-2"_s}) {
            const MqttResult r = ovlClient.connectOnce(id);
            QVERIFY2(!r.connected(), qPrintable(r.describe()));
        }
        const QRegularExpression overlap(u"unable to connect: create sessions stream for account \"OVL\": subjects overlap"_s);
        QVERIFY2(waitForLines(server, overlap, 5), qPrintable(server.logTail()));

        // SESS: MQTT set up by a first client, then $MQTT_sess deleted; every CONNECT fails to load its record (10059).
        MqttClient sessClient(server.mqttPort(), u"sess"_s, u"sesspass"_s);
        const MqttResult first = sessClient.connectOnce(u"sess-0"_s);
        QVERIFY2(first.connected(), qPrintable(first.describe()));
        JetStreamAdmin sess;
        QVERIFY2(sess.connect({server.url()}, u"sess"_s, u"sesspass"_s), qPrintable(sess.error()));
        QVERIFY2(sess.deleteStream(u"$MQTT_sess"_s), qPrintable(sess.error()));
        for (const QString &id : {u"sess-1"_s, u"sess-1"_s, u"sess-2"_s, u"sess-2"_s}) {
            const MqttResult r = sessClient.connectOnce(id);
            QVERIFY2(!r.connected(), qPrintable(r.describe()));
        }
        // "... for account %q, session %q: %v" up to 2.11.14 and 2.12.5, "...: %w for account %q, session %q" after.
        const QRegularExpression load(u"unable to connect: loading session record(?=.*\"SESS\")(?=.*stream not found \\(10059\\))"_s);
        QVERIFY2(waitForLines(server, load, 4), qPrintable(server.logTail()));
        QVERIFY(server.stop()); // the log is complete

        const QStringList overlapLines = server.logLinesMatching(overlap);
        const QStringList loadLines = server.logLinesMatching(load);
        QCOMPARE(overlapLines.size(), 5);
        QCOMPARE(loadLines.size(), 4);
        // Why `grep MQTT` was not enough: the refused CONNECTs do not say "MQTT".
        QVERIFY2(!overlapLines.first().contains(u"MQTT"_s) && !loadLines.first().contains(u"MQTT"_s), qPrintable(loadLines.first()));
        QFile logFile(server.logFilePath());
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        const QByteArray log = logFile.readAll();
        const qint64 logLines = log.count('\n');
        QVERIFY2(logLines > 50, qPrintable(QString::number(logLines))); // banner, debug lines, connections

        // The README's usage: the whole log, no grep.
        const CliRunner::Run run = CliRunner::run({u"explain"_s, u"--file"_s, server.logFilePath(), u"--json"_s});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(run.exitCode() == 0, qPrintable(run.describe())); // every MQTT line of the log is explained

        const QJsonObject blocked = groupOf(run.json, u"asm.create_sessions_stream"_s, u"OVL"_s);
        QVERIFY2(!blocked.isEmpty(), qPrintable(run.describe()));
        QCOMPARE(blocked.value(u"count"_s).toInteger(), 5);
        QCOMPARE(tally(blocked), (QMap<QString, qint64>{{u"ovl-1"_s, 3}, {u"ovl-2"_s, 2}}));
        const QJsonObject blockedMatch = blocked.value(u"match"_s).toObject();
        QCOMPARE(blockedMatch.value(u"codes"_s).toArray(), QJsonArray{u"SUBJECTS_OVERLAP"_s});
        QCOMPARE(blockedMatch.value(u"severity"_s).toString(), u"critical"_s); // as SUBJECTS_OVERLAP
        QCOMPARE(blockedMatch.value(u"error_code"_s).toInt(), 10065);
        QVERIFY(blockedMatch.value(u"connect_refused"_s).toBool());
        QCOMPARE(blockedMatch.value(u"line"_s).toString(), overlapLines.first().trimmed());
        QCOMPARE(blocked.value(u"first_line"_s).toObject().value(u"source"_s).toString(), server.logFilePath());
        const QString firstSeen = blocked.value(u"first_seen"_s).toString();
        const QString lastSeen = blocked.value(u"last_seen"_s).toString();
        QVERIFY2(firstSeen.size() >= 19 && firstSeen.at(10) == u'T' && firstSeen < lastSeen, qPrintable(firstSeen + u' ' + lastSeen));
        QCOMPARE(blocked.value(u"untimed_lines"_s).toInteger(), 0);

        const QJsonObject missing = groupOf(run.json, u"session.load_failed"_s, u"SESS"_s);
        QVERIFY2(!missing.isEmpty(), qPrintable(run.describe()));
        QCOMPARE(missing.value(u"count"_s).toInteger(), 4);
        QCOMPARE(tally(missing), (QMap<QString, qint64>{{u"sess-1"_s, 2}, {u"sess-2"_s, 2}}));
        const QJsonObject missingMatch = missing.value(u"match"_s).toObject();
        QCOMPARE(missingMatch.value(u"codes"_s).toArray(), QJsonArray{u"STREAM_MISSING"_s});
        QCOMPARE(missingMatch.value(u"severity"_s).toString(), u"critical"_s); // $MQTT_sess missing, as `check` rates it
        QCOMPARE(missingMatch.value(u"stream"_s).toString(), u"$MQTT_sess"_s);
        QVERIFY(missingMatch.value(u"connect_refused"_s).toBool());

        // The two groups come first (critical), and the counts add up to the whole log.
        const QJsonArray groups = run.json.value(u"groups"_s).toArray();
        QVERIFY(groups.size() >= 2);
        QVERIFY(groups.at(0).toObject() == blocked || groups.at(0).toObject() == missing);
        QVERIFY(groups.at(1).toObject() == blocked || groups.at(1).toObject() == missing);
        qint64 explained = 0;
        for (const QJsonValue &g : groups)
            explained += g.toObject().value(u"count"_s).toInteger();
        const QJsonObject summary = summaryOf(run.json);
        QCOMPARE(summary.value(u"lines"_s).toInteger(), logLines);
        QCOMPARE(summary.value(u"not_recognised"_s).toInteger(), 0);
        QCOMPARE(summary.value(u"explained"_s).toInteger(), explained);
        QVERIFY(explained >= 9);
        QCOMPARE(summary.value(u"explained"_s).toInteger() + summary.value(u"skipped"_s).toInteger()
                     + summary.value(u"blank"_s).toInteger(),
                 logLines);
        QCOMPARE(summary.value(u"groups"_s).toInteger(), groups.size());
        QCOMPARE(summary.value(u"sources"_s).toArray(), QJsonArray{server.logFilePath()});

        // The same log on standard input, and as text: the summary (it would not fit on a screen) names both.
        const CommandRunner::Result piped = explainStdin({u"--json"_s}, log);
        QCOMPARE(piped.exitCode, 0);
        const QJsonObject pipedJson = QJsonDocument::fromJson(piped.standardOutput).object();
        QCOMPARE(groupOf(pipedJson, u"asm.create_sessions_stream"_s, u"OVL"_s).value(u"count"_s).toInteger(), 5);
        QCOMPARE(groupOf(pipedJson, u"session.load_failed"_s, u"SESS"_s).value(u"count"_s).toInteger(), 4);
        QCOMPARE(summaryOf(pipedJson).value(u"sources"_s).toArray(), QJsonArray{u"-"_s});

        const CliRunner::Run text = CliRunner::run({u"explain"_s, u"--file"_s, server.logFilePath(), u"--summary"_s});
        QCOMPARE(text.exitCode(), 0);
        const QStringList rows = text.out().split(u'\n');
        QVERIFY2(rows.first().startsWith(u"COUNT"_s), qPrintable(text.out()));
        QVERIFY2(rows.at(1).startsWith(u"5 "_s) || rows.at(1).startsWith(u"4 "_s), qPrintable(text.out()));
        QVERIFY2(text.out().contains(u"SUBJECTS_OVERLAP"_s) && text.out().contains(u"STREAM_MISSING"_s), qPrintable(text.out()));
        QVERIFY2(text.out().contains(u"%1 lines read: %2 explained ("_s.arg(QLocale(QLocale::English).toString(logLines)).arg(explained)),
                 qPrintable(text.out()));
        const CliRunner::Run details = CliRunner::run({u"explain"_s, u"--file"_s, server.logFilePath(), u"--details"_s});
        QCOMPARE(details.exitCode(), 0);
        QVERIFY2(details.out().contains(u"[1] 5 lines, "_s) || details.out().contains(u"[2] 5 lines, "_s), qPrintable(details.out()));
        QVERIFY2(details.out().contains(u"client IDs ovl-1 (3), ovl-2 (2)"_s), qPrintable(details.out()));
        QVERIFY2(details.out().contains(u"client IDs sess-1 (2), sess-2 (2)"_s), qPrintable(details.out()));
    }

    // --- inputs that are not a readable log -----------------------------------------------------------------------

    void pathsThatCannotBeRead()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString &path : {dir.filePath(u"no-such.log"_s), dir.path()}) {
            const CliRunner::Run text = CliRunner::run({u"explain"_s, u"--file"_s, path});
            QCOMPARE(text.exitCode(), 3);
            QVERIFY2(text.err().contains(u"cannot read "_s + path), qPrintable(text.describe()));
            QVERIFY(text.out().isEmpty());
            const CliRunner::Run json = CliRunner::run({u"explain"_s, u"--file"_s, path, u"--json"_s});
            QCOMPARE(json.exitCode(), 3);
            QVERIFY2(json.jsonValid && json.json.value(u"error"_s).toObject().value(u"kind"_s).toString() == u"io"_s,
                     qPrintable(json.describe()));
        }
        // A file that opens but fails to read (the kernel answers EIO): the read error is reported, exit 3.
        const CliRunner::Run eio = CliRunner::run({u"explain"_s, u"--file"_s, u"/proc/self/mem"_s});
        QCOMPARE(eio.exitCode(), 3);
        QVERIFY2(eio.err().contains(u"reading /proc/self/mem failed after line 0"_s), qPrintable(eio.describe()));
        const CliRunner::Run eioLines = CliRunner::run({u"explain"_s, u"--file"_s, u"/proc/self/mem"_s, u"--per-line"_s, u"--json"_s});
        QCOMPARE(eioLines.exitCode(), 3);
        QVERIFY2(eioLines.jsonValid && eioLines.json.contains(u"error"_s), qPrintable(eioLines.describe()));
        // No lines at all.
        const CommandRunner::Result empty = explainStdin({}, QByteArray("\n  \n"));
        QCOMPARE(empty.exitCode, 64);
        QVERIFY2(QString::fromUtf8(empty.standardError).contains(u"no log lines to explain"_s), qPrintable(describe(empty)));
    }

    void binaryGarbage()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QByteArray garbage(4 * 1024 * 1024, '\0');
        QRandomGenerator random(20261202);
        random.fillRange(reinterpret_cast<quint32 *>(garbage.data()), garbage.size() / 4);
        QFile f(dir.filePath(u"core.bin"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(garbage);
        f.close();
        const CliRunner::Run json = CliRunner::run({u"explain"_s, u"--file"_s, f.fileName(), u"--json"_s});
        QCOMPARE(json.exitCode(), 0);
        QVERIFY2(json.jsonValid, qPrintable(json.describe()));
        const QJsonObject summary = summaryOf(json.json);
        QCOMPARE(summary.value(u"lines"_s).toInteger(), garbage.count('\n') + (garbage.endsWith('\n') ? 0 : 1));
        QCOMPARE(summary.value(u"explained"_s).toInteger(), 0);
        QCOMPARE(summary.value(u"not_recognised"_s).toInteger(), 0);
        QCOMPARE(summary.value(u"server_lines"_s).toInteger(), 0);
        const CliRunner::Run text = CliRunner::run({u"explain"_s, u"--file"_s, f.fileName()});
        QCOMPARE(text.exitCode(), 0);
        QVERIFY2(text.out().contains(u"is this a nats-server log?"_s), qPrintable(text.describe()));
    }

    // Lines of megabytes (no line end for 20 MiB, twice, the second at the end of the file) are cut, counted, and
    // the real lines around them are still explained.
    void hugeLines()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(u"huge.log"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray huge(20 * 1024 * 1024, 'x');
        f.write(kOverlapLine.arg(u"h1"_s, u"HUGE"_s).toUtf8() + '\n');
        f.write(u"[4711] 2026/12/02 15:50:39.000000 [ERR] 10.0.3.17:1 - mid:90 - \"h2\" - unable to connect: "_s.toUtf8() + huge + '\n');
        f.write(kOverlapLine.arg(u"h3"_s, u"HUGE"_s).toUtf8() + "\r\n");
        f.write(huge);
        f.close();
        const CliRunner::Run run = CliRunner::run({u"explain"_s, u"--file"_s, f.fileName(), u"--json"_s});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject summary = summaryOf(run.json);
        QCOMPARE(summary.value(u"lines"_s).toInteger(), 4);
        QCOMPARE(summary.value(u"long_lines"_s).toInteger(), 2);
        QCOMPARE(summary.value(u"explained"_s).toInteger(), 2);
        // The cut refused CONNECT is still about MQTT: not recognised (its error is unknown), exit 1.
        QCOMPARE(summary.value(u"not_recognised"_s).toInteger(), 1);
        QCOMPARE(run.exitCode(), 1);
        const QJsonObject group = groupOf(run.json, u"asm.create_sessions_stream"_s, u"HUGE"_s);
        QCOMPARE(group.value(u"count"_s).toInteger(), 2);
        QCOMPARE(tally(group), (QMap<QString, qint64>{{u"h1"_s, 1}, {u"h3"_s, 1}}));
        QCOMPARE(group.value(u"last_line"_s).toObject().value(u"line"_s).toInteger(), 3);
        const CliRunner::Run text = CliRunner::run({u"explain"_s, u"--file"_s, f.fileName()});
        QVERIFY2(text.out().contains(u"2 lines were longer than 16 KiB"_s), qPrintable(text.out().left(2000)));
    }

    // --- what is printed ------------------------------------------------------------------------------------------

    // Up to a screenful (40 lines without a terminal) every group is printed in full; beyond, one line per group
    // unless --details is given.
    void summaryOrDetails()
    {
        QByteArray few = kOverlapLine.arg(u"a"_s, u"ONE"_s).toUtf8() + '\n' + kOverlapLine.arg(u"b"_s, u"ONE"_s).toUtf8() + '\n';
        const CommandRunner::Result small = explainStdin({}, few);
        QCOMPARE(small.exitCode, 0);
        const QString smallOut = QString::fromUtf8(small.standardOutput);
        QVERIFY2(smallOut.startsWith(u"[1] 2 lines, 2026/12/02 15:50:38.001002 (lines 1 to 2 of standard input)\n"_s),
                 qPrintable(smallOut));
        QVERIFY2(smallOut.contains(u"client IDs a (1), b (1)"_s) && smallOut.contains(u"advice"_s), qPrintable(smallOut));
        QVERIFY2(smallOut.endsWith(u"2 lines read: 2 explained (1 group), 0 not recognised, 0 skipped (not about MQTT state).\n"_s),
                 qPrintable(smallOut));

        QByteArray many;
        for (int i = 0; i < 30; ++i)
            many += kOverlapLine.arg(u"c%1"_s.arg(i), u"ACC%1"_s.arg(i)).toUtf8() + '\n';
        many += "[4711] 2026/12/02 15:50:40.000000 [ERR] 127.0.0.1:1 - mid:2 - \"c\" - unable to connect: something nobody has seen yet\n";
        many += "[4711] 2026/12/02 15:50:41.000000 [INF] Server is ready\n";
        const CommandRunner::Result summary = explainStdin({}, many);
        QCOMPARE(summary.exitCode, 1); // one line is not recognised
        const QStringList rows = QString::fromUtf8(summary.standardOutput).split(u'\n');
        QVERIFY2(rows.first().startsWith(u"COUNT"_s) && rows.first().contains(u"MEANING"_s), qPrintable(rows.first()));
        QVERIFY2(rows.at(1).contains(u"critical  SUBJECTS_OVERLAP  ACC0"_s), qPrintable(rows.at(1)));
        QVERIFY2(rows.at(31).contains(u"NOT RECOGNISED: unable to connect: something nobody"_s), qPrintable(rows.at(31)));
        QVERIFY2(rows.contains(u"32 lines read: 30 explained (30 groups), 1 not recognised (1 group), 1 skipped (not about MQTT state)."_s),
                 qPrintable(rows.join(u'\n')));
        QVERIFY2(rows.at(rows.size() - 2).startsWith(u"One line per group: the full explanation of every group takes"_s),
                 qPrintable(rows.join(u'\n')));
        const CommandRunner::Result details = explainStdin({u"--details"_s}, many);
        QVERIFY2(QString::fromUtf8(details.standardOutput).contains(u"[30] 1 line, "_s), qPrintable(describe(details)));
        QVERIFY(QString::fromUtf8(details.standardOutput).contains(u"[31] 1 line NOT RECOGNISED, "_s));
        const CommandRunner::Result forced = explainStdin({u"--summary"_s}, few);
        QVERIFY2(QString::fromUtf8(forced.standardOutput).startsWith(u"COUNT"_s), qPrintable(describe(forced)));
        QCOMPARE(explainStdin({u"--summary"_s, u"--details"_s}, few).exitCode, 64);
        QCOMPARE(explainStdin({u"--per-line"_s, u"--summary"_s}, few).exitCode, 64);
    }

    // Lines given as arguments, and the per-line JSON of earlier versions (`matches`), still work.
    void argumentsAndPerLine()
    {
        const QString line = kOverlapLine.arg(u"sensor-7"_s, u"ACME"_s);
        const CliRunner::Run one = CliRunner::run({u"explain"_s, line});
        QCOMPARE(one.exitCode(), 0);
        QVERIFY2(one.out().startsWith(u"[1] 1 line, 2026/12/02 15:50:38.001002 (line 1 of the arguments)"_s), qPrintable(one.out()));
        QVERIFY(one.out().contains(u"client ID  sensor-7\n"_s));

        const CliRunner::Run perLine = CliRunner::run({u"explain"_s, line + u"\nhello\n"_s + line, u"--per-line"_s, u"--json"_s});
        QVERIFY2(perLine.jsonValid && perLine.exitCode() == 0, qPrintable(perLine.describe()));
        const QJsonArray matches = perLine.json.value(u"matches"_s).toArray();
        QCOMPARE(matches.size(), 2); // "hello" is not about MQTT
        QCOMPARE(matches.at(1).toObject().value(u"input_line"_s).toInt(), 3);
        QCOMPARE(matches.at(1).toObject().value(u"codes"_s).toArray(), QJsonArray{u"SUBJECTS_OVERLAP"_s});
        QCOMPARE(summaryOf(perLine.json).value(u"matched"_s).toInt(), 2);
        QCOMPARE(summaryOf(perLine.json).value(u"unmatched"_s).toInt(), 0);
        QCOMPARE(summaryOf(perLine.json).value(u"skipped"_s).toInt(), 1);

        const CliRunner::Run unknown = CliRunner::run(
            {u"explain"_s, u"[ERR] 127.0.0.1:1 - mid:2 - \"c\" - unable to connect: something nobody has seen yet"_s, u"--per-line"_s});
        QCOMPARE(unknown.exitCode(), 1);
        QVERIFY2(unknown.out().startsWith(u"[1] NOT RECOGNISED: "_s), qPrintable(unknown.out()));
    }
};

QTEST_GUILESS_MAIN(TestExplainLog)
#include "tst_explainlog.moc"
