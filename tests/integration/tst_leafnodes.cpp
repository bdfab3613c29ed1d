// Leaf nodes at the edge, on loopback: a hub (JetStream domain "hub", a leaf node listener, no MQTT) and a
// leaf server with the MQTT listener, connected to the hub for ACME and for the system account (so the
// tool sees both servers through either). Both ways operators run it:
//  - ownDomain: the leaf has its own JetStream domain "edge" and keeps the MQTT state there; the tool,
//    connected to the hub, reads it with --js-domain edge (sessions, check, repair);
//  - hubJetStream: the leaf has no JetStream and its MQTT uses the hub's through mqtt { js_domain: hub };
//    the tool reads it through the hub as it is, or through the leaf with --js-domain hub.
// And the debug line of a leaf connection refusing MQTT's JetStream API requests (both ends with
// JetStream, no domains), which `explain` answers with the js_domain advice.
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

#include "livecheck.h"
#include "mqttclient.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

constexpr int CommandTimeoutMs = 90000;

CliRunner::Run cli(const QStringList &arguments)
{
    return CliRunner::run(arguments, CommandTimeoutMs);
}

// The system user and ACME's user, connected to one server.

QStringList withDomain(const QStringList &args, const QString &domain)
{
    return args + QStringList{QStringLiteral("--js-domain"), domain};
}

// The hub: a leaf node listener, JetStream (in `domain` when given), no MQTT listener.
ServerConfig hubConfig(const QString &domain)
{
    ServerConfig config = ServerConfig::standard();
    config.setServerName(QStringLiteral("hub1"));
    config.setJetStreamDomain(domain);
    config.setMqttEnabled(false);
    ServerConfig::LeafNodes leaf;
    leaf.listen = true;
    config.setLeafNodes(leaf);
    return config;
}

// The leaf: MQTT, leaf connections to the hub for ACME and SYS. The JetStream part is up to the caller.
ServerConfig leafConfig(quint16 hubLeafPort)
{
    ServerConfig config;
    config.setServerName(QStringLiteral("leaf1"));
    ServerConfig::LeafNodes leaf;
    leaf.remotes = {{hubLeafPort, QStringLiteral("acme"), QStringLiteral("acmepass"), QStringLiteral("ACME")},
                    {hubLeafPort, QStringLiteral("sys"), QStringLiteral("syspass"), QStringLiteral("SYS")}};
    config.setLeafNodes(leaf);
    return config;
}

// Starts the hub, then the leaf, and waits until the leaf's two leaf connections are up.
bool startPair(const QString &version, NatsServerFixture &hub, ServerConfig hubCfg, NatsServerFixture &leaf,
               const std::function<void(ServerConfig &)> &leafSetup, QString *why)
{
    if (!hubCfg.assignFreePorts()) {
        *why = QStringLiteral("no free ports");
        return false;
    }
    if (!hub.start(version, hubCfg)) {
        *why = QStringLiteral("hub: ") + hub.errorString();
        return false;
    }
    ServerConfig leafCfg = leafConfig(hubCfg.leafNodes()->port);
    leafSetup(leafCfg);
    if (!leaf.start(version, leafCfg)) {
        *why = QStringLiteral("leaf: ") + leaf.errorString();
        return false;
    }
    static const QRegularExpression created(QStringLiteral("Leafnode connection created for account: SYS"));
    static const QRegularExpression createdAcme(QStringLiteral("Leafnode connection created for account: ACME"));
    if (!leaf.waitForLog(created, 20000) || !leaf.waitForLog(createdAcme, 20000)) {
        *why = QStringLiteral("the leaf connections did not come up:\n") + leaf.logTail();
        return false;
    }
    return true;
}

MqttResult persistentSession(quint16 mqttPort, const QString &clientId)
{
    MqttClient client(mqttPort, QStringLiteral("acme"), QStringLiteral("acmepass"));
    client.setTimeoutMs(30000);
    MqttResult session;
    for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
        session = client.createPersistentSession(clientId, {QStringLiteral("sensors/#")}, 1);
    return session;
}

