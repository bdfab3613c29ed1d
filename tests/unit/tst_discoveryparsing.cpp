#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "nats/clusterjson.h"
#include "nats/discovery.h"

using namespace MqttDoctor;

class TestDiscoveryParsing : public QObject
{
    Q_OBJECT

private:
    // Replies captured from a real 3-node 2.9.10 cluster (n1..n3, cluster "vc", ACME with R3 MQTT streams).
    static QList<SystemClient::Reply> capturedClusterJsz()
    {
        QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/jsz-cluster-2.9.10.json"));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read captured JSZ replies: %s", qPrintable(f.fileName()));
        QList<SystemClient::Reply> replies;
        for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).array()) {
            auto r = SystemClient::parse(QJsonDocument(v.toObject()).toJson());
            if (r)
                replies.append(*r);
        }
        return replies;
    }

private slots:
    void mergesClusterReplies()
    {
        const auto replies = capturedClusterJsz();
        QCOMPARE(replies.size(), 3);
        const QList<AccountInfo> accounts = Discovery::accountsFromJsz(replies);
        QCOMPARE(accounts.size(), 1);
        const AccountInfo &acme = accounts.first();
        QCOMPARE(acme.name, QStringLiteral("ACME"));
        QVERIFY(acme.jetstream);
        QVERIFY(acme.streamsKnown);
        // One entry per stream although three servers reported each.
        QCOMPARE(acme.streamCount, 3);
        QStringList names;
        for (const StreamInfo &s : acme.streams)
            names << s.name;
        QCOMPARE(names, (QStringList{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess")}));
        for (const StreamInfo &s : acme.streams) {
            QCOMPARE(s.config.value(QLatin1String("num_replicas")).toInt(), 3);
            QVERIFY(!s.cluster.value(QLatin1String("leader")).toString().isEmpty());
            QCOMPARE(s.source, QStringLiteral("jsz"));
            QVERIFY(s.consumersKnown);
        }
        // The retained stream has one consumer per server that served MQTT for the account (n1, n2),
        // listed once each although every server reported them.
        const StreamInfo rmsgs = acme.streams.at(1);
        QCOMPARE(rmsgs.consumers.size(), 2);
        for (const QJsonObject &c : rmsgs.consumers)
            QVERIFY(c.value(QLatin1String("name")).toString().startsWith(QLatin1String("$MQTT_rmsgs_")));
    }

    void prefersLeaderView()
    {
        // Two servers report the same stream with different states: the leader's wins, in any order.
        const auto make = [](const char *server, int messages) {
            QJsonObject stream{{QStringLiteral("name"), QStringLiteral("$MQTT_sess")},
                               {QStringLiteral("cluster"), QJsonObject{{QStringLiteral("leader"), QStringLiteral("n2")}}},
                               {QStringLiteral("config"), QJsonObject{{QStringLiteral("name"), QStringLiteral("$MQTT_sess")}}},
                               {QStringLiteral("state"), QJsonObject{{QStringLiteral("messages"), messages}}}};
            SystemClient::Reply r;
            r.server = QJsonObject{{QStringLiteral("name"), QLatin1String(server)}};
            r.data = QJsonObject{{QStringLiteral("account_details"),
                                  QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("A")},
                                                         {QStringLiteral("stream_detail"), QJsonArray{stream}}}}}};
            return r;
        };
        for (const auto &order :
             {QList<SystemClient::Reply>{make("n1", 5), make("n2", 7)}, QList<SystemClient::Reply>{make("n2", 7), make("n1", 5)}}) {
            const auto accounts = Discovery::accountsFromJsz(order);
            QCOMPARE(accounts.size(), 1);
            QCOMPARE(accounts.first().streams.size(), 1);
            QCOMPARE(accounts.first().streams.first().state.value(QLatin1String("messages")).toInt(), 7);
        }
    }

    void serverFromVarz()
    {
        SystemClient::Reply r;
        r.server = QJsonObject{{QStringLiteral("name"), QStringLiteral("n1")},
                               {QStringLiteral("id"), QStringLiteral("NID")},
                               {QStringLiteral("ver"), QStringLiteral("2.9.10")},
                               {QStringLiteral("jetstream"), true}};
        r.data = QJsonObject{
            {QStringLiteral("cluster"), QJsonObject{{QStringLiteral("name"), QStringLiteral("vc")}}},
            {QStringLiteral("mqtt"), QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")}, {QStringLiteral("port"), 1883}}},
            {QStringLiteral("jetstream"),
             QJsonObject{{QStringLiteral("config"), QJsonObject{{QStringLiteral("domain"), QStringLiteral("hub")}}}}}};
        const ServerInfo s = Discovery::serverFromVarz(r);
        QCOMPARE(s.name, QStringLiteral("n1"));
        QCOMPARE(s.version, QStringLiteral("2.9.10"));
        QCOMPARE(s.cluster, QStringLiteral("vc"));
        QCOMPARE(s.jsDomain, QStringLiteral("hub"));
        QVERIFY(s.jetstream);
        QVERIFY(s.mqttKnown);
        QCOMPARE(s.mqttPort, 1883);
        const QJsonObject json = ClusterJson::server(s);
        QCOMPARE(json.value(QLatin1String("mqtt")).toObject().value(QLatin1String("port")).toInt(), 1883);

        r.data.remove(QStringLiteral("mqtt"));
        const ServerInfo noMqtt = Discovery::serverFromVarz(r);
        QCOMPARE(noMqtt.mqttPort, 0);
        QCOMPARE(ClusterJson::server(noMqtt).value(QLatin1String("mqtt")), QJsonValue(false));
    }

    void badReplyIsAnError()
    {
        const auto r = SystemClient::parse("not json");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), Error::Kind::Protocol);
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryParsing)
#include "tst_discoveryparsing.moc"
