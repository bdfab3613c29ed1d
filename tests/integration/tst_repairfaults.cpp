// The repair executor under faults, against real servers: the server killed between a step's backup
// and its destructive change, the connection lost mid-plan, and MQTT clients connecting while the
// repair creates their streams (the create race behind the seed "could not look up or create the
// retained messages stream"). Each time: a rerun completes, check is clean, MQTT works, nothing is lost.
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include "livecheck.h"
#include "repairrun.h"
#include "mqttclient.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "repair/backupfile.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

QStringList streamNames(const QString &url)
{
    ConnectionSet connections(acmeProfile(url, false));
    auto conn = connections.primary();
    if (!conn)
        return {QStringLiteral("error: ") + conn.error().toString()};
    JetStreamClient js(*conn);
    auto names = js.streamNames();
    if (!names)
        return {QStringLiteral("error: ") + names.error().toString()};
    QStringList out = *names;
    out.sort();
    return out;
}

} // namespace

class TestRepairFaults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    // An operator's stream captures $MQTT.> before the first MQTT client (10065). The repair backs it
    // up, removes it and creates the MQTT streams; the server dies right after the backup.
    void serverKilledAfterBackup_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2.9") << QStringLiteral("2.9");
        QTest::newRow("newest") << QStringLiteral("newest");
    }
    void serverKilledAfterBackup()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const QString url = server.url();
        ConnectionSet setup(acmeProfile(url));
        auto conn = setup.primary();
        QVERIFY(conn);
        JetStreamClient js(*conn);
        QVERIFY(js.call(QStringLiteral("STREAM.CREATE.CATCHALL"),
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("CATCHALL")},
                                    {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.>")}},
                                    {QStringLiteral("storage"), QStringLiteral("file")}}));
        for (int i = 0; i < 5; ++i)
            QVERIFY((*conn)->request(QStringLiteral("$MQTT.audit.%1").arg(i), QByteArray("kept ") + QByteArray::number(i), 5000));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(!mqtt.connectOnce(QStringLiteral("c1")).connected());
        // The server's own failed set-up also stored into CATCHALL: count what is there now.
        auto info = js.streamInfo(QStringLiteral("CATCHALL"));
        QVERIFY(info);
        const qint64 held = info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger();
        QVERIFY(held >= 5);

        QTemporaryDir dir;
        const QString backups = dir.filePath(QStringLiteral("backups"));
        const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
        bool killed = false;
        const Outcome first = repairOnce(url, backups, audit, [&](const RepairStep &step, const QStringList &files) {
            if (killed || !step.destructive || files.isEmpty())
                return;
            killed = true;
            server.stop(1); // the backup is on disk; the destructive request never reaches the server
        });
        QVERIFY2(killed, qPrintable(describeOutcome(first)));
        // The planner puts the blocker first and makes the creations wait for it.
        QVERIFY2(!first.plan.steps.isEmpty() && first.plan.steps.first().action == QLatin1String("resolve_overlap"),
                 qPrintable(describeOutcome(first)));
        int creates = 0;
        for (const RepairStep &s : first.plan.steps)
            if (s.action == QLatin1String("create_stream")) {
                ++creates;
                QVERIFY2(s.dependsOn.contains(first.plan.steps.first().id) || s.stream != QLatin1String("$MQTT_sess"),
                         qPrintable(describeOutcome(first)));
            }
        QVERIFY2(creates >= 1, qPrintable(describeOutcome(first)));
        QCOMPARE(first.report.outcomes.first().state, StepOutcome::State::Failed);
        for (int i = 1; i < first.report.outcomes.size(); ++i)
            QVERIFY(first.report.outcomes.at(i).state == StepOutcome::State::NotRun);
        QVERIFY2(!first.report.complete, qPrintable(describeOutcome(first)));
        QVERIFY2(first.report.stoppedBecause.contains(QStringLiteral("restore")), qPrintable(describeOutcome(first)));
        QCOMPARE(first.report.backups.size(), 1);

        // The backup holds every message of the stream that was about to go.
        int backedUp = 0;
        auto backup = BackupFileReader::read(first.report.backups.first(), [&backedUp](BackupMessage &&, qint64) {
            ++backedUp;
            return true;
        });
        QVERIFY2(backup, qPrintable(backup ? QString() : backup.error().toString()));
        QCOMPARE(qint64(backedUp), held);

        QVERIFY2(server.startAgain(), qPrintable(server.errorString()));
        const Outcome second = repairOnce(url, backups, audit);
        QVERIFY2(second.error.isEmpty() && second.report.complete, qPrintable(describeOutcome(second)));
        const CliRunner::Run clean = check(acmeArgs(url));
        QVERIFY2(findingsAbove(clean, QStringLiteral("info")).isEmpty(), qPrintable(describe(clean)));
        QVERIFY2(!streamNames(url).contains(QStringLiteral("CATCHALL")) || check(acmeArgs(url)).exitCode() == 0, "overlap resolved");
        QVERIFY2(mqtt.createPersistentSession(QStringLiteral("c1"), {QStringLiteral("a/b")}, 1).subscribed(), "MQTT works again");

        // A third run has nothing to do.
        const Outcome third = repairOnce(url, backups, audit);
        QVERIFY2(third.error.isEmpty() && third.plan.steps.isEmpty(), qPrintable(describeOutcome(third)));
    }

    // $MQTT_sess deleted under a running server; the repair recreates it while MQTT clients keep
    // connecting (each connect fails with 10059 until the stream exists, then succeeds).
    void createRaceWithConnectingClients()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest"), ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}, 1).subscribed());
        const QString url = server.url();
        ConnectionSet setup(acmeProfile(url));
        auto conn = setup.primary();
        QVERIFY(conn);
        QVERIFY(JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.$MQTT_sess")));

        std::atomic<bool> stop{false};
        std::atomic<int> attempts{0};
        std::thread clients([&] {
            const MqttClient c(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
            while (!stop.load()) {
                (void)c.connectOnce(QStringLiteral("racer-%1").arg(attempts.fetch_add(1) % 3), false);
            }
        });
        QTemporaryDir dir;
        const Outcome repaired = repairOnce(url, dir.filePath(QStringLiteral("b")), dir.filePath(QStringLiteral("audit.jsonl")));
        stop = true;
        clients.join();
        QVERIFY2(repaired.error.isEmpty() && repaired.report.complete, qPrintable(describeOutcome(repaired)));
        QVERIFY(attempts.load() > 0);
        const CliRunner::Run clean = check(acmeArgs(url));
        QVERIFY2(findingsWith(clean, QStringLiteral("STREAM_MISSING")).isEmpty(), qPrintable(describe(clean)));
        QVERIFY2(findingsWith(clean, QStringLiteral("STREAM_CONFIG_WRONG")).isEmpty(), qPrintable(describe(clean)));
        QVERIFY2(mqtt.connectOnce(QStringLiteral("after-race"), false).connected(), "MQTT works");
    }

    // The connection drops between two steps of a plan (the server restarts while the plan runs): the run either
    // carries on after the client reconnects or stops with a report; a rerun completes; nothing is lost.
    void connectionDroppedMidPlan()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.10"), ServerConfig::standard()), qPrintable(server.errorString()));
        const QString url = server.url();
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        mqtt.setTimeoutMs(30000);
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("survivor"), {QStringLiteral("s/#")}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("broken-rec"), {QStringLiteral("b/#")}, 1).subscribed());
        QVERIFY(mqtt.publish(QStringLiteral("s/queued"), "still-here", 1).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("s/retained"), "kept-retained", 1, true).acknowledged);
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({url}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        // Three independent problems: three steps.
        QVERIFY2(admin.deleteStream(QStringLiteral("$MQTT_qos2in")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(QStringLiteral("$MQTT_sess"), {{QStringLiteral("max_msgs_per_subject"), 4}}),
                 qPrintable(admin.error()));
        QVERIFY2(admin.store(QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(QStringLiteral("broken-rec")), "garbage"),
                 qPrintable(admin.error()));
        const QStringList survivorDurables = [&admin] {
            QStringList out;
            for (const QString &n : admin.consumerNames(QStringLiteral("$MQTT_msgs")))
                if (n.startsWith(ClientIdHash::hash(QStringLiteral("survivor")) + QLatin1Char('_')))
                    out << n;
            return out;
        }();
        QVERIFY(!survivorDurables.isEmpty());

        QTemporaryDir dir;
        const QString backups = dir.filePath(QStringLiteral("backups"));
        const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
        int seen = 0;
        bool dropped = false;
        const Outcome first = repairOnce(url, backups, audit, [&](const RepairStep &, const QStringList &) {
            if (++seen != 2)
                return;
            dropped = server.stop() && server.startAgain(); // every client connection drops; the server is back
        });
        QVERIFY2(first.error.isEmpty(), qPrintable(describeOutcome(first)));
        QVERIFY2(first.plan.steps.size() >= 3, qPrintable(describeOutcome(first)));
        QVERIFY2(dropped,
                 qPrintable(QStringLiteral("steps applied: %1; %2\n%3").arg(seen).arg(server.errorString(), describeOutcome(first))));
        if (!first.report.complete) { // stopped: it says where and why, and nothing after the failed step ran
            QVERIFY2(!first.report.stoppedBecause.isEmpty(), qPrintable(describeOutcome(first)));
            bool failedSeen = false;
            for (const StepOutcome &o : first.report.outcomes) {
                if (failedSeen)
                    QVERIFY2(o.state == StepOutcome::State::NotRun, qPrintable(describeOutcome(first)));
                failedSeen = failedSeen || o.state == StepOutcome::State::Failed;
            }
        }
        const Outcome second = repairOnce(url, backups, audit);
        QVERIFY2(second.error.isEmpty() && second.report.complete, qPrintable(describeOutcome(second)));
        const CliRunner::Run clean = check(acmeArgs(url));
        QVERIFY2(findingsAbove(clean, QStringLiteral("info")).isEmpty(), qPrintable(describe(clean)));

        // Nothing lost: the survivor's durables, its queued message and the retained message.
        QStringList after;
        for (const QString &n : admin.consumerNames(QStringLiteral("$MQTT_msgs")))
            if (n.startsWith(ClientIdHash::hash(QStringLiteral("survivor")) + QLatin1Char('_')))
                after << n;
        QCOMPARE(after, survivorDurables);
        const MqttResult resumed = mqtt.subscribeAndCollect(QStringLiteral("survivor"), {QStringLiteral("s/#")}, 1, 2, 10, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("still-here")), qPrintable(resumed.describe()));
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("kept-retained")), qPrintable(resumed.describe()));
        QVERIFY2(mqtt.createPersistentSession(QStringLiteral("broken-rec"), {QStringLiteral("b/#")}, 1).subscribed(),
                 "the purged client connects");
    }

    // A read-only profile is refused before anything runs; the state is untouched.
    void readOnlyRefused()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.10"), ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("ro"), {QStringLiteral("r/#")}, 1).subscribed());
        const QString url = server.url();
        ConnectionSet setup(acmeProfile(url));
        QVERIFY(JetStreamClient(*setup.primary()).call(QStringLiteral("STREAM.DELETE.$MQTT_qos2in")));
        const QStringList before = streamNames(url);
        const auto refused =
            CliRunner::run(acmeArgs(url) + QStringList{QStringLiteral("repair"), QStringLiteral("--yes"), QStringLiteral("--json")});
        QCOMPARE(refused.exitCode(), 3);
        QVERIFY2(refused.out().contains(QStringLiteral("read_only")) || refused.out().contains(QStringLiteral("read-only")),
                 qPrintable(refused.describe()));
        QCOMPARE(streamNames(url), before);
        // Without --yes and without a terminal: refused too, even with changes allowed.
        const auto unconfirmed = CliRunner::run(acmeArgs(url) + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair")});
        QCOMPARE(unconfirmed.exitCode(), 3);
        QCOMPARE(streamNames(url), before);
        // A dry run shows the plan, changes nothing, and exits 1.
        const auto dry =
            CliRunner::run(acmeArgs(url) + QStringList{QStringLiteral("repair"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(dry.exitCode() == 1 && dry.jsonValid, qPrintable(dry.describe()));
        QCOMPARE(dry.json.value(QLatin1String("plan"))
                     .toObject()
                     .value(QLatin1String("steps"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("action"))
                     .toString(),
                 QStringLiteral("create_stream"));
        QCOMPARE(streamNames(url), before);
        // And the real thing.
        QTemporaryDir dir;
        const auto applied =
            CliRunner::run(acmeArgs(url)
                           + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                                         QStringLiteral("--backup-dir"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(applied.exitCode() == 0 && applied.jsonValid, qPrintable(applied.describe()));
        QVERIFY(applied.json.value(QLatin1String("applied")).toObject().value(QLatin1String("complete")).toBool());
        QVERIFY(applied.json.value(QLatin1String("remaining")).toArray().isEmpty());
        QVERIFY(streamNames(url).contains(QStringLiteral("$MQTT_qos2in")));
    }
};

QTEST_GUILESS_MAIN(TestRepairFaults)
#include "tst_repairfaults.moc"
