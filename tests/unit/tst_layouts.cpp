#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "mqtt/layouts.h"
#include "nats/discovery.h"

using namespace MqttDoctor;

Q_DECLARE_METATYPE(MqttLayout::Kind)

namespace {

struct Capture
{
    QList<ServerInfo> servers;
    QList<AccountInfo> accounts;
};

// Replies of real servers (tests/unit/data), wrapped {"server": ..., "data": <jsz>} like $SYS replies.
Capture loadCapture(const QString &relativePath)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/") + relativePath);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read captured JSZ replies: %s", qPrintable(f.fileName()));
    Capture c;
    QList<SystemClient::Reply> replies;
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).array()) {
        auto r = SystemClient::parse(QJsonDocument(v.toObject()).toJson());
        if (!r)
            qFatal("bad reply in %s", qPrintable(f.fileName()));
        replies.append(*r);
        c.servers.append(Discovery::serverFromEnvelope(r->server));
    }
    c.accounts = Discovery::accountsFromJsz(replies);
    return c;
}

ServerInfo server(const char *name, const char *version, const char *cluster = "", bool jetstream = true)
{
    ServerInfo s;
    s.name = QString::fromLatin1(name);
    s.version = QString::fromLatin1(version);
    s.cluster = QString::fromLatin1(cluster);
    s.jetstream = jetstream;
    return s;
}

QList<ServerInfo> clusterOf(int size, const char *version = "2.10.27")
{
    QList<ServerInfo> out;
    for (int i = 1; i <= size; ++i)
        out.append(server(qPrintable(QStringLiteral("n%1").arg(i)), version, "c1"));
    return out;
}

} // namespace

class TestLayouts : public QObject
{
    Q_OBJECT

private slots:
    void parseVersion_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("majorV");
        QTest::addColumn<int>("minorV");
        QTest::addColumn<int>("patchV");
        QTest::addColumn<QString>("pre");
        QTest::addColumn<qint64>("number");

