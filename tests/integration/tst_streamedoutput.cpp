// The commands that write record by record (sessions, retained, check, streams): against real servers
// with state made by real MQTT clients, the JSON they stream is the document the core builds for the
// same records (parsed and compared as trees), every key they write is documented in docs/cli.md, and
// a connection lost in the middle of a stream ends the output as one valid JSON object with an `error`
// member (text: the rows so far, then the error), exit 3.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "benchdata.h"
#include "clirunner.h"
#include "mqttclient.h"
#include "livecheck.h"
#include "persistentsessionfixture.h"
#include "schemavalidator.h"
#include "nats/connectionset.h"
#include "records/accountrecordaccess.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

// The section of docs/cli.md about `command` (from its "### `command" heading to the next heading).
QString docSection(const QString &command)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/docs/cli.md"_s);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString doc = QString::fromUtf8(f.readAll());
    const qsizetype start = doc.indexOf(u"\n### `"_s + command);
    if (start < 0)
        return {};
    const qsizetype end = doc.indexOf(u"\n### "_s, start + 1);
    return doc.mid(start, end < 0 ? -1 : end - start);
}

// Every key of `value` (nested objects and arrays of objects), except inside members given as raw
// server JSON (`config`, `state`, `cluster`, `expected`, `layout`, evidence values).
void collectKeys(const QJsonValue &value, QSet<QString> &keys)
{
    static const QSet<QString> opaque{u"config"_s, u"state"_s,  u"cluster"_s, u"expected"_s,
                                      u"actual"_s, u"layout"_s, u"layouts"_s, u"evidence"_s};
    if (value.isArray()) {
        for (const QJsonValue &v : value.toArray())
            collectKeys(v, keys);
        return;
    }
    if (!value.isObject())
        return;
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        keys.insert(it.key());
        if (!opaque.contains(it.key()))
            collectKeys(it.value(), keys);
    }
}

// Keys the output has that its docs/cli.md section does not name: as `key`, "key", or a word of a
// code span (`{filter, topic, qos}`).
QStringList undocumentedKeys(const QString &command, const QJsonObject &output)
{
    const QString section = docSection(command);
    if (section.isEmpty())
        return {u"(no section for %1 in docs/cli.md)"_s.arg(command)};
    QSet<QString> keys;
    collectKeys(output, keys);
    QStringList missing;
    for (const QString &key : std::as_const(keys))
        if (!section.contains(u'"' + key + u'"')
            && !section.contains(QRegularExpression(u"`[^`\\n]*\\b"_s + QRegularExpression::escape(key) + u"\\b[^`\\n]*`"_s)))
            missing << key;
    missing.sort();
    return missing;
}

QJsonObject parsed(const CliRunner::Run &run, QString *problem)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.process.standardOutput, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        *problem = u"not one JSON object (%1 at %2): %3"_s.arg(error.errorString()).arg(error.offset).arg(run.describe());
    return doc.object();
}

} // namespace

