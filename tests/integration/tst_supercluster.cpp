// A supercluster on loopback: cluster "east" (e1, e2, e3) and cluster "west" (w1) joined by gateways,
// one JetStream meta group. ACME's MQTT clients connect to w1, so its MQTT streams are placed in west
// (one replica); BETA's connect to e1, so its streams are in east (three replicas). The tool connects
// to e1 only. `servers` groups the servers by cluster, `streams` shows each stream's cluster and the
// replicas expected for that cluster, check/sessions/repair of ACME work through east, and with west
// stopped `servers` names the unreachable cluster and check stops with a clear error instead of hanging.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natssuperclusterfixture.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

// Long enough for a loaded CI machine; a command that hangs on an unreachable cluster is killed at this
// point and fails the test (timedOut).
constexpr int CommandTimeoutMs = 90000;

ServerConfig superclusterConfig()
{
    ServerConfig config = ServerConfig::standard();
    config.addAccount(ServerConfig::jetStreamAccount(QStringLiteral("BETA"), QStringLiteral("beta"), QStringLiteral("betapass")));
    return config;
}

// The system user and ACME's user, connected to one server.

CliRunner::Run cli(const QStringList &arguments)
{
    return CliRunner::run(arguments, CommandTimeoutMs);
}

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &item : v.toArray())
        out << item.toString();
    return out;
}