        QTest::newRow("debian bookworm") << QStringLiteral("2.9.10") << true << 2 << 9 << 10 << QString() << qint64(2009010);
        QTest::newRow("with v") << QStringLiteral("v2.10.27") << true << 2 << 10 << 27 << QString() << qint64(2010027);
        QTest::newRow("sid") << QStringLiteral("2.15.1") << true << 2 << 15 << 1 << QString() << qint64(2015001);
        QTest::newRow("rc") << QStringLiteral("v2.11.0-RC.1") << true << 2 << 11 << 0 << QStringLiteral("RC.1") << qint64(2011000);
        QTest::newRow("build metadata") << QStringLiteral("2.12.0-beta.3+abc") << true << 2 << 12 << 0 << QStringLiteral("beta.3")
                                        << qint64(2012000);
        QTest::newRow("two parts") << QStringLiteral("2.11") << true << 2 << 11 << 0 << QString() << qint64(2011000);
        QTest::newRow("spaces") << QStringLiteral(" 2.9.10 ") << true << 2 << 9 << 10 << QString() << qint64(2009010);
        QTest::newRow("empty") << QString() << false << 0 << 0 << 0 << QString() << qint64(0);
        QTest::newRow("word") << QStringLiteral("unknown") << false << 0 << 0 << 0 << QString() << qint64(0);
        QTest::newRow("one part") << QStringLiteral("2") << false << 0 << 0 << 0 << QString() << qint64(0);
        QTest::newRow("letters") << QStringLiteral("2.x.1") << false << 0 << 0 << 0 << QString() << qint64(0);
        QTest::newRow("empty pre") << QStringLiteral("2.9.10-") << false << 0 << 0 << 0 << QString() << qint64(0);
        QTest::newRow("four parts") << QStringLiteral("2.9.10.1") << false << 0 << 0 << 0 << QString() << qint64(0);
    }

    void parseVersion()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        const auto v = ServerVersion::parse(text);
        QCOMPARE(v.ok(), valid);
        if (!valid) {
            QCOMPARE(v.error().kind(), Error::Kind::InvalidInput);
            return;
        }
        QFETCH(int, majorV);
        QFETCH(int, minorV);
        QFETCH(int, patchV);
        QFETCH(QString, pre);
        QFETCH(qint64, number);
        QVERIFY(v->isValid());
        QCOMPARE(v->majorVersion(), majorV);
        QCOMPARE(v->minorVersion(), minorV);
        QCOMPARE(v->patchVersion(), patchV);
        QCOMPARE(v->preRelease(), pre);
        QCOMPARE(v->number(), number);
    }

    void versionOrder_data()
    {
        QTest::addColumn<QString>("lower");
        QTest::addColumn<QString>("higher");
        QTest::newRow("minor numerically") << QStringLiteral("2.9.10") << QStringLiteral("2.10.0");
        QTest::newRow("patch numerically") << QStringLiteral("2.9.9") << QStringLiteral("2.9.10");
        QTest::newRow("rc before release") << QStringLiteral("v2.11.0-RC.1") << QStringLiteral("2.11.0");
        QTest::newRow("rc numbers") << QStringLiteral("2.11.0-RC.2") << QStringLiteral("2.11.0-RC.10");
        QTest::newRow("numeric before alpha") << QStringLiteral("2.11.0-1") << QStringLiteral("2.11.0-beta");
        QTest::newRow("shorter pre first") << QStringLiteral("2.11.0-RC") << QStringLiteral("2.11.0-RC.1");
        QTest::newRow("release before next rc") << QStringLiteral("2.10.27") << QStringLiteral("2.11.0-RC.1");
        QTest::newRow("newest") << QStringLiteral("2.14.5") << QStringLiteral("2.15.1");
    }

    void versionOrder()
    {
        QFETCH(QString, lower);
        QFETCH(QString, higher);
        const ServerVersion a = *ServerVersion::parse(lower);
        const ServerVersion b = *ServerVersion::parse(higher);
        QVERIFY(a < b);
        QVERIFY(b > a);
        QVERIFY(a != b);
        QVERIFY(a.number() <= b.number());
    }

    void versionEquality()
    {
        QCOMPARE(*ServerVersion::parse(QStringLiteral("v2.10.27")), *ServerVersion::parse(QStringLiteral("2.10.27")));
        QCOMPARE(ServerVersion::parse(QStringLiteral("2.11"))->toString(), QStringLiteral("2.11.0"));
        QCOMPARE(ServerVersion::parse(QStringLiteral("v2.11.0-RC.1"))->toString(), QStringLiteral("2.11.0-RC.1"));
        QVERIFY(ServerVersion::parse(QStringLiteral("2.10.0"))->atLeast(2, 10));
        QVERIFY(!ServerVersion::parse(QStringLiteral("2.10.0-RC.1"))->atLeast(2, 10));
        QVERIFY(!ServerVersion().isValid());
        QVERIFY(ServerVersion() < ServerVersion(0, 0, 0));
    }

    void kindForVersion_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<MqttLayout::Kind>("kind");
        QTest::newRow("2.9.10") << QStringLiteral("2.9.10") << MqttLayout::Kind::V2_9;
        QTest::newRow("2.8.4") << QStringLiteral("2.8.4") << MqttLayout::Kind::V2_9;
        QTest::newRow("2.9.25") << QStringLiteral("2.9.25") << MqttLayout::Kind::V2_9;
        QTest::newRow("2.10.0-RC.1") << QStringLiteral("2.10.0-RC.1") << MqttLayout::Kind::V2_10;
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27") << MqttLayout::Kind::V2_10;
        QTest::newRow("v2.11.0-RC.1") << QStringLiteral("v2.11.0-RC.1") << MqttLayout::Kind::V2_10;
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1") << MqttLayout::Kind::V2_10;
        QTest::newRow("3.0.0") << QStringLiteral("3.0.0") << MqttLayout::Kind::V2_10;
    }

    void kindForVersion()
    {
        QFETCH(QString, version);
        QFETCH(MqttLayout::Kind, kind);
        QCOMPARE(Layouts::kindFor(*ServerVersion::parse(version)), kind);
    }

    void layoutStreams_data()
    {
        QTest::addColumn<MqttLayout::Kind>("kind");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("subjects");

        QTest::newRow("2.9") << MqttLayout::Kind::V2_9 << QString()
                             << QStringList{QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs")}
                             << QStringList{QStringLiteral("$MQTT.sess.>"), QStringLiteral("$MQTT.msgs.>"), QStringLiteral("$MQTT.rmsgs")};
        QTest::newRow("2.9 domain hub") << MqttLayout::Kind::V2_9 << QStringLiteral("hub")
                                        << QStringList{QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT_msgs"),
                                                       QStringLiteral("$MQTT_rmsgs")}
                                        << QStringList{QStringLiteral("$MQTT.sess.hub.>"), QStringLiteral("$MQTT.msgs.>"),
                                                       QStringLiteral("$MQTT.rmsgs")};
        const QStringList five{QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_qos2in"),
                               QStringLiteral("$MQTT_out"), QStringLiteral("$MQTT_rmsgs")};
        QTest::newRow("2.10+") << MqttLayout::Kind::V2_10 << QString() << five
                               << QStringList{QStringLiteral("$MQTT.sess.>"), QStringLiteral("$MQTT.msgs.>"),
                                              QStringLiteral("$MQTT.qos2.in.>"), QStringLiteral("$MQTT.out.>"),
                                              QStringLiteral("$MQTT.rmsgs.>")};
        QTest::newRow("2.10+ domain spoke") << MqttLayout::Kind::V2_10 << QStringLiteral("spoke") << five
                                            << QStringList{QStringLiteral("$MQTT.sess.spoke.>"), QStringLiteral("$MQTT.msgs.>"),
                                                           QStringLiteral("$MQTT.qos2.in.>"), QStringLiteral("$MQTT.out.>"),
                                                           QStringLiteral("$MQTT.rmsgs.>")};
        QTest::newRow("mixed: 2.9 retained") << MqttLayout::Kind::Mixed << QString() << five
                                             << QStringList{QStringLiteral("$MQTT.sess.>"), QStringLiteral("$MQTT.msgs.>"),
                                                            QStringLiteral("$MQTT.qos2.in.>"), QStringLiteral("$MQTT.out.>"),
                                                            QStringLiteral("$MQTT.rmsgs")};
    }

    void layoutStreams()
    {
        QFETCH(MqttLayout::Kind, kind);
        QFETCH(QString, domain);
        QFETCH(QStringList, names);
        QFETCH(QStringList, subjects);
        const MqttLayout layout(kind, domain, 3);
        QCOMPARE(layout.streamNames(), names);
        QStringList actual;
        for (const MqttStreamSpec &s : layout.streams()) {
            QCOMPARE(s.subjects.size(), 1);
            actual.append(s.subjects.first());
            QCOMPARE(s.storage, QStringLiteral("file"));
            QCOMPARE(s.replicas, 3);
        }
        QCOMPARE(actual, subjects);
        QCOMPARE(layout.domainToken(), domain.isEmpty() ? QString() : domain + QLatin1Char('.'));
        QCOMPARE(layout.sessionSubject(QStringLiteral("PNfq787e")),
                 QStringLiteral("$MQTT.sess.") + layout.domainToken() + QStringLiteral("PNfq787e"));
    }

    void exactConfigs()
    {
        const MqttLayout v29(MqttLayout::Kind::V2_9);
        const MqttLayout v210(MqttLayout::Kind::V2_10);
        const auto sess = *v29.stream(QStringLiteral("$MQTT_sess"));
        QCOMPARE(sess.retention, QStringLiteral("limits"));
        QCOMPARE(sess.maxMsgsPerSubject, 1);
        QCOMPARE(sess.discard, QStringLiteral("old"));
        const auto msgs = *v210.stream(QStringLiteral("$MQTT_msgs"));
        QCOMPARE(msgs.retention, QStringLiteral("interest"));
        QCOMPARE(msgs.maxMsgsPerSubject, -1);
        const auto rm29 = *v29.stream(QStringLiteral("$MQTT_rmsgs"));
        QCOMPARE(rm29.maxMsgsPerSubject, -1);
        QCOMPARE(rm29.retention, QStringLiteral("limits"));
        const auto rm210 = *v210.stream(QStringLiteral("$MQTT_rmsgs"));
        QCOMPARE(rm210.maxMsgsPerSubject, 1);
        const auto qos2 = *v210.stream(QStringLiteral("$MQTT_qos2in"));
        QCOMPARE(qos2.retention, QStringLiteral("limits"));
        QCOMPARE(qos2.discard, QStringLiteral("new"));
        QCOMPARE(qos2.maxMsgsPerSubject, 1);
        QVERIFY(qos2.discardNewPerSubject);
        const auto out = *v210.stream(QStringLiteral("$MQTT_out"));
        QCOMPARE(out.retention, QStringLiteral("interest"));
        QVERIFY(!v29.contains(QStringLiteral("$MQTT_qos2in")));
        QVERIFY(!v29.stream(QStringLiteral("$MQTT_out")).has_value());

        // The create request carries only what nats-server sets.
        QCOMPARE(qos2.createConfig(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("$MQTT_qos2in")},
                              {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.qos2.in.>")}},
                              {QStringLiteral("retention"), QStringLiteral("limits")},
                              {QStringLiteral("storage"), QStringLiteral("file")},
                              {QStringLiteral("num_replicas"), 1},
                              {QStringLiteral("max_msgs_per_subject"), 1},
                              {QStringLiteral("discard"), QStringLiteral("new")},
                              {QStringLiteral("discard_new_per_subject"), true}}));
        QCOMPARE(msgs.createConfig(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("$MQTT_msgs")},
                              {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.msgs.>")}},
                              {QStringLiteral("retention"), QStringLiteral("interest")},
                              {QStringLiteral("storage"), QStringLiteral("file")},
                              {QStringLiteral("num_replicas"), 1}}));

        const QJsonObject layoutJson = v210.toJson();
        QCOMPARE(layoutJson.value(QLatin1String("kind")).toString(), QStringLiteral("2.10+"));
        QCOMPARE(layoutJson.value(QLatin1String("streams")).toArray().size(), 5);
        QVERIFY(MqttLayout::kindFromName(QStringLiteral("mixed")) == MqttLayout::Kind::Mixed);
        QVERIFY(!MqttLayout::kindFromName(QStringLiteral("2.8")).has_value());
    }

    /** The expected configs are what real servers store: compared fields and every reported default. */
    void matchesRealServers_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<MqttLayout::Kind>("kind");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("streams");
        QTest::newRow("2.9.10 single") << QStringLiteral("checks/single-2.9.10.json") << MqttLayout::Kind::V2_9 << QString() << 1 << 3;
        QTest::newRow("2.9.10 cluster R3") << QStringLiteral("jsz-cluster-2.9.10.json") << MqttLayout::Kind::V2_9 << QString() << 3 << 3;
        QTest::newRow("2.10.27 single") << QStringLiteral("checks/single-2.10.27.json") << MqttLayout::Kind::V2_10 << QString() << 1 << 5;
        QTest::newRow("2.10.27 domain hub") << QStringLiteral("checks/single-2.10.27-domain-hub.json") << MqttLayout::Kind::V2_10
                                            << QStringLiteral("hub") << 1 << 5;
        QTest::newRow("2.15.1 single") << QStringLiteral("checks/single-2.15.1.json") << MqttLayout::Kind::V2_10 << QString() << 1 << 5;
        QTest::newRow("2.9.10 migrated by 2.10.27")
            << QStringLiteral("checks/upgrade-2.9.10-to-2.10.27-after-connect.json") << MqttLayout::Kind::V2_10 << QString() << 1 << 5;
    }

    void matchesRealServers()
    {
        QFETCH(QString, capture);
        QFETCH(MqttLayout::Kind, kind);
        QFETCH(QString, domain);
        QFETCH(int, replicas);
        QFETCH(int, streams);
        const Capture c = loadCapture(capture);
        QCOMPARE(c.accounts.size(), 1);
        const AccountInfo &acme = c.accounts.first();

        // Chosen from the servers alone.
        const LayoutChoice choice = Layouts::choose(c.servers, {}, acme.streams);
        QCOMPARE(choice.layout.kind(), kind);
        QCOMPARE(choice.basis, LayoutChoice::Basis::Versions);
        QCOMPARE(choice.layout.domain(), domain);
        QCOMPARE(choice.layout.replicas(), replicas);
        QCOMPARE(choice.layout.streams().size(), streams);

        int compared = 0;
        for (const StreamInfo &s : acme.streams) {
            const auto spec = choice.layout.stream(s.name);
            QVERIFY2(spec.has_value(), qPrintable(s.name));
            const auto diffs = spec->differences(s.config);
            for (const auto &d : diffs)
                qWarning() << s.name << d.field << d.expected << d.actual;
            QVERIFY(diffs.isEmpty());
            // Every field of the expected config is what the server reports.
            const QJsonObject expected = spec->expectedConfig();
            for (auto it = expected.begin(); it != expected.end(); ++it)
                QVERIFY2(s.config.value(it.key()) == it.value(), qPrintable(s.name + QLatin1Char(' ') + it.key()));
            ++compared;
        }
        QCOMPARE(compared, streams);
    }

    void differences()
    {
        const MqttStreamSpec sess = *MqttLayout(MqttLayout::Kind::V2_9).stream(QStringLiteral("$MQTT_sess"));
        QJsonObject cfg = sess.expectedConfig();
        QVERIFY(sess.differences(cfg).isEmpty());
        // Defaults: missing fields, 0 for unlimited and 0 replicas are what JetStream means by them.
        QJsonObject minimal{{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.>")}},
                            {QStringLiteral("max_msgs_per_subject"), 1}};
        QVERIFY(sess.differences(minimal).isEmpty());
        const MqttStreamSpec msgs = *MqttLayout(MqttLayout::Kind::V2_9).stream(QStringLiteral("$MQTT_msgs"));
        QVERIFY(msgs.differences(QJsonObject{{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.msgs.>")}},
                                             {QStringLiteral("retention"), QStringLiteral("interest")},
                                             {QStringLiteral("max_msgs_per_subject"), 0},
                                             {QStringLiteral("num_replicas"), 0}})
                    .isEmpty());

        // Subject order is ignored; other fields are reported with normalised values.
        MqttStreamSpec two = sess;
        two.subjects = {QStringLiteral("a"), QStringLiteral("b")};
        QJsonObject swapped = two.expectedConfig();
        swapped.insert(QStringLiteral("subjects"), QJsonArray{QStringLiteral("b"), QStringLiteral("a")});
        QVERIFY(two.differences(swapped).isEmpty());

        cfg.insert(QStringLiteral("max_msgs_per_subject"), -1);
        cfg.insert(QStringLiteral("storage"), QStringLiteral("memory"));
        cfg.insert(QStringLiteral("num_replicas"), 3);
        cfg.insert(QStringLiteral("max_age"), 3600); // not set by nats-server: not compared
        const auto diffs = sess.differences(cfg);
        QStringList fields;
        for (const auto &d : diffs)
            fields << d.field;
        QCOMPARE(fields, (QStringList{QStringLiteral("storage"), QStringLiteral("max_msgs_per_subject"), QStringLiteral("num_replicas")}));
        QCOMPARE(diffs.at(1).expected.toInteger(), 1);
        QCOMPARE(diffs.at(1).actual.toInteger(), -1);
    }

    void replicas_data()
    {
        QTest::addColumn<int>("clusterSize");
        QTest::addColumn<int>("streamReplicas"); // 0: not configured
        QTest::addColumn<int>("expected");
        // TestMQTTClusterReplicasCount: cluster sizes 1/2/3/5 → 1/2/3/3.
        QTest::newRow("not clustered") << 0 << 0 << 1;
        QTest::newRow("1 node") << 1 << 0 << 1;
        QTest::newRow("2 nodes") << 2 << 0 << 2;
        QTest::newRow("3 nodes") << 3 << 0 << 3;
        QTest::newRow("5 nodes capped") << 5 << 0 << 3;
        QTest::newRow("stream_replicas 1 in 3") << 3 << 1 << 1;
        QTest::newRow("stream_replicas 5 not capped") << 3 << 5 << 5;
        QTest::newRow("stream_replicas 3 standalone") << 0 << 3 << 3;
    }

    void replicas()
    {
        QFETCH(int, clusterSize);
        QFETCH(int, streamReplicas);
        QFETCH(int, expected);
        QList<ServerInfo> servers = clusterSize == 0 ? QList<ServerInfo>{server("solo", "2.9.10")} : clusterOf(clusterSize);
        // A server without JetStream in the same cluster does not count.
        servers.append(server("nojs", "2.10.27", clusterSize == 0 ? "" : "c1", false));
        const std::optional<int> sr = streamReplicas > 0 ? std::optional<int>(streamReplicas) : std::nullopt;
        QCOMPARE(Layouts::expectedReplicas(servers, sr), expected);
        LayoutOptions options;
        options.streamReplicas = sr;
        const LayoutChoice choice = Layouts::choose(servers, options);
        QCOMPARE(choice.layout.replicas(), expected);
        QCOMPARE(choice.replicasFromConfig, streamReplicas > 0);
        QCOMPARE(choice.peerCount(), qMax(1, clusterSize));
    }

    void replicasFromStreamPeers()
    {
        // Without a system connection only the connected server is known; the streams' cluster info
        // still shows a 3-node cluster.
        const Capture c = loadCapture(QStringLiteral("jsz-cluster-2.9.10.json"));
        const QList<ServerInfo> one{c.servers.first()};
        QCOMPARE(Layouts::expectedReplicas(one), 1); // the one server alone looks like a 1-node cluster
        const QStringList peers = Layouts::jetStreamPeers(one, {}, c.accounts.first().streams);
        QCOMPARE(peers, (QStringList{QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3")}));
        QCOMPARE(Layouts::choose(one, {}, c.accounts.first().streams).layout.replicas(), 3);

        // Two clusters: the largest one counts unless one is named.
        QList<ServerInfo> two = clusterOf(3);
        two.append(server("e1", "2.10.27", "edge"));
        QCOMPARE(Layouts::jetStreamPeers(two).size(), 3);
        QCOMPARE(Layouts::jetStreamPeers(two, QStringLiteral("edge")), QStringList{QStringLiteral("e1")});
    }

    void choose_data()
    {
        QTest::addColumn<QStringList>("versions");
        QTest::addColumn<MqttLayout::Kind>("kind");
        QTest::addColumn<int>("legacy");
        QTest::addColumn<int>("current");
        QTest::addColumn<int>("unknown");
        QTest::newRow("all 2.9") << QStringList{QStringLiteral("2.9.10"), QStringLiteral("2.9.10")} << MqttLayout::Kind::V2_9 << 2 << 0
                                 << 0;
        QTest::newRow("all 2.10+") << QStringList{QStringLiteral("2.10.27"), QStringLiteral("2.15.1")} << MqttLayout::Kind::V2_10 << 0 << 2
                                   << 0;
        QTest::newRow("rc counts as 2.11") << QStringList{QStringLiteral("v2.11.0-RC.1")} << MqttLayout::Kind::V2_10 << 0 << 1 << 0;
        QTest::newRow("mixed") << QStringList{QStringLiteral("2.9.10"), QStringLiteral("2.10.27"), QStringLiteral("2.10.27")}
                               << MqttLayout::Kind::Mixed << 1 << 2 << 0;
        QTest::newRow("unknown ignored") << QStringList{QStringLiteral("2.9.10"), QStringLiteral("garbage"), QString()}
                                         << MqttLayout::Kind::V2_9 << 1 << 0 << 2;
    }

    void choose()
    {
        QFETCH(QStringList, versions);
        QFETCH(MqttLayout::Kind, kind);
        QFETCH(int, legacy);
        QFETCH(int, current);
        QFETCH(int, unknown);
        QList<ServerInfo> servers;
        for (qsizetype i = 0; i < versions.size(); ++i) {
            ServerInfo s = server(qPrintable(QStringLiteral("n%1").arg(i + 1)), "", "c1");
            s.version = versions.at(i);
            servers.append(s);
        }
        const LayoutChoice c = Layouts::choose(servers);
        QCOMPARE(c.layout.kind(), kind);
        QCOMPARE(c.mixed(), kind == MqttLayout::Kind::Mixed);
        QCOMPARE(c.legacyServers.size(), legacy);
        QCOMPARE(c.currentServers.size(), current);
        QCOMPARE(c.unknownServers.size(), unknown);
        QCOMPARE(c.basis, LayoutChoice::Basis::Versions);
        const QJsonObject json = c.toJson();
        QCOMPARE(json.value(QLatin1String("basis")).toString(), QStringLiteral("versions"));
        QCOMPARE(json.value(QLatin1String("kind")).toString(), MqttLayout::kindName(kind));
    }

    void mixedVersionsSorted()
    {
        QList<ServerInfo> servers{server("b", "2.15.1", "c"), server("a", "2.9.10", "c"), server("c", "v2.10.27", "c"),
                                  server("d", "2.10.27", "c")};
        const LayoutChoice c = Layouts::choose(servers);
        QCOMPARE(c.versions, (QStringList{QStringLiteral("2.9.10"), QStringLiteral("2.10.27"), QStringLiteral("2.15.1")}));
        QCOMPARE(c.legacyServers, QStringList{QStringLiteral("a")});
        QCOMPARE(c.currentServers, (QStringList{QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")}));
    }

    void serversWithoutMqttDoNotVote()
    {
        ServerInfo old = server("old", "2.9.10", "c");
        old.mqttKnown = true;
        old.mqttPort = 0; // no MQTT listener: never builds an MQTT session manager
        ServerInfo cur = server("new", "2.10.27", "c");
        cur.mqttKnown = true;
        cur.mqttPort = 1883;
        QCOMPARE(Layouts::choose({old, cur}).layout.kind(), MqttLayout::Kind::V2_10);
        QVERIFY(!Layouts::servesMqtt(old));
        QVERIFY(Layouts::servesMqtt(cur));
        QVERIFY(Layouts::servesMqtt(server("unknown", "2.9.10"))); // not known: counts
    }

    void fallbackToStreams()
    {
        const Capture c210 = loadCapture(QStringLiteral("checks/single-2.10.27.json"));
        const Capture c29 = loadCapture(QStringLiteral("checks/single-2.9.10.json"));
        const QList<ServerInfo> noVersion{server("x1", "")};
        LayoutChoice a = Layouts::choose(noVersion, {}, c210.accounts.first().streams);
        QCOMPARE(a.basis, LayoutChoice::Basis::Streams);
        QCOMPARE(a.layout.kind(), MqttLayout::Kind::V2_10);
        LayoutChoice b = Layouts::choose(noVersion, {}, c29.accounts.first().streams);
        QCOMPARE(b.basis, LayoutChoice::Basis::Streams);
        QCOMPARE(b.layout.kind(), MqttLayout::Kind::V2_9);
        LayoutChoice d = Layouts::choose(noVersion);
        QCOMPARE(d.basis, LayoutChoice::Basis::Default);
        QCOMPARE(d.layout.kind(), MqttLayout::Kind::V2_10);
    }

    void domain_data()
    {
        QTest::addColumn<QString>("serverDomain");
        QTest::addColumn<bool>("optionSet");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("expectedSubject");
        QTest::addColumn<QString>("source");
        QTest::newRow("none") << QString() << false << QString() << QStringLiteral("$MQTT.sess.>") << QString();
        QTest::newRow("jetstream domain") << QStringLiteral("hub") << false << QString() << QStringLiteral("$MQTT.sess.hub.>")
                                          << QStringLiteral("server");
        QTest::newRow("mqtt.js_domain wins") << QStringLiteral("hub") << true << QStringLiteral("leaf")
                                             << QStringLiteral("$MQTT.sess.leaf.>") << QStringLiteral("option");
        QTest::newRow("set but empty wins") << QStringLiteral("hub") << true << QString() << QStringLiteral("$MQTT.sess.>") << QString();
        QTest::newRow("option without server domain")
            << QString() << true << QStringLiteral("hub") << QStringLiteral("$MQTT.sess.hub.>") << QStringLiteral("option");
    }

    void domain()
    {
        QFETCH(QString, serverDomain);
        QFETCH(bool, optionSet);
        QFETCH(QString, option);
        QFETCH(QString, expectedSubject);
        QFETCH(QString, source);
        ServerInfo s = server("x1", "2.10.27");
        s.jsDomain = serverDomain;
        LayoutOptions options;
        if (optionSet)
            options.domain = option;
        const LayoutChoice c = Layouts::choose({s}, options);
        QCOMPARE(c.layout.stream(QStringLiteral("$MQTT_sess"))->subjects, QStringList{expectedSubject});
        QCOMPARE(c.domainSource, source);
    }

    void domainFromCapture()
    {
        const Capture c = loadCapture(QStringLiteral("checks/single-2.10.27-domain-hub.json"));
        QCOMPARE(c.servers.first().jsDomain, QStringLiteral("hub"));
        QCOMPARE(Layouts::domainFor(c.servers, {}), QStringLiteral("hub"));
    }
};

QTEST_GUILESS_MAIN(TestLayouts)
#include "tst_layouts.moc"
