// Upgrade readiness, deliberate deviations, Sparkplug B births and the JetStream meta group against real
// servers: the state each finding is about is made the way it happens in the field (a 2.10 server stores
// client IDs with '.' and retained topics with a tab or 0x7f, which newer servers refuse; an operator edits
// $MQTT_rmsgs; a clustered server runs without JetStream).
#include <QJsonArray>
#include <QTcpSocket>
#include <QTest>

#include "livecheck.h"
#include "natsclusterfixture.h"
#include "natsserverfixture.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::StringLiterals;

namespace {

const QString kRetained = u"$MQTT_rmsgs"_s;

// A minimal MQTT 3.1.1 client on a blocking socket: client IDs and topics as raw bytes (tab, 0x7f, '.'),
// which the command-line clients refuse to send.
class RawMqttSession
{
public:
    // CONNECT as acme; the CONNACK return code, -1 when none came.
    int connect(quint16 port, const QByteArray &clientId, bool cleanSession)
    {
        m_socket.connectToHost(u"127.0.0.1"_s, port);
        if (!m_socket.waitForConnected(5000))
            return -1;
        QByteArray body = string("MQTT") + QByteArray("\x04", 1);
        body += char(0xc0 | (cleanSession ? 0x02 : 0x00)); // user name, password
        body += QByteArray("\x00\x1e", 2);
        body += string(clientId) + string("acme") + string("acmepass");
        send(0x10, body);
        const QByteArray reply = read(4);
        return reply.size() == 4 && quint8(reply.at(0)) == 0x20 ? int(quint8(reply.at(3))) : -1;
    }
    // A retained (or plain) QoS 1 PUBLISH; true when the PUBACK came.
    bool publishRetained(const QByteArray &topic, const QByteArray &payload, bool retain = true)
    {
        send(retain ? 0x33 : 0x32, string(topic) + QByteArray("\x00\x01", 2) + payload);
        const QByteArray reply = read(4);
        return reply.size() == 4 && quint8(reply.at(0)) == 0x40;
    }
    // A QoS 1 SUBSCRIBE; the granted QoS, or 0x80 / -1.
    int subscribe(const QByteArray &filter)
    {
        send(0x82, QByteArray("\x00\x07", 2) + string(filter) + QByteArray("\x01", 1));
        const QByteArray reply = read(5);
        return reply.size() == 5 && quint8(reply.at(0)) == 0x90 ? int(quint8(reply.at(4))) : -1;
    }
    void disconnect()
    {
        send(0xe0, {});
        m_socket.waitForBytesWritten(2000);
        m_socket.disconnectFromHost();
    }

private:
    static QByteArray string(const QByteArray &s) { return QByteArray(1, char(s.size() >> 8)) + QByteArray(1, char(s.size() & 0xff)) + s; }
    void send(int type, const QByteArray &body)
    {
        QByteArray packet(1, char(type));
        qsizetype n = body.size();
        do {
            char digit = char(n % 128);
            n /= 128;
            if (n > 0)
                digit = char(digit | 0x80);
            packet += digit;
        } while (n > 0);
        m_socket.write(packet + body);
        m_socket.flush();
    }
    QByteArray read(qsizetype bytes)
    {
        QByteArray out;
        while (out.size() < bytes && (m_socket.bytesAvailable() > 0 || m_socket.waitForReadyRead(5000)))
            out += m_socket.read(bytes - out.size());
        return out;
    }

    QTcpSocket m_socket;
};

QStringList clientIdsOf(const QList<QJsonObject> &list)
{
    QStringList out;
    for (const QJsonObject &f : list)
        out << str(f, "client_id");
    out.sort();
    return out;
}

QStringList topicsOf(const QList<QJsonObject> &list)
{
    QStringList out;
    for (const QJsonObject &f : list)
        out << f.value(u"evidence"_s).toObject().value(u"actual"_s).toObject().value(u"topic"_s).toString();
    out.sort();
    return out;
}

} // namespace

