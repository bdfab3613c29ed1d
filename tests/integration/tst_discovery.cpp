// Discovery and stream listing against real servers of every version, single and clustered,
// through the core and through the CLI as an operator runs it.
#include <QJsonArray>
#include <QTest>

#include "clirunner.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "natsserverfixture.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

ServerConfig discoveryConfig()
{
    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (acme/acmepass)
    config.addAccount(ServerConfig::limitedAccount(QStringLiteral("BETA"), QStringLiteral("beta"), QStringLiteral("betapass"),
                                                   {64ll << 20, 512ll << 20, 20, 100}));
    config.addAccount(ServerConfig::plainAccount(QStringLiteral("NOJS"), QStringLiteral("nojs"), QStringLiteral("nojspass")));
    return config;
}

// Real MQTT state in ACME: a persistent QoS1 session, retained messages and a queued QoS1 message.
void makeMqttState(quint16 mqttPort)
{
    MqttClient acme(mqttPort, QStringLiteral("acme"), QStringLiteral("acmepass"));
    // The first connect creates the MQTT streams (R3 in a cluster); on a loaded machine that can
    // outlast one attempt, and the server sets up again on the next connect, as a client retry would.
    acme.setTimeoutMs(30000);
    MqttResult session;
    for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
        session =
            acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    QVERIFY2(acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged, "retained publish");
    QVERIFY2(acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1).acknowledged, "queued publish");
}

QStringList names(const QJsonArray &array)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out << v.toObject().value(QLatin1String("name")).toString();
    return out;
}

QJsonObject byName(const QJsonArray &array, const QString &name)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

QStringList expectedMqttStreams(const NatsServerBinary &binary)
{
    QStringList s{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess")};
    if (binary.versionNumber() >= QVersionNumber(2, 10))
        s << QStringLiteral("$MQTT_out") << QStringLiteral("$MQTT_qos2in");
    s.sort();
    return s;
}

QStringList systemArgs(const QString &url)
{
    return {QStringLiteral("--server"), url, QStringLiteral("--system-user"), QStringLiteral("sys"), QStringLiteral("--system-password"),
            QStringLiteral("syspass")};
}

QStringList acmeArgs(const QString &url)
{
    return {QStringLiteral("--server"), url, QStringLiteral("--user"), QStringLiteral("acme"), QStringLiteral("--password"),
            QStringLiteral("acmepass")};
}

} // namespace

class TestDiscovery : public QObject
{
    Q_OBJECT

private slots:
    void singleServer_data() { addServerVersionRows(); }