QJsonObject serverNamed(const QJsonObject &serversJson, const QString &name)
{
    for (const QJsonValue &v : serversJson.value(QLatin1String("servers")).toArray())
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

QStringList sessionIds(const CliRunner::Run &run)
{
    QStringList out;
    for (const QJsonValue &v : run.json.value(QLatin1String("sessions")).toArray())
        out << v.toObject().value(QLatin1String("client_id")).toString();
    out.sort();
    return out;
}

QStringList sessSubjects(const CliRunner::Run &streams)
{
    for (const QJsonValue &v : streams.json.value(QLatin1String("streams")).toArray()) {
        const QJsonObject s = v.toObject();
        if (s.value(QLatin1String("name")).toString() == QStringLiteral("$MQTT_sess")) {
            QStringList out;
            for (const QJsonValue &subject : s.value(QLatin1String("config")).toObject().value(QLatin1String("subjects")).toArray())
                out << subject.toString();
            return out;
        }
    }
    return {};
}

// $MQTT_sess deleted by a careless operator (through `adminUrl`), found by check, repaired through
// `toolArgs`; afterwards check is clean and the leaf's MQTT listener saves a new session.
void deleteAndRepairSessions(const QString &adminUrl, const QStringList &toolArgs, quint16 leafMqttPort)
{
    JetStreamAdmin admin;
    QVERIFY2(admin.connect({adminUrl}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
    QVERIFY2(admin.deleteStream(QStringLiteral("$MQTT_sess")), qPrintable(admin.error()));
    const CliRunner::Run broken = check(toolArgs, {QStringLiteral("--account"), acme()});
    QVERIFY2(!findingsWith(broken, QStringLiteral("STREAM_MISSING"), QStringLiteral("$MQTT_sess")).isEmpty(), qPrintable(describe(broken)));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const CliRunner::Run repaired =
        cli(toolArgs
            + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--account"), acme(),
                          QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--backup-dir"),
                          dir.filePath(QStringLiteral("backups"))});
    QVERIFY2(!repaired.process.timedOut && repaired.exitCode() == 0, qPrintable(repaired.describe()));
    const CliRunner::Run clean = check(toolArgs, {QStringLiteral("--account"), acme()});
    QVERIFY2(clean.jsonValid && findingsAbove(clean, QStringLiteral("info")).isEmpty(), qPrintable(describe(clean)));
    const MqttResult after = persistentSession(leafMqttPort, QStringLiteral("after-repair"));
    QVERIFY2(after.subscribed(), qPrintable(after.describe()));
    const CliRunner::Run sessions =
        cli(toolArgs + QStringList{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), acme()});
    QVERIFY2(sessionIds(sessions).contains(QStringLiteral("after-repair")), qPrintable(sessions.describe()));
}

} // namespace