class TestUpgradeReadiness : public QObject
{
    Q_OBJECT

private slots:
    // A 2.10 server keeps what 2.14.5 refuses: client IDs with '.' or a space, retained topics with a tab or
    // 0x7f, a retained payload above max_payload, a subscription to $MQTT/...; and a Sparkplug B birth.
    void whatTheTargetRefuses()
    {
        ServerConfig config = ServerConfig::standard();
        config.addSetting(u"max_payload: 2048"_s);
        NatsServerFixture server;
        QVERIFY2(server.start(u"2.10"_s, config), qPrintable(server.errorString()));
        for (const QByteArray &id : {QByteArray("dev.1"), QByteArray("line 7"), QByteArray("plain-device")}) {
            RawMqttSession s;
            QCOMPARE(s.connect(server.mqttPort(), id, false), 0);
            QCOMPARE(s.subscribe("plant/cmd"), 1);
            s.disconnect();
        }
        {
            RawMqttSession s;
            QCOMPARE(s.connect(server.mqttPort(), "snooper", false), 0);
            QCOMPARE(s.subscribe("$MQTT/x/#"), 1); // 2.10 grants it
            s.disconnect();
        }
        {
            RawMqttSession pub;
            QCOMPARE(pub.connect(server.mqttPort(), "publisher", true), 0);
            QVERIFY(pub.publishRetained("plant/line\t1", "21.5"));
            QVERIFY(pub.publishRetained("del\x7f", "x"));
            QVERIFY(pub.publishRetained("big/one", QByteArray(4000, 'x'))); // above max_payload, stored by 2.10
            QVERIFY(pub.publishRetained("fine/topic", "ok"));
            pub.disconnect();
        }

        // The servers' max_payload comes with VARZ: the system connection too.
        const QStringList both = systemArgs(server.url()) + QStringList{u"--user"_s, u"acme"_s, u"--password"_s, u"acmepass"_s};
        const CliRunner::Run run = check(both, {u"--target-version"_s, u"2.14.5"_s});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QCOMPARE(clientIdsOf(findingsWith(run, u"UPGRADE_CLIENT_ID_REFUSED"_s)), (QStringList{u"dev.1"_s, u"line 7"_s}));
        QCOMPARE(topicsOf(findingsWith(run, u"UPGRADE_RETAINED_SKIPPED"_s, kRetained)), (QStringList{u"del\x7f"_s, u"plant/line\t1"_s}));
        QCOMPARE(topicsOf(findingsWith(run, u"UPGRADE_PAYLOAD_TOO_LARGE"_s, kRetained)), QStringList{u"big/one"_s});
        const QList<QJsonObject> internal = findingsWith(run, u"UPGRADE_INTERNAL_SUBSCRIPTION"_s);
        QVERIFY2(!internal.isEmpty() && clientIdsOf(internal).first() == u"snooper"_s, qPrintable(describe(run)));
        for (const QJsonObject &f : findings(run))
            if (str(f, "code").startsWith(u"UPGRADE_"_s))
                QVERIFY2(str(f, "severity") == u"warning"_s
                             && (str(f, "detail").contains(u"2.10.27"_s) || str(f, "code") == u"UPGRADE_PAYLOAD_TOO_LARGE"_s),
                         qPrintable(summary({f})));
        QCOMPARE(run.exitCode(), 1);
        // The server's own version advisories are there, as info.
        QVERIFY2(!findingsWith(run, u"SERVER_VERSION_ADVISORY"_s).isEmpty(), qPrintable(describe(run)));

        // Without a target nothing of this is reported; a target older than the change neither.
        const CliRunner::Run plain = check(acmeArgs(server.url()));
        QVERIFY2(plain.jsonValid && findingsAbove(plain, u"info"_s).isEmpty(), qPrintable(describe(plain)));
        const CliRunner::Run older = check(both, {u"--target-version"_s, u"2.11.14"_s});
        QVERIFY2(older.jsonValid, qPrintable(older.describe()));
        QVERIFY2(findingsWith(older, u"UPGRADE_CLIENT_ID_REFUSED"_s).isEmpty()
                     && findingsWith(older, u"UPGRADE_RETAINED_SKIPPED"_s).isEmpty(),
                 qPrintable(describe(older)));
        const CliRunner::Run bad = CliRunner::run(acmeArgs(server.url()) + QStringList{u"check"_s, u"--target-version"_s, u"latest"_s});
        QCOMPARE(bad.exitCode(), 64);

        // `retained` lists them all, the topic with a tab too (a consumer cannot deliver its subject: read by message gets).
        const CliRunner::Run listed = CliRunner::run(acmeArgs(server.url()) + QStringList{u"retained"_s, u"--json"_s});
        QVERIFY2(listed.exitCode() == 0, qPrintable(listed.describe()));
        QStringList topics;
        for (const QJsonValue &v : listed.json.value(u"retained"_s).toArray())
            topics << v.toObject().value(u"topic"_s).toString();
        topics.sort();
        QCOMPARE(topics, (QStringList{u"big/one"_s, u"del\x7f"_s, u"fine/topic"_s, u"plant/line\t1"_s}));
    }