QJsonObject clusterNamed(const QJsonObject &serversJson, const QString &name)
{
    for (const QJsonValue &v : serversJson.value(QLatin1String("clusters")).toArray())
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

// A persistent ACME session on w1 (which creates ACME's MQTT streams in west), a retained message,
// and a persistent BETA session on e1 (BETA's streams in east).
bool makeMqttState(NatsSuperclusterFixture &sc, QString *why)
{
    MqttClient west(sc.west().node(0).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
    west.setTimeoutMs(30000);
    MqttResult session;
    for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
        session = west.createPersistentSession(QStringLiteral("west-sensor"), {QStringLiteral("sensors/#")}, 1);
    if (!session.subscribed()) {
        *why = QStringLiteral("ACME session on w1: ") + session.describe();
        return false;
    }
    if (!west.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged) {
        *why = QStringLiteral("retained publish on w1");
        return false;
    }
    MqttClient east(sc.east().node(0).mqttPort(), QStringLiteral("beta"), QStringLiteral("betapass"));
    east.setTimeoutMs(30000);
    MqttResult beta;
    for (int attempt = 0; attempt < 3 && !beta.subscribed(); ++attempt)
        beta = east.createPersistentSession(QStringLiteral("east-sensor"), {QStringLiteral("alerts/#")}, 1);
    if (!beta.subscribed()) {
        *why = QStringLiteral("BETA session on e1: ") + beta.describe();
        return false;
    }
    return true;
}

// Every MQTT stream of `streamsJson` is placed in `cluster`; the layout expects `replicas` of that cluster's `peers`.
QString placementProblem(const QJsonObject &streamsJson, const QString &cluster, int replicas, const QStringList &peers)
{
    const QJsonArray streams = streamsJson.value(QLatin1String("streams")).toArray();
    if (streams.size() < 3)
        return QStringLiteral("fewer than 3 MQTT streams: ") + compact(streamsJson);
    for (const QJsonValue &v : streams) {
        const QJsonObject s = v.toObject();
        const QJsonObject c = s.value(QLatin1String("cluster")).toObject();
        if (c.value(QLatin1String("name")).toString() != cluster)
            return QStringLiteral("%1 is in cluster \"%2\"").arg(str(s, "name"), c.value(QLatin1String("name")).toString());
        if (s.value(QLatin1String("config")).toObject().value(QLatin1String("num_replicas")).toInt() != replicas)
            return QStringLiteral("%1 has %2 replicas")
                .arg(str(s, "name"))
                .arg(s.value(QLatin1String("config")).toObject().value(QLatin1String("num_replicas")).toInt());
        if (!s.value(QLatin1String("differences")).toArray().isEmpty())
            return QStringLiteral("%1 differs from the expected config: %2")
                .arg(str(s, "name"), compact(s.value(QLatin1String("differences"))));
    }
    const QJsonObject layout = streamsJson.value(QLatin1String("layout")).toObject();
    if (layout.value(QLatin1String("replicas")).toInt() != replicas || stringList(layout.value(QLatin1String("peers"))) != peers
        || layout.value(QLatin1String("cluster")).toString() != cluster)
        return QStringLiteral("layout: ") + compact(layout);
    return {};
}

} // namespace

class TestSupercluster : public QObject
{
    Q_OBJECT

private slots:
    void groupsAndPlacement_data() { addServerVersionRows(); }
    void groupsAndPlacement()
    {
        QFETCH(QString, version);
        NatsSuperclusterFixture sc;
        QVERIFY2(sc.start(version, superclusterConfig()), qPrintable(sc.errorString()));
        QString why;
        QVERIFY2(makeMqttState(sc, &why), qPrintable(why));
        const QString e1 = sc.east().node(0).url();

        // servers: grouped by cluster, each with its gateways.
        const CliRunner::Run servers = cli(acmeWithSystemArgs(e1) + QStringList{QStringLiteral("--json"), QStringLiteral("servers")});
        QVERIFY2(servers.jsonValid && servers.exitCode() == 0, qPrintable(servers.describe()));
        const QJsonObject east = clusterNamed(servers.json, QStringLiteral("east"));
        const QJsonObject west = clusterNamed(servers.json, QStringLiteral("west"));
        QCOMPARE(stringList(east.value(QLatin1String("servers"))),
                 (QStringList{QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3")}));
        QCOMPARE(stringList(west.value(QLatin1String("servers"))), QStringList{QStringLiteral("w1")});
        QCOMPARE(stringList(east.value(QLatin1String("gateways"))), QStringList{QStringLiteral("west")});
        QCOMPARE(stringList(west.value(QLatin1String("gateways"))), QStringList{QStringLiteral("east")});
        QVERIFY2(east.value(QLatin1String("reachable")).toBool() && west.value(QLatin1String("reachable")).toBool(),
                 qPrintable(compact(servers.json)));
        QVERIFY2(servers.json.value(QLatin1String("clusters")).toArray().size() == 2, qPrintable(compact(servers.json)));
        // The server list comes sorted by cluster: e1, e2, e3, then w1.
        QStringList order;
        for (const QJsonValue &v : servers.json.value(QLatin1String("servers")).toArray()) {
            const QJsonObject s = v.toObject();
            order << str(s, "name");
            QCOMPARE(s.value(QLatin1String("gateway")).toObject().value(QLatin1String("name")).toString(), str(s, "cluster"));
        }
        QCOMPARE(order, (QStringList{QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3"), QStringLiteral("w1")}));

        const CliRunner::Run text = cli(acmeWithSystemArgs(e1) + QStringList{QStringLiteral("servers")});
        QVERIFY2(text.exitCode() == 0, qPrintable(text.describe()));
        QVERIFY2(text.out().contains(QStringLiteral("Cluster east: 3 servers (e1, e2, e3), gateways to west."))
                     && text.out().contains(QStringLiteral("Cluster west: 1 server (w1), gateways to east.")),
                 qPrintable(text.out()));

        // streams: ACME's in west with one replica (west has one JetStream server), BETA's in east with three.
        const CliRunner::Run acmeStreams =
            cli(acmeWithSystemArgs(e1)
                + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("ACME")});
        QVERIFY2(acmeStreams.jsonValid && acmeStreams.exitCode() == 0, qPrintable(acmeStreams.describe()));
        const QString acmeProblem = placementProblem(acmeStreams.json, QStringLiteral("west"), 1, {QStringLiteral("w1")});
        QVERIFY2(acmeProblem.isEmpty(), qPrintable(acmeProblem));
        const CliRunner::Run beta =
            cli(acmeWithSystemArgs(e1)
                + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("BETA")});
        QVERIFY2(beta.jsonValid && beta.exitCode() == 0, qPrintable(beta.describe()));
        const QString betaProblem =
            placementProblem(beta.json, QStringLiteral("east"), 3, {QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3")});
        QVERIFY2(betaProblem.isEmpty(), qPrintable(betaProblem));
        const CliRunner::Run acmeText =
            cli(acmeWithSystemArgs(e1) + QStringList{QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("ACME")});
        QVERIFY2(acmeText.out().contains(QStringLiteral("replicas 1 in cluster west of 1 JetStream server: w1")),
                 qPrintable(acmeText.out()));

        // check and sessions of ACME through east: clean, the session seen.
        const CliRunner::Run checked = check(acmeWithSystemArgs(e1), {QStringLiteral("--account"), acme()});
        QVERIFY2(checked.jsonValid, qPrintable(checked.describe()));
        QVERIFY2(findingsAbove(checked, QStringLiteral("info")).isEmpty(), qPrintable(describe(checked)));
        QCOMPARE(checked.exitCode(), 0);
        const CliRunner::Run sessions =
            cli(acmeWithSystemArgs(e1)
                + QStringList{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), acme()});
        QVERIFY2(sessions.jsonValid && sessions.exitCode() == 0, qPrintable(sessions.describe()));
        QVERIFY2(compact(sessions.json).contains(QStringLiteral("\"west-sensor\"")), qPrintable(compact(sessions.json).left(2000)));
    }

    // The repair of ACME, whose MQTT streams live in west, run through e1: a stream it creates goes to
    // west (where the account's MQTT streams are), not into the cluster the tool is connected to.
    void repairAcrossGateway()
    {
        NatsSuperclusterFixture sc;
        QVERIFY2(sc.start(QStringLiteral("newest"), superclusterConfig()), qPrintable(sc.errorString()));
        QString why;
        QVERIFY2(makeMqttState(sc, &why), qPrintable(why));
        const QString e1 = sc.east().node(0).url();

        // A careless operator deletes $MQTT_sess; w1 keeps running and does not create it again.
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({e1}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(QStringLiteral("$MQTT_sess")), qPrintable(admin.error()));

        const CliRunner::Run broken = check(acmeWithSystemArgs(e1), {QStringLiteral("--account"), acme()});
        QVERIFY2(!findingsWith(broken, QStringLiteral("STREAM_MISSING"), QStringLiteral("$MQTT_sess")).isEmpty(),
                 qPrintable(describe(broken)));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const CliRunner::Run repaired =
            cli(acmeWithSystemArgs(e1)
                + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--account"), acme(),
                              QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--backup-dir"),
                              dir.filePath(QStringLiteral("backups"))});
        QVERIFY2(!repaired.process.timedOut && repaired.exitCode() == 0, qPrintable(repaired.describe()));
        QVERIFY2(compact(repaired.json).contains(QStringLiteral("in cluster west")), qPrintable(compact(repaired.json).left(3000)));

        const CliRunner::Run after = cli(
            acmeWithSystemArgs(e1) + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), acme()});
        QVERIFY2(after.jsonValid && after.exitCode() == 0, qPrintable(after.describe()));
        const QString problem = placementProblem(after.json, QStringLiteral("west"), 1, {QStringLiteral("w1")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem + QStringLiteral("\n") + compact(after.json).left(3000)));
        const CliRunner::Run clean = check(acmeWithSystemArgs(e1), {QStringLiteral("--account"), acme()});
        QVERIFY2(findingsAbove(clean, QStringLiteral("info")).isEmpty(), qPrintable(describe(clean)));

        // The MQTT server in west saves sessions again.
        MqttClient west(sc.west().node(0).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        west.setTimeoutMs(30000);
        QVERIFY2(west.createPersistentSession(QStringLiteral("after-repair"), {QStringLiteral("sensors/#")}, 1).subscribed(),
                 "session after the repair");
    }

    // West stopped: seen from east, its cluster is unreachable (named, with the gateway), and the commands
    // that need ACME's streams (placed in west) stop with an error that says so; none hangs.
    void gatewayDown()
    {
        NatsSuperclusterFixture sc;
        QVERIFY2(sc.start(QStringLiteral("newest"), superclusterConfig()), qPrintable(sc.errorString()));
        QString why;
        QVERIFY2(makeMqttState(sc, &why), qPrintable(why));
        const QString e1 = sc.east().node(0).url();
        QVERIFY2(sc.west().stopNode(0, false), qPrintable(sc.west().errorString()));

        const CliRunner::Run servers = cli(acmeWithSystemArgs(e1) + QStringList{QStringLiteral("--json"), QStringLiteral("servers")});
        QVERIFY2(!servers.process.timedOut && servers.jsonValid && servers.exitCode() == 0, qPrintable(servers.describe()));
        const QJsonObject west = clusterNamed(servers.json, QStringLiteral("west"));
        QVERIFY2(!west.isEmpty() && !west.value(QLatin1String("reachable")).toBool(true), qPrintable(compact(servers.json)));
        QVERIFY2(str(west, "problem").contains(QStringLiteral("gateway")) && str(west, "problem").contains(QStringLiteral("e1")),
                 qPrintable(compact(west)));
        QVERIFY2(stringList(west.value(QLatin1String("servers"))).isEmpty(), qPrintable(compact(west)));
        const CliRunner::Run text = cli(acmeWithSystemArgs(e1) + QStringList{QStringLiteral("servers")});
        QVERIFY2(text.out().contains(QStringLiteral("Cluster west: UNREACHABLE: no server of cluster west answers")),
                 qPrintable(text.out()));

        // BETA's streams (east) are still fine.
        const CliRunner::Run beta =
            cli(acmeWithSystemArgs(e1)
                + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("BETA")});
        QVERIFY2(beta.jsonValid && beta.exitCode() == 0, qPrintable(beta.describe()));

        // ACME's streams are offline: an error that names the cause, never a hang or a "no streams".
        for (const QString &command : {QStringLiteral("check"), QStringLiteral("sessions"), QStringLiteral("streams")}) {
            const CliRunner::Run run = cli(acmeWithSystemArgs(e1) + QStringList{command, QStringLiteral("--account"), acme()});
            QVERIFY2(!run.process.timedOut, qPrintable(run.describe()));
            QVERIFY2(run.exitCode() != 0, qPrintable(run.describe()));
            QVERIFY2(run.err().contains(QStringLiteral("offline")) && run.err().contains(QStringLiteral("gateway")),
                     qPrintable(run.describe()));
        }
    }
};

QTEST_GUILESS_MAIN(TestSupercluster)
#include "tst_supercluster.moc"