class TestLeafNodes : public QObject
{
    Q_OBJECT

private slots:
    void ownDomain_data() { addServerVersionRows(); }
    void ownDomain()
    {
        QFETCH(QString, version);
        NatsServerFixture hub;
        NatsServerFixture leaf;
        QString why;
        QVERIFY2(startPair(
                     version, hub, hubConfig(QStringLiteral("hub")), leaf,
                     [](ServerConfig &c) {
                         c.addAccount(
                             ServerConfig::jetStreamAccount(QStringLiteral("ACME"), QStringLiteral("acme"), QStringLiteral("acmepass")));
                         c.setJetStreamDomain(QStringLiteral("edge"));
                     },
                     &why),
                 qPrintable(why));
        const MqttResult session = persistentSession(leaf.mqttPort(), QStringLiteral("edge-sensor"));
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));
        const QStringList viaHub = acmeWithSystemArgs(hub.url());

        // Both servers seen through the hub (the system account crosses the leaf connection), with their domains.
        const CliRunner::Run servers = cli(viaHub + QStringList{QStringLiteral("--json"), QStringLiteral("servers")});
        QVERIFY2(servers.jsonValid && servers.exitCode() == 0, qPrintable(servers.describe()));
        const QJsonObject hubJson = serverNamed(servers.json, QStringLiteral("hub1"));
        const QJsonObject leafJson = serverNamed(servers.json, QStringLiteral("leaf1"));
        QCOMPARE(str(hubJson, "js_domain"), QStringLiteral("hub"));
        QCOMPARE(str(leafJson, "js_domain"), QStringLiteral("edge"));
        QVERIFY2(hubJson.value(QLatin1String("leafnodes")).toObject().value(QLatin1String("listener")).toBool(),
                 qPrintable(compact(hubJson)));
        QCOMPARE(leafJson.value(QLatin1String("leafnodes")).toObject().value(QLatin1String("remotes")).toInt(), 2);
        QVERIFY2(leafJson.value(QLatin1String("mqtt")).isObject(), qPrintable(compact(leafJson)));

        // The MQTT state is in domain edge: the sessions subject carries its token.
        const CliRunner::Run streams =
            cli(withDomain(viaHub, QStringLiteral("edge"))
                + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), acme()});
        QVERIFY2(streams.jsonValid && streams.exitCode() == 0, qPrintable(streams.describe()));
        QCOMPARE(sessSubjects(streams), QStringList{QStringLiteral("$MQTT.sess.edge.>")});
        QCOMPARE(streams.json.value(QLatin1String("layout")).toObject().value(QLatin1String("domain")).toString(), QStringLiteral("edge"));
        const CliRunner::Run sessions =
            cli(withDomain(viaHub, QStringLiteral("edge"))
                + QStringList{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), acme()});
        QVERIFY2(sessions.jsonValid && sessions.exitCode() == 0, qPrintable(sessions.describe()));
        QCOMPARE(sessionIds(sessions), QStringList{QStringLiteral("edge-sensor")});
        const CliRunner::Run checked = check(withDomain(viaHub, QStringLiteral("edge")), {QStringLiteral("--account"), acme()});
        QVERIFY2(checked.jsonValid && findingsAbove(checked, QStringLiteral("info")).isEmpty(), qPrintable(describe(checked)));
        QCOMPARE(checked.exitCode(), 0);

        // Without --js-domain the hub's domain is read, where ACME has no MQTT streams: a warning that says where
        // the state is, never "nothing blocks that"; the repair creates nothing there.
        const CliRunner::Run wrongDomain = check(viaHub, {QStringLiteral("--account"), acme()});
        const QJsonObject missing = findingWith(wrongDomain, QStringLiteral("STREAM_MISSING"), QStringLiteral("$MQTT_sess"));
        QCOMPARE(str(missing, "severity"), QStringLiteral("warning"));
        QVERIFY2(str(missing, "detail").contains(QStringLiteral("--js-domain edge"))
                     && str(missing, "detail").contains(QStringLiteral("domain \"hub\"")),
                 qPrintable(compact(missing)));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const CliRunner::Run notHere =
            cli(viaHub
                + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--account"), acme(),
                              QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--backup-dir"),
                              dir.filePath(QStringLiteral("b"))});
        QVERIFY2(notHere.jsonValid
                     && notHere.json.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray().isEmpty(),
                 qPrintable(notHere.describe()));
        QVERIFY2(compact(notHere.json.value(QLatin1String("plan"))).contains(QStringLiteral("--js-domain edge")),
                 qPrintable(notHere.describe()));
        const CliRunner::Run hubStreams =
            cli(viaHub + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), acme()});
        QVERIFY2(hubStreams.jsonValid && hubStreams.json.value(QLatin1String("streams")).toArray().isEmpty(),
                 qPrintable(hubStreams.describe()));

        deleteAndRepairSessions(leaf.url(), withDomain(viaHub, QStringLiteral("edge")), leaf.mqttPort());
    }

    void hubJetStream_data() { addServerVersionRows(); }
    void hubJetStream()
    {
        QFETCH(QString, version);
        NatsServerFixture hub;
        NatsServerFixture leaf;
        QString why;
        QVERIFY2(startPair(
                     version, hub, hubConfig(QStringLiteral("hub")), leaf,
                     [](ServerConfig &c) {
                         c.addAccount(
                             ServerConfig::plainAccount(QStringLiteral("ACME"), QStringLiteral("acme"), QStringLiteral("acmepass")));
                         c.setJetStreamEnabled(false);
                         c.addMqttSetting(QStringLiteral("js_domain: hub"));
                     },
                     &why),
                 qPrintable(why));
        const MqttResult session = persistentSession(leaf.mqttPort(), QStringLiteral("edge-sensor"));
        QVERIFY2(session.subscribed(), qPrintable(session.describe() + leaf.logTail()));

        // Through the hub, as it is: the layout's domain comes from the leaf's mqtt.js_domain.
        const QStringList viaHub = acmeWithSystemArgs(hub.url());
        const CliRunner::Run streams =
            cli(viaHub + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), acme()});
        QVERIFY2(streams.jsonValid && streams.exitCode() == 0, qPrintable(streams.describe()));
        const QJsonObject layout = streams.json.value(QLatin1String("layout")).toObject();
        QCOMPARE(str(layout, "domain"), QStringLiteral("hub"));
        QCOMPARE(str(layout, "domain_source"), QStringLiteral("mqtt"));
        QCOMPARE(sessSubjects(streams), QStringList{QStringLiteral("$MQTT.sess.hub.>")});
        const CliRunner::Run sessions =
            cli(viaHub + QStringList{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), acme()});
        QCOMPARE(sessionIds(sessions), QStringList{QStringLiteral("edge-sensor")});
        const CliRunner::Run checked = check(viaHub, {QStringLiteral("--account"), acme()});
        QVERIFY2(checked.jsonValid && findingsAbove(checked, QStringLiteral("info")).isEmpty(), qPrintable(describe(checked)));
        QCOMPARE(checked.exitCode(), 0);

        // Through the leaf (no JetStream of its own): the hub's domain named.
        const QStringList viaLeaf = withDomain(acmeWithSystemArgs(leaf.url()), QStringLiteral("hub"));
        const CliRunner::Run fromLeaf =
            cli(viaLeaf + QStringList{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), acme()});
        QVERIFY2(fromLeaf.jsonValid && fromLeaf.exitCode() == 0, qPrintable(fromLeaf.describe()));
        QCOMPARE(sessionIds(fromLeaf), QStringList{QStringLiteral("edge-sensor")});

        deleteAndRepairSessions(hub.url(), viaHub, leaf.mqttPort());
    }

    // Both ends of the leaf connection with JetStream and no domains; ACME has JetStream on the hub only.
    // 2.10 logs at debug level that the leaf connection did not pass the leaf's MQTT JetStream API requests on;
    // `explain` answers with the js_domain advice. The newest server logs nothing of the kind. On both the
    // connect succeeds and the state lands in the hub's JetStream.
    void jsApiNotDelivered_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString &label : NatsServerBinary::testVersionLabels())
            if (label != QStringLiteral("2.9"))
                QTest::newRow(qPrintable(label)) << label;
    }
    void jsApiNotDelivered()
    {
        QFETCH(QString, version);
        NatsServerFixture hub;
        NatsServerFixture leaf;
        QString why;
        QVERIFY2(startPair(
                     version, hub, hubConfig({}), leaf,
                     [](ServerConfig &c) {
                         c.addAccount(
                             ServerConfig::plainAccount(QStringLiteral("ACME"), QStringLiteral("acme"), QStringLiteral("acmepass")));
                     },
                     &why),
                 qPrintable(why));
        const qsizetype from = leaf.logSize();
        MqttClient client(leaf.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        client.setTimeoutMs(30000);
        // The hub's JetStream API is reached once the leaf has propagated the interest: the first connect may
        // come a moment before that (the connection is then closed), as in persistentSession().
        MqttResult probe;
        for (int attempt = 0; attempt < 3 && !probe.connected(); ++attempt)
            probe = client.connectOnce(QStringLiteral("edge-probe"));
        QVERIFY2(probe.connected(), qPrintable(probe.describe() + leaf.logTail()));
        static const QRegularExpression denied(QStringLiteral(R"(Not permitted to deliver to "\$JS\.API\.STREAM\.INFO\.\$MQTT_sess")"));
        if (version == QStringLiteral("2.10")) {
            QVERIFY2(leaf.waitForLog(denied, 20000, from), qPrintable(leaf.logTail()));
            const QString line = logLine(leaf, denied, from);
            const CliRunner::Run explained = cli({QStringLiteral("explain"), line});
            QVERIFY2(explained.exitCode() == 0 && explained.out().contains(QStringLiteral("leaf.js_api_not_delivered"))
                         && explained.out().contains(QStringLiteral("mqtt { js_domain: NAME }"))
                         && explained.out().contains(QStringLiteral("1 explained")),
                     qPrintable(explained.describe()));
        } else {
            QVERIFY2(leaf.logLinesMatching(denied, from).isEmpty(), qPrintable(leaf.logTail()));
        }
        // The state went to the hub's JetStream.
        const CliRunner::Run streams =
            cli(acmeWithSystemArgs(hub.url())
                + QStringList{QStringLiteral("--json"), QStringLiteral("streams"), QStringLiteral("--account"), acme()});
        QVERIFY2(streams.jsonValid && sessSubjects(streams) == QStringList{QStringLiteral("$MQTT.sess.>")}, qPrintable(streams.describe()));
    }
};

QTEST_GUILESS_MAIN(TestLeafNodes)
#include "tst_leafnodes.moc"