    void singleServer()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, discoveryConfig()), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort());
        if (QTest::currentTestFailed())
            return;

        // Through the core, with only a system connection.
        Profile profile;
        profile.servers = {server.url()};
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = QStringLiteral("sys");
        profile.system.password = QStringLiteral("syspass");
        ConnectionSet connections(profile);
        const auto servers = Discovery::servers(connections);
        QVERIFY2(servers.ok(), qPrintable(servers.ok() ? QString() : servers.error().toString()));
        QCOMPARE(servers->size(), 1);
        QCOMPARE(servers->first().name, server.serverName());
        QCOMPARE(servers->first().version, server.binary().version());
        QVERIFY(servers->first().jetstream);
        QCOMPARE(servers->first().mqttPort, int(server.mqttPort()));

        // The CLI, as the issue's "done when" runs it: every account, JetStream state, MQTT streams.
        const auto accounts = CliRunner::run(systemArgs(server.url()) + QStringList{QStringLiteral("accounts"), QStringLiteral("--json")});
        QVERIFY2(accounts.exitCode() == 0 && accounts.jsonValid, qPrintable(accounts.describe()));
        const QJsonArray list = accounts.json.value(QLatin1String("accounts")).toArray();
        QCOMPARE(names(list), (QStringList{QStringLiteral("ACME"), QStringLiteral("BETA"), QStringLiteral("NOJS"), QStringLiteral("SYS")}));
        const QJsonObject acme = byName(list, QStringLiteral("ACME"));
        QCOMPARE(acme.value(QLatin1String("jetstream")).toBool(), true);
        QStringList mqtt;
        for (const QJsonValue &v : acme.value(QLatin1String("mqtt_streams")).toArray())
            mqtt << v.toString();
        mqtt.sort();
        QCOMPARE(mqtt, expectedMqttStreams(server.binary()));
        QCOMPARE(byName(list, QStringLiteral("BETA")).value(QLatin1String("jetstream")).toBool(), true);
        QCOMPARE(byName(list, QStringLiteral("BETA")).value(QLatin1String("mqtt_streams")).toArray().size(), 0);
        QCOMPARE(byName(list, QStringLiteral("NOJS")).value(QLatin1String("jetstream")), QJsonValue(false));
        QCOMPARE(byName(list, QStringLiteral("SYS")).value(QLatin1String("system")).toBool(), true);

        // streams with the account's credentials: the account's own API, real configs.
        const auto streams = CliRunner::run(acmeArgs(server.url()) + QStringList{QStringLiteral("streams"), QStringLiteral("--json")});
        QVERIFY2(streams.exitCode() == 0 && streams.jsonValid, qPrintable(streams.describe()));
        QCOMPARE(streams.json.value(QLatin1String("account")).toString(), QStringLiteral("ACME"));
        QCOMPARE(streams.json.value(QLatin1String("source")).toString(), QStringLiteral("api"));
        const QJsonArray s = streams.json.value(QLatin1String("streams")).toArray();
        QStringList streamNames = names(s);
        streamNames.sort();
        QCOMPARE(streamNames, expectedMqttStreams(server.binary()));
        const QJsonObject sess = byName(s, QStringLiteral("$MQTT_sess")).value(QLatin1String("config")).toObject();
        QCOMPARE(sess.value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.>")});
        QCOMPARE(sess.value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        QCOMPARE(sess.value(QLatin1String("retention")).toString(), QStringLiteral("limits"));
        QCOMPARE(byName(s, QStringLiteral("$MQTT_sess")).value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInt(),
                 1);
        const QJsonObject msgs = byName(s, QStringLiteral("$MQTT_msgs"));
        QCOMPARE(msgs.value(QLatin1String("config")).toObject().value(QLatin1String("retention")).toString(), QStringLiteral("interest"));
        // sensor-sub-1 has one durable per NATS subscription ("alerts/#" makes two): three consumers.
        QCOMPARE(msgs.value(QLatin1String("consumers")).toArray().size(), 3);
        QVERIFY(msgs.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInt() >= 1);

        // The same account through the system view only.
        const auto viaJsz = CliRunner::run(
            systemArgs(server.url())
            + QStringList{QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("ACME"), QStringLiteral("--json")});
        QVERIFY2(viaJsz.exitCode() == 0 && viaJsz.jsonValid, qPrintable(viaJsz.describe()));
        QCOMPARE(viaJsz.json.value(QLatin1String("source")).toString(), QStringLiteral("jsz"));
        QStringList jszNames = names(viaJsz.json.value(QLatin1String("streams")).toArray());
        jszNames.sort();
        QCOMPARE(jszNames, expectedMqttStreams(server.binary()));

        // An account without JetStream, asked directly.
        const auto nojs = CliRunner::run({QStringLiteral("--server"), server.url(), QStringLiteral("--user"), QStringLiteral("nojs"),
                                          QStringLiteral("--password"), QStringLiteral("nojspass"), QStringLiteral("accounts"),
                                          QStringLiteral("--json")});
        QVERIFY2(nojs.exitCode() == 0 && nojs.jsonValid, qPrintable(nojs.describe()));
        const QJsonObject own = nojs.json.value(QLatin1String("accounts")).toArray().first().toObject();
        QCOMPARE(own.value(QLatin1String("name")).toString(), QStringLiteral("NOJS"));
        QCOMPARE(own.value(QLatin1String("jetstream")), QJsonValue(false));

        // servers without a system connection: the version still comes from the servers' replies.
        const auto plainServers = CliRunner::run(acmeArgs(server.url()) + QStringList{QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(plainServers.exitCode() == 0 && plainServers.jsonValid, qPrintable(plainServers.describe()));
        const QJsonObject first = plainServers.json.value(QLatin1String("servers")).toArray().first().toObject();
        QCOMPARE(first.value(QLatin1String("version")).toString(), server.binary().version());
        QCOMPARE(first.value(QLatin1String("mqtt")), QJsonValue(QJsonValue::Null));
    }

    void cluster()
    {
        NatsClusterFixture cluster;
        ServerConfig config = discoveryConfig();
        config.setMqttStreamReplicas(3);
        QVERIFY2(cluster.start(QStringLiteral("2.9"), config), qPrintable(cluster.errorString()));
        makeMqttState(cluster.node(0).mqttPort());
        if (QTest::currentTestFailed())
            return;

        // Every node shows the same accounts and the replicated MQTT streams.
        for (int i = 0; i < cluster.nodeCount(); ++i) {
            const QString url = cluster.node(i).url();
            const auto servers = CliRunner::run(systemArgs(url) + QStringList{QStringLiteral("servers"), QStringLiteral("--json")});
            QVERIFY2(servers.exitCode() == 0 && servers.jsonValid, qPrintable(servers.describe()));
            const QJsonArray list = servers.json.value(QLatin1String("servers")).toArray();
            QCOMPARE(list.size(), cluster.nodeCount());
            for (const QJsonValue &v : list)
                QCOMPARE(v.toObject().value(QLatin1String("cluster")).toString(), cluster.clusterName());

            const auto streams = CliRunner::run(
                systemArgs(url)
                + QStringList{QStringLiteral("streams"), QStringLiteral("--account"), QStringLiteral("ACME"), QStringLiteral("--json")});
            QVERIFY2(streams.exitCode() == 0 && streams.jsonValid, qPrintable(streams.describe()));
            const QJsonArray s = streams.json.value(QLatin1String("streams")).toArray();
            QCOMPARE(s.size(), 3);
            for (const QJsonValue &v : s) {
                const QJsonObject stream = v.toObject();
                QCOMPARE(stream.value(QLatin1String("config")).toObject().value(QLatin1String("num_replicas")).toInt(), 3);
                QVERIFY(!stream.value(QLatin1String("cluster")).toObject().value(QLatin1String("leader")).toString().isEmpty());
                QCOMPARE(stream.value(QLatin1String("cluster")).toObject().value(QLatin1String("replicas")).toArray().size(), 2);
            }
            // With the account's own credentials through this node: the same three streams.
            const auto own = CliRunner::run(acmeArgs(url) + QStringList{QStringLiteral("streams"), QStringLiteral("--json")});
            QVERIFY2(own.exitCode() == 0 && own.jsonValid, qPrintable(own.describe()));
            QCOMPARE(own.json.value(QLatin1String("streams")).toArray().size(), 3);
        }

        // The whole cluster's URL list is accepted too.
        const auto accounts = CliRunner::run(systemArgs(cluster.url()) + QStringList{QStringLiteral("accounts"), QStringLiteral("--json")});
        QVERIFY2(accounts.exitCode() == 0 && accounts.jsonValid, qPrintable(accounts.describe()));
        QCOMPARE(byName(accounts.json.value(QLatin1String("accounts")).toArray(), QStringLiteral("ACME"))
                     .value(QLatin1String("mqtt_streams"))
                     .toArray()
                     .size(),
                 3);
    }
};

QTEST_GUILESS_MAIN(TestDiscovery)
#include "tst_discovery.moc"