    // allow_direct set on $MQTT_rmsgs by an operator, and a $MQTT_rmsgs made with memory storage: info with
    // the reason, repaired only when selected. And a Sparkplug B edge node's NBIRTH, which 2.11+ servers
    // retain as a birth certificate: the retained views say what it is.
    void deliberateDeviations()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s, ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        QVERIFY2(admin.call(u"STREAM.CREATE.$MQTT_rmsgs"_s,
                            QJsonObject{{u"name"_s, kRetained},
                                        {u"subjects"_s, QJsonArray{u"$MQTT.rmsgs.>"_s}},
                                        {u"max_msgs_per_subject"_s, 1},
                                        {u"storage"_s, u"memory"_s},
                                        {u"allow_direct"_s, true}}),
                 qPrintable(admin.error()));
        {
            RawMqttSession pub;
            QCOMPARE(pub.connect(server.mqttPort(), "publisher", true), 0);
            QVERIFY(pub.publishRetained("plant/line1", "21.5"));
            QVERIFY(pub.publishRetained("spBv1.0/plant1/NBIRTH/gw7", QByteArray("\x08\x01\x12\x00", 4), false));
            pub.disconnect();
        }
        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, u"DELIBERATE_DEVIATION"_s, kRetained);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), u"info"_s);
        QCOMPARE(str(f, "repair"), u"recreate_stream"_s);
        QVERIFY2(str(f, "detail").contains(u"memory storage"_s) && str(f, "detail").contains(u"allow_direct"_s),
                 qPrintable(str(f, "detail")));
        QVERIFY2(findingsWith(run, u"STREAM_CONFIG_WRONG"_s, kRetained).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 0);

        // A plain repair leaves it alone; naming the code plans the recreate on file storage.
        const CliRunner::Run plain = CliRunner::run(acmeArgs(server.url()) + QStringList{u"repair"_s, u"--dry-run"_s});
        QVERIFY2(!plain.out().contains(u"Recreate $MQTT_rmsgs"_s), qPrintable(plain.out()));
        const CliRunner::Run selected =
            CliRunner::run(acmeArgs(server.url()) + QStringList{u"repair"_s, u"--dry-run"_s, u"--finding"_s, u"DELIBERATE_DEVIATION"_s});
        QVERIFY2(selected.out().contains(u"Recreate $MQTT_rmsgs"_s) && selected.out().contains(u"storage"_s), qPrintable(selected.out()));

        // The retained views say what the Sparkplug B birth certificate is.
        const CliRunner::Run retained = CliRunner::run(acmeArgs(server.url()) + QStringList{u"retained"_s, u"--json"_s});
        QCOMPARE(retained.exitCode(), 0);
        bool birthSeen = false;
        for (const QJsonValue &v : retained.json.value(u"retained"_s).toArray()) {
            const QJsonObject r = v.toObject();
            const QJsonValue sparkplug = r.value(u"sparkplug"_s);
            if (str(r, "topic").startsWith(u"$sparkplug/"_s)) {
                birthSeen = true;
                QCOMPARE(sparkplug.toObject().value(u"message_type"_s).toString(), u"NBIRTH"_s);
                QCOMPARE(sparkplug.toObject().value(u"edge_node_id"_s).toString(), u"gw7"_s);
            } else {
                QVERIFY(sparkplug.isNull());
            }
        }
        QVERIFY(birthSeen);
        const CliRunner::Run text = CliRunner::run(acmeArgs(server.url()) + QStringList{u"retained"_s});
        QVERIFY2(text.out().contains(u"(Sparkplug B NBIRTH certificate: group plant1, edge node gw7)"_s), qPrintable(text.out()));
    }

    // A 3-node 2.10 cluster whose third server runs without JetStream: every server is up, MQTT set-up fails
    // with 10005, and check says why.
    void metaGroupLacksAServer()
    {
        NatsClusterFixture cluster(3);
        cluster.setJetStreamOff(2);
        QVERIFY2(cluster.start(u"2.10"_s, ServerConfig::standard()), qPrintable(cluster.errorString()));
        RawMqttSession s;
        QCOMPARE(s.connect(cluster.node(0).mqttPort(), "sensor-1", false), -1); // no CONNACK: the set-up failed
        QVERIFY2(cluster.node(0).waitForLog(QRegularExpression(u"no suitable peers for placement \\(10005\\)"_s), 10000),
                 qPrintable(cluster.node(0).logTail()));

        const CliRunner::Run run =
            check(systemArgs(cluster.node(0).url()) + QStringList{u"--user"_s, u"acme"_s, u"--password"_s, u"acmepass"_s});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, u"JETSTREAM_META_DEGRADED"_s);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), u"warning"_s);
        QVERIFY2(str(f, "title").contains(u"n3 (JetStream disabled)"_s), qPrintable(str(f, "title")));
        QVERIFY(str(f, "account").isEmpty());
        const QJsonArray explains = f.value(u"explains"_s).toArray();
        QVERIFY(explains.contains(u"create sessions stream for account %q: no suitable peers for placement (10005)"_s));
    }
};

QTEST_GUILESS_MAIN(TestUpgradeReadiness)
#include "tst_upgradereadiness.moc"