class TestStreamedOutput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void sameAsDocuments_data() { addServerVersionRows(); }

    void sameAsDocuments()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        MqttClient &acme = lab.mqtt();
        const MqttResult s1 = lab.addSession(u"sensor-sub-1"_s, {u"sensors/+/temp"_s, u"alerts/#"_s});
        QVERIFY2(s1.subscribed(), qPrintable(s1.describe()));
        const MqttResult s2 = lab.addSession(u"caf\u00e9-\"2\""_s, {u"#"_s});
        QVERIFY2(s2.subscribed(), qPrintable(s2.describe()));
        QVERIFY2(acme.publish(u"sensors/kitchen/temp"_s, "21.5", 1, true).acknowledged, "retained publish");
        QVERIFY2(acme.publish(u"status/d\u00f6or"_s, "open\n\"now\"", 1, true).acknowledged, "retained publish");
        QVERIFY2(acme.publish(u"alerts/smoke"_s, "smoke!", 1).acknowledged, "queued publish");
        const QString url = lab.url();
        ConnectionSet connections(LiveCheck::acmeWithSystemProfile(url));
        auto src = AccountRecordAccess::resolve(connections, {});
        QVERIFY2(src, qPrintable(src ? QString() : src.error().toString()));
        // An undecodable record next to the real ones, stored twice: the stream keeps the second, and
        // the first one's sequence is a gap that a first page read by sequence must step over.
        for (int i = 0; i < 2; ++i) {
            auto stored = src->connection->request(u"$MQTT.sess.Garbage1"_s, "{\"id\":\"half", 5000);
            QVERIFY2(stored && stored->data.contains("\"seq\""), "garbage session record stored");
        }
        QVERIFY(acme.publish(u"sensors/late/temp"_s, "1", 1).acknowledged); // another message between

        // The documents the core builds for the same records (no client is connected: stable).
        auto consumers = SessionLoader::loadConsumers(src->connection, src->apiDomain);
        QVERIFY(consumers);
        const auto connected = src->connectedClients(connections);
        QVERIFY(connected);
        SessionLoadOptions options;
        options.dialect = src->dialect;
        options.domain = src->apiDomain;
        options.includeLegacy = true;
        QJsonArray sessions;
        auto loaded =
            SessionLoader::load(src->connection, options, *consumers, connected, [&](QList<SessionEntry> &&batch, const ReadProgress &) {
                for (const SessionEntry &e : batch)
                    sessions.append(SessionLoader::toJson(e));
                return true;
            });
        QVERIFY(loaded);
        QCOMPARE(sessions.size(), 3);
        QJsonArray retained;
        auto retainedLoaded = RetainedLoader::load(src->connection, {}, [&](QList<RetainedEntry> &&batch, const ReadProgress &) {
            for (const RetainedEntry &e : batch)
                retained.append(RetainedLoader::toJson(e));
            return true;
        });
        QVERIFY(retainedLoaded);
        QCOMPARE(retained.size(), 2);

        QString problem;
        const auto all = CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"sessions"_s, u"--limit"_s, u"0"_s});
        const QJsonObject allJson = parsed(all, &problem);
        QVERIFY2(problem.isEmpty() && all.exitCode() == 0, qPrintable(problem + all.describe()));
        const QString sessionsSchema = u"nats-mqtt-doctor/sessions/1"_s;
        QCOMPARE(
            allJson,
            (QJsonObject{{u"schema"_s, sessionsSchema}, {u"account"_s, src->account}, {u"sessions"_s, sessions}, {u"truncated"_s, false}}));
        QVERIFY2(undocumentedKeys(u"sessions"_s, allJson).isEmpty(), qPrintable(undocumentedKeys(u"sessions"_s, allJson).join(u", "_s)));

        // The first pages (read by sequence, no consumer) are the full list's first records.
        for (int limit = 1; limit <= 4; ++limit) {
            const auto first =
                CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"sessions"_s, u"--limit"_s, QString::number(limit)});
            const QJsonObject firstJson = parsed(first, &problem);
            QVERIFY2(problem.isEmpty() && first.exitCode() == 0, qPrintable(problem + first.describe()));
            QJsonArray page;
            for (int i = 0; i < limit && i < sessions.size(); ++i)
                page.append(sessions.at(i));
            QCOMPARE(firstJson,
                     (QJsonObject{{u"schema"_s, sessionsSchema},
                                  {u"account"_s, src->account},
                                  {u"sessions"_s, page},
                                  {u"truncated"_s, limit < sessions.size()}}));
        }

        const auto ret = CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"retained"_s});
        const QJsonObject retJson = parsed(ret, &problem);
        QVERIFY2(problem.isEmpty() && ret.exitCode() == 0, qPrintable(problem + ret.describe()));
        QCOMPARE(retJson,
                 (QJsonObject{{u"schema"_s, u"nats-mqtt-doctor/retained/1"_s}, {u"account"_s, src->account}, {u"retained"_s, retained}}));
        QVERIFY2(undocumentedKeys(u"retained"_s, retJson).isEmpty(), qPrintable(undocumentedKeys(u"retained"_s, retJson).join(u", "_s)));

        // streams and check: their documented members, every key documented.
        const auto streams = CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"streams"_s});
        const QJsonObject streamsJson = parsed(streams, &problem);
        QVERIFY2(problem.isEmpty() && streams.exitCode() == 0, qPrintable(problem + streams.describe()));
        QCOMPARE(QStringList(streamsJson.keys()),
                 (QStringList{u"account"_s, u"jetstream"_s, u"layout"_s, u"missing"_s, u"schema"_s, u"source"_s, u"streams"_s}));
        QVERIFY(streamsJson.value(u"streams"_s).toArray().size() >= 3);
        QVERIFY2(undocumentedKeys(u"streams"_s, streamsJson).isEmpty(),
                 qPrintable(undocumentedKeys(u"streams"_s, streamsJson).join(u", "_s)));

        const auto check = CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"check"_s});
        const QJsonObject checkJson = parsed(check, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(
            QStringList(checkJson.keys()),
            (QStringList{u"accounts"_s, u"coverage"_s, u"coverage_complete"_s, u"findings"_s, u"layouts"_s, u"not_checked"_s, u"notes"_s,
                         u"records_checked"_s, u"schema"_s, u"summary"_s, u"two_sample_checks"_s, u"unanswered_servers"_s}));
        bool garbageFound = false;
        for (const QJsonValue &f : checkJson.value(u"findings"_s).toArray())
            garbageFound = garbageFound || f.toObject().value(u"subject"_s).toString() == u"$MQTT.sess.Garbage1"_s;
        QVERIFY2(garbageFound, qPrintable(check.out()));
        QCOMPARE(check.exitCode(), 2);
        QVERIFY2(undocumentedKeys(u"check"_s, checkJson).isEmpty(), qPrintable(undocumentedKeys(u"check"_s, checkJson).join(u", "_s)));
    }

    // The server dies while a big listing streams: what was written stays valid, the error closes it.
    void connectionLostMidStream_data()
    {
        QTest::addColumn<bool>("json");
        QTest::newRow("json") << true;
        QTest::newRow("text") << false;
    }

    void connectionLostMidStream()
    {
        QFETCH(bool, json);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        constexpr int kRecords = 150000;
        QVERIFY(BenchData::fill(lab.url().toUtf8(), kRecords, 0));

        QProcess cli;
        QStringList args = lab.cliArgs() + QStringList{u"--timeout"_s, u"3s"_s, u"sessions"_s, u"--limit"_s, u"0"_s};
        if (json)
            args.prepend(u"--json"_s);
        cli.start(CliRunner::path(), args);
        QVERIFY(cli.waitForStarted(5000));
        QByteArray out;
        // Killed as soon as the first records are out: the rest of the stream is still to come.
        QDeadlineTimer deadline(60000);
        while (out.size() < 64 * 1024 && !deadline.hasExpired() && cli.state() == QProcess::Running) {
            cli.waitForReadyRead(100);
            out += cli.readAllStandardOutput();
        }
        QVERIFY2(out.size() >= 64 * 1024, qPrintable(QString::fromUtf8(cli.readAllStandardError())));
        QCOMPARE(::kill(pid_t(lab.server().processId()), SIGKILL), 0);
        QVERIFY2(cli.waitForFinished(60000), "the CLI ends after the server is gone");
        out += cli.readAllStandardOutput();
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 3);
        if (json) {
            QJsonParseError error;
            const QJsonObject doc = QJsonDocument::fromJson(out, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError,
                     qPrintable(error.errorString() + u": "_s + QString::fromUtf8(out.right(2000))));
            const qsizetype listed = doc.value(u"sessions"_s).toArray().size();
            QVERIFY2(listed > 0 && listed < kRecords, qPrintable(QString::number(listed)));
            const QJsonObject e = doc.value(u"error"_s).toObject();
            QVERIFY2(e.value(u"message"_s).toString().contains(u"connection to the server was lost"_s)
                         && !e.value(u"kind"_s).toString().isEmpty(),
                     qPrintable(QString::fromUtf8(out.right(2000))));
            QCOMPARE(doc.value(u"truncated"_s), QJsonValue(false));
            // The half-written stream still meets its published schema (docs/schema/sessions.schema.json).
            QTemporaryDir dir;
            const QString report = SchemaValidator::validateData(dir.path(), u"half-written.json"_s, out);
            QVERIFY2(report.isEmpty(), qPrintable(report));
        } else {
            const QList<QByteArray> lines = out.split('\n');
            QVERIFY(lines.first().startsWith("CLIENT ID"));
            QVERIFY2(lines.size() > 10 && lines.size() < kRecords, qPrintable(QString::number(lines.size())));
            QVERIFY2(err.contains(u"error: "_s) && err.contains(u"connection to the server was lost"_s), qPrintable(err));
        }
    }

    // A finding per session (every durable missing): text shows each code ten times per account, then counts
    // the rest; --all-findings prints every one; JSON always lists them all. The summary counts them all.
    void manyAlikeFindingsAreCounted()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        constexpr int kRecords = 40;
        QVERIFY(BenchData::fill(lab.url().toUtf8(), kRecords, 0));
        const QStringList args = lab.cliArgs() + QStringList{u"check"_s};
        const auto text = CliRunner::run(args);
        QCOMPARE(text.exitCode(), 2);
        QCOMPARE(text.out().count(u"ERROR    SESSION_MISSING_CONSUMER"_s), 10);
        QVERIFY2(text.out().contains(u"... and %1 more SESSION_MISSING_CONSUMER findings like these"_s.arg(kRecords - 10)),
                 qPrintable(text.out()));
        const QString summaryLine = text.out().mid(text.out().indexOf(u"Checked 1 account"_s));
        const QRegularExpressionMatch errors = QRegularExpression(u" (\\d+) errors"_s).match(summaryLine);
        QVERIFY2(errors.hasMatch() && errors.captured(1).toInt() > kRecords, qPrintable(summaryLine)); // the missing streams too
        const auto all = CliRunner::run(args + QStringList{u"--all-findings"_s});
        QCOMPARE(all.exitCode(), 2);
        QCOMPARE(all.out().count(u"ERROR    SESSION_MISSING_CONSUMER"_s), kRecords);
        QVERIFY(!all.out().contains(u"more SESSION_MISSING_CONSUMER findings"_s));
        const auto json = CliRunner::run(QStringList{u"--json"_s} + args);
        QString problem;
        const QJsonObject doc = parsed(json, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qsizetype missing = 0;
        for (const QJsonValue &f : doc.value(u"findings"_s).toArray())
            missing += f.toObject().value(u"code"_s).toString() == u"SESSION_MISSING_CONSUMER"_s ? 1 : 0;
        QCOMPARE(missing, qsizetype(kRecords));
    }
};

QTEST_GUILESS_MAIN(TestStreamedOutput)
#include "tst_streamedoutput.moc"
