// Retained delivery as a real MQTT client sees it, on every server version: $MQTT_rmsgs deleted under a
// running server takes each server's retained-message consumer with it. `check` finds the servers
// (RETAINED_CONSUMER_MISSING, through SUBSZ), `repair` makes the consumer again on the subject the server
// still listens on, and the MQTT probe (`check --probe`, the end of `repair`) says what a client sees:
// verified on a healthy server, failed with the step that failed where delivery is broken, a stream missing
// or the listener down. Without a system connection nothing says "clean" about it.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <QJsonDocument>

#include "freeportallocator.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

const QString kRetained = QStringLiteral("$MQTT_rmsgs");
const QString kCode = QStringLiteral("RETAINED_CONSUMER_MISSING");

MqttClient acmeClient(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

QStringList probeArgs()
{
    return {QStringLiteral("--mqtt-user"), QStringLiteral("acme"), QStringLiteral("--mqtt-password"), QStringLiteral("acmepass")};
}

/** The server is 2.12.3 or newer: it takes retained messages only through its consumer (VARZ version). */
bool deliversOnlyThroughConsumer(const NatsServerFixture &server)
{
    const auto v = server.monitor("/varz");
    if (!v)
        return false;
    const QString version = QJsonDocument::fromJson(v->body).object().value(QLatin1String("version")).toString();
    const QStringList parts = version.split(u'.');
    const int minor = parts.value(1).toInt();
    const int patch = parts.value(2).toInt();
    return minor > 12 || (minor == 12 && patch >= 3);
}

/** A retained message published now reaches a new subscriber (within 4 s). */
bool retainedReaches(const NatsServerFixture &server, const QString &topic, const QByteArray &payload)
{
    const MqttClient mqtt = acmeClient(server);
    const MqttResult pub = mqtt.publish(topic, payload, 1, true, QStringLiteral("pub-%1").arg(QString::fromLatin1(payload)));
    if (!pub.acknowledged)
        return false;
    const MqttResult sub = mqtt.subscribeAndCollect(QStringLiteral("reader-%1").arg(QString::fromLatin1(payload)), {topic}, 1, 1, 4);
    return sub.receivedPayloads().contains(QString::fromLatin1(payload));
}

/**
 * MQTT set up for ACME (a persistent session), then $MQTT_rmsgs deleted and made again by hand with its own
 * config, as a repair that only recreates streams leaves it.
 */
void breakRetainedDelivery(NatsServerFixture &server)
{
    QVERIFY2(acmeClient(server).createPersistentSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}, 1).subscribed(),
             qPrintable(server.logTail()));
    // Later than the server's own set-up, as a stream made again by hand or by a repair is: without a system
    // connection that is what tells it from a server that has not set MQTT up since it started.
    QTest::qWait(2500);
    ConnectionSet setup(acmeProfile(server.url()));
    auto conn = setup.primary();
    QVERIFY(conn);
    JetStreamClient js(*conn);
    auto info = js.call(QStringLiteral("STREAM.INFO.") + kRetained);
    QVERIFY2(info, info ? "" : qPrintable(info.error().toString()));
    const QJsonObject config = info->value(QLatin1String("config")).toObject();
    QVERIFY(js.call(QStringLiteral("STREAM.DELETE.") + kRetained));
    auto created = js.call(QStringLiteral("STREAM.CREATE.") + kRetained, config);
    QVERIFY2(created, created ? "" : qPrintable(created.error().toString()));
}

QJsonObject probeOf(const CliRunner::Run &run)
{
    const QJsonArray probes = run.json.value(QLatin1String("probes")).toArray();
    return probes.isEmpty() ? QJsonObject() : probes.first().toObject();
}

