// The published JSON contract on real outputs, on every server version: each command's --json output (and
// the JSON Lines of events and check --watch, the error objects, a repair that ran two rounds and the MQTT
// probe) names its schema and version and is valid against docs/schema (scripts/validate-json.py with
// Debian's python3-jsonschema). A half-written stream is checked in tst_streamedoutput.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "schemavalidator.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

QStringList withProbe(const QStringList &connection)
{
    return connection
        + QStringList{QStringLiteral("--mqtt-user"), QStringLiteral("acme"), QStringLiteral("--mqtt-password"), QStringLiteral("acmepass")};
}

/** The output of a command that runs until Ctrl-C, after `ms`. */
QByteArray untilInterrupted(const QStringList &arguments, int ms)
{
    QProcess p;
    p.start(CliRunner::path(), arguments);
    if (!p.waitForStarted(5000))
        return {};
    QTest::qWait(ms);
    ::kill(pid_t(p.processId()), SIGINT);
    p.waitForFinished(30000);
    return p.readAllStandardOutput();
}

} // namespace

class TestJsonContract : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void everyOutputMatchesItsSchema_data() { addServerVersionRows(); }
    void everyOutputMatchesItsSchema()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("sensor-1"), {QStringLiteral("sensors/#")}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("sensor-2"), {QStringLiteral("alerts/#")}, 1).subscribed());
        QVERIFY(mqtt.publish(QStringLiteral("status/gateway"), "online", 1, true, QStringLiteral("gw")).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("sensors/t"), "21.5", 1, false, QStringLiteral("pub")).acknowledged);

        QTemporaryDir dir;
        QStringList files;
        QStringList exitCodes;
        const auto save = [&](const QString &name, const QByteArray &out) {
            const QString path = dir.filePath(name);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(out);
            files << path;
        };
        const auto run = [&](const QString &name, const QStringList &args) {
            const CliRunner::Run r = CliRunner::run(args, 120000);
            QVERIFY2(!r.process.standardOutput.isEmpty(), qPrintable(name + u'\n' + r.describe()));
            save(name + QStringLiteral(".json"), r.process.standardOutput);
            exitCodes << QStringLiteral("%1=%2").arg(name).arg(r.exitCode());
        };
        const QString url = server.url();
        const QStringList sys = systemArgs(url);
        const QStringList acme = acmeWithSystemArgs(url);
        const QString json = QStringLiteral("--json");

        run(QStringLiteral("servers"), sys + QStringList{json, QStringLiteral("servers")});
        run(QStringLiteral("accounts"), sys + QStringList{json, QStringLiteral("accounts")});
        run(QStringLiteral("streams"), acme + QStringList{json, QStringLiteral("streams")});
        run(QStringLiteral("check"), withProbe(acme) + QStringList{json, QStringLiteral("check"), QStringLiteral("--probe")});
        run(QStringLiteral("check-all"), sys + QStringList{json, QStringLiteral("check"), QStringLiteral("--all-accounts")});
        run(QStringLiteral("sessions"),
            acme + QStringList{json, QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("0")});
        run(QStringLiteral("session"), acme + QStringList{json, QStringLiteral("session"), QStringLiteral("sensor-1")});
        run(QStringLiteral("inflight"), acme + QStringList{json, QStringLiteral("inflight")});
        run(QStringLiteral("pinned"), acme + QStringList{json, QStringLiteral("pinned")});
        run(QStringLiteral("retained"), acme + QStringList{json, QStringLiteral("retained")});
        const QString backup = dir.filePath(QStringLiteral("rmsgs.backup.jsonl"));
        run(QStringLiteral("backup"),
            acme
                + QStringList{json, QStringLiteral("backup"), QStringLiteral("--stream"), QStringLiteral("$MQTT_rmsgs"),
                              QStringLiteral("--out"), backup});
        run(QStringLiteral("restore"),
            acme + QStringList{json, QStringLiteral("--allow-changes"), QStringLiteral("restore"), backup, QStringLiteral("--dry-run")});
        // Errors: nothing listening, a usage error, an unknown session.
        run(QStringLiteral("error-connect"),
            QStringList{QStringLiteral("--server"), QStringLiteral("nats://127.0.0.1:1"), json, QStringLiteral("--timeout"),
                        QStringLiteral("500ms"), QStringLiteral("servers")});
        run(QStringLiteral("error-usage"),
            acme + QStringList{json, QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("abc")});
        run(QStringLiteral("error-session"), acme + QStringList{json, QStringLiteral("session"), QStringLiteral("nobody")});
        // The log explainer, grouped, per line, and its templates.
        const QString log = dir.filePath(QStringLiteral("server.log"));
        {
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(server.log().toUtf8());
            f.write("[1] 2026/12/02 17:25:30.315664 [ERR] 127.0.0.1:45368 - mid:47 - \"fresh1\" - unable to connect: loading session "
                    "record for account \"SESS\", session \"fresh1\": stream not found (10059)\n");
        }
        run(QStringLiteral("explain"), QStringList{json, QStringLiteral("explain"), QStringLiteral("--file"), log});
        run(QStringLiteral("explain-per-line"),
            QStringList{json, QStringLiteral("explain"), QStringLiteral("--per-line"), QStringLiteral("--file"), log});
        run(QStringLiteral("explain-templates"), QStringList{json, QStringLiteral("explain"), QStringLiteral("--templates")});
        // JSON Lines: client events while a client connects, and a check --watch round.
        {
            QProcess events;
            events.start(CliRunner::path(),
                         acme + QStringList{json, QStringLiteral("events"), QStringLiteral("--duration"), QStringLiteral("4s")});
            QVERIFY(events.waitForStarted(5000));
            QTest::qWait(1500);
            QVERIFY(mqtt.connectOnce(QStringLiteral("visitor")).connected());
            QVERIFY(events.waitForFinished(30000));
            save(QStringLiteral("events.jsonl"), events.readAllStandardOutput());
        }
        const QByteArray watched =
            untilInterrupted(acme + QStringList{json, QStringLiteral("check"), QStringLiteral("--watch"), QStringLiteral("1s")}, 2500);
        QVERIFY2(!watched.isEmpty(), "check --watch printed a round");
        save(QStringLiteral("check-watch.jsonl"), watched);
        // A repair that runs two rounds ($MQTT_rmsgs deleted: the stream, then the servers' retained consumer) and ends
        // with the probe.
        QTest::qWait(2500); // the repair's stream is made well after the server's own
        {
            ConnectionSet setup(acmeProfile(url));
            auto conn = setup.primary();
            QVERIFY(conn);
            QVERIFY(JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.$MQTT_rmsgs")));
        }
        run(QStringLiteral("repair-dry-run"), acme + QStringList{json, QStringLiteral("repair"), QStringLiteral("--dry-run")});
        run(QStringLiteral("repair"),
            withProbe(acme)
                + QStringList{json, QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                              QStringLiteral("--backup-dir"), dir.filePath(QStringLiteral("backups"))});
        // The operator actions: a dry run, a run that changes something, one with nothing to do.
        run(QStringLiteral("action-dry-run"),
            acme + QStringList{json, QStringLiteral("delete-sessions"), QStringLiteral("sensor-2"), QStringLiteral("--dry-run")});
        run(QStringLiteral("action-clear-retained"),
            withProbe(acme)
                + QStringList{json, QStringLiteral("--allow-changes"), QStringLiteral("clear-retained"), QStringLiteral("status/#"),
                              QStringLiteral("--yes"), QStringLiteral("--backup-dir"), dir.filePath(QStringLiteral("backups"))});
        run(QStringLiteral("action-disconnect"), acme + QStringList{json, QStringLiteral("disconnect"), QStringLiteral("nobody")});
        if (QTest::currentTestFailed())
            return;
        const QString report = SchemaValidator::validate(files);
        QVERIFY2(report.isEmpty(), qPrintable(report + u'\n' + exitCodes.join(u' ')));

        // Each output names its own schema: a script can tell an error object from a result.
        const auto schemaOf = [&](const QString &name) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("schema")).toString()
                                               : QString();
        };
        QCOMPARE(schemaOf(QStringLiteral("check.json")), QStringLiteral("nats-mqtt-doctor/check/1"));
        QCOMPARE(schemaOf(QStringLiteral("explain.json")), QStringLiteral("nats-mqtt-doctor/explain/2"));
        QCOMPARE(schemaOf(QStringLiteral("error-connect.json")), QStringLiteral("nats-mqtt-doctor/error/1"));
        QCOMPARE(schemaOf(QStringLiteral("repair.json")), QStringLiteral("nats-mqtt-doctor/repair/1"));
        QCOMPARE(schemaOf(QStringLiteral("action-clear-retained.json")), QStringLiteral("nats-mqtt-doctor/action/1"));
    }

    // A schema the outputs do not meet is caught: the validator is no rubber stamp.
    void validatorRejectsWhatBreaksTheContract()
    {
        QTemporaryDir dir;
        // explain's old default shape under its new id.
        QString report = SchemaValidator::validateData(dir.path(), QStringLiteral("old-explain.json"),
                                                       R"({"schema": "nats-mqtt-doctor/explain/2", "matches": []})");
        QVERIFY2(!report.isEmpty(), "an explain output without groups must fail");
        // No schema member at all, and an unknown id.
        report = SchemaValidator::validateData(dir.path(), QStringLiteral("none.json"), R"({"servers": []})");
        QVERIFY2(report.contains(QStringLiteral("schema")), qPrintable(report));
        report = SchemaValidator::validateData(dir.path(), QStringLiteral("unknown.json"), R"({"schema": "nats-mqtt-doctor/check/99"})");
        QVERIFY(!report.isEmpty());
        // A finding with an unknown severity.
        report = SchemaValidator::validateData(dir.path(), QStringLiteral("bad-finding.json"),
                                               R"({"schema": "nats-mqtt-doctor/error/1", "error": {"kind": "timeout", "message": 5}})");
        QVERIFY(!report.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJsonContract)
#include "tst_jsoncontract.moc"