QJsonObject stepOf(const QJsonObject &probe, const QString &name)
{
    for (const QJsonValue &v : probe.value(QLatin1String("steps")).toArray())
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace

class TestRetainedDelivery : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // A healthy account: the probe connects, gets its QoS 1 and retained messages, and leaves nothing behind.
    void probeVerifiesHealthyService_data() { addServerVersionRows(); }
    void probeVerifiesHealthyService()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const CliRunner::Run run = check(acmeWithSystemArgs(server.url()) + probeArgs(), {QStringLiteral("--probe")});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject probe = probeOf(run);
        QCOMPARE(str(probe, "verdict"), QStringLiteral("verified"));
        for (const char *step : {"connect", "qos1", "retained", "clear_retained", "remove_session"})
            QVERIFY2(stepOf(probe, QString::fromLatin1(step)).value(QLatin1String("ok")).toBool(), step);
        QVERIFY2(!probe.contains(QLatin1String("left_behind")), qPrintable(compact(probe)));
        QVERIFY2(run.json.value(QLatin1String("coverage_complete")).toBool(), qPrintable(run.describe()));
        QCOMPARE(run.exitCode(), 0);
        QVERIFY2(findingsWith(run, kCode).isEmpty(), qPrintable(describe(run)));

        // Nothing of the probe stays: no retained message on its topic, no session of its client.
        const CliRunner::Run retained =
            CliRunner::run(acmeArgs(server.url()) + QStringList{QStringLiteral("retained"), QStringLiteral("--json")});
        QVERIFY2(!retained.out().contains(str(probe, "topic")), qPrintable(retained.out()));
        const CliRunner::Run sessions = CliRunner::run(
            acmeArgs(server.url())
            + QStringList{QStringLiteral("sessions"), QStringLiteral("--json"), QStringLiteral("--limit"), QStringLiteral("0")});
        QVERIFY2(sessions.exitCode() == 0, qPrintable(sessions.describe()));
        QVERIFY2(!sessions.out().contains(str(probe, "client_id")), qPrintable(sessions.out()));

        // Text: one line that says it.
        const CliRunner::Run text = CliRunner::run(acmeWithSystemArgs(server.url()) + probeArgs()
                                                   + QStringList{QStringLiteral("check"), QStringLiteral("--probe")});
        QVERIFY2(text.out().contains(QStringLiteral("MQTT delivery verified for account ACME")), qPrintable(text.describe()));
    }

    // $MQTT_rmsgs deleted and created again: check names the server, the probe sees what a client sees, repair
    // makes the consumer again and a retained message published afterwards reaches a new subscriber.
    void deletedRetainedStream_data() { addServerVersionRows(); }
    void deletedRetainedStream()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        breakRetainedDelivery(server);
        if (QTest::currentTestFailed())
            return;
        const bool dead = deliversOnlyThroughConsumer(server);

        // With the system connection: the finding, with the server and the repair.
        const CliRunner::Run run = check(acmeWithSystemArgs(server.url()) + probeArgs(), {QStringLiteral("--probe")});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, kCode, kRetained);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), dead ? QStringLiteral("error") : QStringLiteral("warning"));
        QCOMPARE(str(f, "repair"), QStringLiteral("restore_retained_consumer"));
        QVERIFY2(str(f, "title").contains(server.serverName()), qPrintable(compact(f)));
        const QJsonArray affected = actualOf(f).toObject().value(QLatin1String("servers_without_consumer")).toArray();
        QCOMPARE(affected.size(), 1);
        QVERIFY2(affected.first().toObject().value(QLatin1String("retained_subject")).toString().startsWith(QLatin1String("$MQTT.sub.")),
                 qPrintable(compact(affected)));
        // The probe: 2.12.3+ servers deliver no retained message at all now; older ones still their own clients'.
        const QJsonObject probe = probeOf(run);
        if (dead) {
            QCOMPARE(str(probe, "verdict"), QStringLiteral("failed"));
            QVERIFY2(!stepOf(probe, QStringLiteral("retained")).value(QLatin1String("ok")).toBool(), qPrintable(compact(probe)));
            QVERIFY2(stepOf(probe, QStringLiteral("qos1")).value(QLatin1String("ok")).toBool(), qPrintable(compact(probe)));
            QVERIFY2(!retainedReaches(server, QStringLiteral("status/before"), "before"), "retained delivery is dead before the repair");
        } else {
            QCOMPARE(str(probe, "verdict"), QStringLiteral("verified"));
        }
        QCOMPARE(run.exitCode(), dead ? 2 : 1);

        // Without it: nothing says clean; the note says why and what to do.
        const CliRunner::Run blind = check(acmeArgs(server.url()));
        QVERIFY2(blind.jsonValid, qPrintable(blind.describe()));
        QVERIFY2(findingsWith(blind, kCode).isEmpty(), qPrintable(describe(blind)));
        bool noted = false;
        for (const QJsonValue &g : blind.json.value(QLatin1String("not_checked")).toArray())
            noted = noted
                || (g.toObject().value(QLatin1String("level")).toString() == QLatin1String("server_state")
                    && g.toObject().value(QLatin1String("leaves_verdict_open")).toBool());
        QVERIFY2(noted, qPrintable(blind.describe()));
        QCOMPARE(blind.exitCode(), 3);

        // The repair: one step per server, then the probe at its end.
        QTemporaryDir dir;
        const CliRunner::Run repair =
            CliRunner::run(acmeWithSystemArgs(server.url()) + probeArgs()
                               + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                                             QStringLiteral("--json"), QStringLiteral("--backup-dir"), dir.path()},
                           120000);
        QVERIFY2(repair.jsonValid, qPrintable(repair.describe()));
        QCOMPARE(repair.exitCode(), 0);
        QStringList actions;
        for (const QJsonValue &s : repair.json.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray())
            actions << s.toObject().value(QLatin1String("action")).toString();
        QCOMPARE(actions, QStringList{QStringLiteral("restore_retained_consumer")});
        QCOMPARE(repair.json.value(QLatin1String("probe")).toObject().value(QLatin1String("verdict")).toString(),
                 QStringLiteral("verified"));
        QVERIFY2(retainedReaches(server, QStringLiteral("status/after"), "after"), qPrintable(server.logTail()));
        const CliRunner::Run again = check(acmeWithSystemArgs(server.url()));
        QVERIFY2(findingsWith(again, kCode).isEmpty(), qPrintable(describe(again)));
        QCOMPARE(again.exitCode(), 0);
    }

    // The case of the field: `repair` of a deleted $MQTT_rmsgs creates it, finds the consumer missing in the
    // check after, makes it again in a second round, and a real client confirms it. Without a system connection
    // the run ends with what it could not look at, never "Check is clean".
    void repairAfterDeleteEndsVerified_data() { addServerVersionRows(); }
    void repairAfterDeleteEndsVerified()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeClient(server).createPersistentSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}, 1).subscribed());
        QTest::qWait(2500); // the repair's $MQTT_rmsgs is made well after the server's own streams
        {
            ConnectionSet setup(acmeProfile(server.url()));
            auto conn = setup.primary();
            QVERIFY(conn);
            QVERIFY(JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.") + kRetained));
        }
        QTemporaryDir dir;
        const QStringList repairArgs{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                                     QStringLiteral("--backup-dir"), dir.path()};
        // Without the system connection first: the stream comes back, the verdict stays open.
        const CliRunner::Run blind = CliRunner::run(acmeArgs(server.url()) + repairArgs, 120000);
        QVERIFY2(!blind.out().contains(QStringLiteral("Check is clean")), qPrintable(blind.describe()));
        QVERIFY2(blind.out().contains(QStringLiteral("MQTT set-up of account ACME not checked")), qPrintable(blind.describe()));
        QCOMPARE(blind.exitCode(), 3);

        const CliRunner::Run run = CliRunner::run(acmeWithSystemArgs(server.url()) + probeArgs() + repairArgs, 120000);
        QVERIFY2(run.exitCode() == 0, qPrintable(run.describe()));
        QVERIFY2(run.out().contains(QStringLiteral("restore_retained_consumer"))
                     || run.out().contains(QStringLiteral("retained-message consumer")),
                 qPrintable(run.describe()));
        QVERIFY2(run.out().contains(QStringLiteral("Check is clean, and MQTT delivery is verified.")), qPrintable(run.describe()));
        QVERIFY2(retainedReaches(server, QStringLiteral("status/gateway"), "online"), qPrintable(server.logTail()));
    }

    // restore of a $MQTT_rmsgs backup into a stream deleted meanwhile makes the servers' retained-message consumers
    // again from the backup (2.10.11+ servers make them named, not durable): retained delivery works afterwards.
    void restoreKeepsRetainedDelivery_data() { addServerVersionRows(); }
    void restoreKeepsRetainedDelivery()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeClient(server).createPersistentSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}, 1).subscribed());
        QVERIFY(acmeClient(server).publish(QStringLiteral("status/gw"), "up", 1, true, QStringLiteral("gw")).acknowledged);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("rmsgs.jsonl"));
        const CliRunner::Run backup =
            CliRunner::run(acmeArgs(server.url())
                           + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), kRetained, QStringLiteral("--out"), file});
        QVERIFY2(backup.exitCode() == 0, qPrintable(backup.describe()));
        {
            ConnectionSet setup(acmeProfile(server.url()));
            auto conn = setup.primary();
            QVERIFY(conn);
            QVERIFY(JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.") + kRetained));
        }
        const CliRunner::Run restore =
            CliRunner::run(acmeArgs(server.url())
                           + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("--json"), QStringLiteral("restore"), file});
        QVERIFY2(restore.exitCode() == 0 && restore.jsonValid, qPrintable(restore.describe()));
        const QJsonArray created = restore.json.value(QLatin1String("consumers_created")).toArray();
        QVERIFY2(!created.isEmpty() && created.first().toString().startsWith(QLatin1String("$MQTT_rmsgs_")),
                 qPrintable(restore.describe()));
        const MqttProbeResult seen = probeAcme(server);
        QVERIFY2(seen.verified(), qPrintable(seen.summary()));
        QVERIFY2(findingsWith(check(acmeWithSystemArgs(server.url())), kCode).isEmpty(), "no server lacks its retained consumer");
    }

    // The probe fails, and says where, when the service is broken in other ways.
    void probeFailures_data() { addServerVersionRows(); }
    void probeFailures()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeClient(server).createPersistentSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}, 1).subscribed());

        // A listener nobody serves.
        const quint16 unused = FreePortAllocator::allocateOne();
        QVERIFY(unused != 0);
        const CliRunner::Run down = check(acmeWithSystemArgs(server.url()) + probeArgs()
                                              + QStringList{QStringLiteral("--mqtt-listener"), QStringLiteral("127.0.0.1:%1").arg(unused)},
                                          {QStringLiteral("--probe")});
        QVERIFY2(down.jsonValid, qPrintable(down.describe()));
        QCOMPARE(str(probeOf(down), "verdict"), QStringLiteral("failed"));
        QVERIFY2(str(probeOf(down), "why").startsWith(QLatin1String("connect: could not reach the MQTT listener")),
                 qPrintable(compact(probeOf(down))));
        QCOMPARE(down.exitCode(), 2);

        // A wrong password: the server refuses the CONNECT.
        const CliRunner::Run refused = check(acmeWithSystemArgs(server.url())
                                                 + QStringList{QStringLiteral("--mqtt-user"), QStringLiteral("acme"),
                                                               QStringLiteral("--mqtt-password"), QStringLiteral("wrong")},
                                             {QStringLiteral("--probe")});
        QCOMPARE(str(probeOf(refused), "verdict"), QStringLiteral("failed"));
        QVERIFY2(!refused.out().contains(QStringLiteral("\"wrong\"")), "the password never appears in the output");
        QCOMPARE(refused.exitCode(), 2);

        // No user for the probe: not run, and said so.
        const CliRunner::Run none = check(acmeWithSystemArgs(server.url()), {QStringLiteral("--probe")});
        QCOMPARE(str(probeOf(none), "verdict"), QStringLiteral("not_run"));
        QVERIFY2(!none.json.value(QLatin1String("coverage_complete")).toBool(), qPrintable(none.describe()));
        QCOMPARE(none.exitCode(), 3);

        // The sessions stream missing: every connect fails without a CONNACK.
        {
            ConnectionSet setup(acmeProfile(server.url()));
            auto conn = setup.primary();
            QVERIFY(conn);
            QVERIFY(JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.$MQTT_sess")));
        }
        const CliRunner::Run missing = check(acmeWithSystemArgs(server.url()) + probeArgs(), {QStringLiteral("--probe")});
        QCOMPARE(str(probeOf(missing), "verdict"), QStringLiteral("failed"));
        QVERIFY2(!stepOf(probeOf(missing), QStringLiteral("connect")).value(QLatin1String("ok")).toBool(),
                 qPrintable(compact(probeOf(missing))));
        QVERIFY2(!findingsWith(missing, QStringLiteral("STREAM_MISSING")).isEmpty(), qPrintable(describe(missing)));
        QCOMPARE(missing.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestRetainedDelivery)
#include "tst_retaineddelivery.moc"
