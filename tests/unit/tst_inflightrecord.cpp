#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include "mqtt/clientidhash.h"
#include "mqtt/inflightrecord.h"
#include "nats/natsheaders.h"
#include "mqtt/storedmessage.h"

#include "capturedrecords.h"

using namespace MqttDoctor;
using TestData::loadCapture;

Q_DECLARE_METATYPE(InflightRecord::Kind)

class TestInflightRecord : public QObject
{
    Q_OBJECT

private slots:
    // entries() of a temporary header set is the list itself, so a range-for over it does not read
    // a destroyed object (ASan found that in tst_backup and tst_repairstreams).
    void entriesOfTemporary()
    {
        const QByteArray block("NATS/1.0\r\nNmqtt-Pub:1\r\nNats-Msg-Id:abc\r\n\r\n");
        QStringList seen;
        for (const auto &[k, v] : NatsHeaders::parse(block).value().entries())
            seen << k + QLatin1Char('=') + v;
        QCOMPARE(seen, QStringList({QStringLiteral("Nmqtt-Pub=1"), QStringLiteral("Nats-Msg-Id=abc")}));
    }

    // Every captured record decodes to its kind and re-encodes to the same header block.
    void capturedRoundTrip_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("file");
        QTest::addColumn<InflightRecord::Kind>("kind");
        QTest::newRow("2.9.10 msgs") << QStringLiteral("2.9.10") << QStringLiteral("MQTT_msgs.json") << InflightRecord::Kind::MessageCopy;
        for (const char *v : {"2.10.27", "2.15.1"}) {
            QTest::addRow("%s msgs", v) << QString::fromLatin1(v) << QStringLiteral("MQTT_msgs.json") << InflightRecord::Kind::MessageCopy;
            QTest::addRow("%s qos2in", v) << QString::fromLatin1(v) << QStringLiteral("MQTT_qos2in.json")
                                          << InflightRecord::Kind::Qos2Incoming;
            QTest::addRow("%s out", v) << QString::fromLatin1(v) << QStringLiteral("MQTT_out.json") << InflightRecord::Kind::PubRel;
        }
    }
    void capturedRoundTrip()
    {
        QFETCH(QString, version);
        QFETCH(QString, file);
        QFETCH(InflightRecord::Kind, kind);
        const auto messages = loadCapture(version, file);
        QVERIFY(!messages.isEmpty());
        for (const StoredMessage &m : messages) {
            auto r = InflightRecord::decode(m);
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            QCOMPARE(r->kind, kind);
            QCOMPARE(r->storedSubject, m.subject);
            QCOMPARE(r->seq, m.seq);
            QCOMPARE(r->payload, m.data);
            QCOMPARE(r->encodeHeaders().encode(), m.headers);
        }
    }

    void messageCopies_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("natsSubject");
        QTest::addColumn<int>("qos");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("otherHeaders");
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            QTest::addRow("%s kitchen", v) << QString::fromLatin1(v) << QStringLiteral("sensors.kitchen.temp") << 1 << QByteArray("21.5")
                                           << QString();
            QTest::addRow("%s smoke", v) << QString::fromLatin1(v) << QStringLiteral("alerts.smoke") << 1 << QByteArray("smoke!")
                                         << QString();
        }
        QTest::newRow("2.10.27 fire") << QStringLiteral("2.10.27") << QStringLiteral("alerts.fire") << 2 << QByteArray("fire!")
                                      << QString();
        // 2.15 adds a Nats-Msg-Id (the QoS2 publisher's dedup id) to the copy
        QTest::newRow("2.15.1 fire") << QStringLiteral("2.15.1") << QStringLiteral("alerts.fire") << 2 << QByteArray("fire!")
                                     << QStringLiteral("Nats-Msg-Id");
        QTest::newRow("2.15.1 dotted") << QStringLiteral("2.15.1") << QStringLiteral("rooms.living//room.temp") << 1 << QByteArray("20")
                                       << QString();
    }
    void messageCopies()
    {
        QFETCH(QString, version);
        QFETCH(QString, natsSubject);
        QFETCH(int, qos);
        QFETCH(QByteArray, payload);
        QFETCH(QString, otherHeaders);
        bool found = false;
        for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_msgs.json"))) {
            auto r = InflightRecord::decode(m);
            QVERIFY(r.ok());
            if (r->natsSubject != natsSubject)
                continue;
            found = true;
            QCOMPARE(r->qos, qos);
            QCOMPARE(r->payload, payload);
            QVERIFY(!r->flags);
            QCOMPARE(r->kindName(), QStringLiteral("message copy"));
            if (otherHeaders.isEmpty())
                QVERIFY(r->otherHeaders.isEmpty());
            else
                QVERIFY(r->otherHeaders.contains(otherHeaders));
        }
        QVERIFY(found);
    }

    // QoS2 PUBLISH left before PUBREL: raw client ID (dots included) and packet id from the subject;
    // 2.15 adds the flags nibble to Nmqtt-Pub ("24", "25" = retained).
    void qos2Incoming_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<int>("packetId");
        QTest::addColumn<QString>("natsSubject");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("flags"); // -1: none
        QTest::newRow("2.10.27 dotted client") << QStringLiteral("2.10.27") << QStringLiteral("q2pub.half") << 7
                                               << QStringLiteral("sensors.hall.temp") << QByteArray("19.5") << -1;
        QTest::newRow("2.10.27 retained") << QStringLiteral("2.10.27") << QStringLiteral("q2pub-b") << 9 << QStringLiteral("alerts.flood")
                                          << QByteArray("water") << -1;
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1") << QStringLiteral("q2pub-half") << 7 << QStringLiteral("sensors.hall.temp")
                                << QByteArray("19.5") << 4;
        QTest::newRow("2.15.1 retained") << QStringLiteral("2.15.1") << QStringLiteral("q2pub-b") << 9 << QStringLiteral("alerts.flood")
                                         << QByteArray("water") << 5;
    }
    void qos2Incoming()
    {
        QFETCH(QString, version);
        QFETCH(QString, clientId);
        QFETCH(int, packetId);
        QFETCH(QString, natsSubject);
        QFETCH(QByteArray, payload);
        QFETCH(int, flags);
        bool found = false;
        for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_qos2in.json"))) {
            auto r = InflightRecord::decode(m);
            QVERIFY(r.ok());
            if (r->clientId != clientId)
                continue;
            found = true;
            QCOMPARE(r->qos, 2);
            QCOMPARE(r->packetId, packetId);
            QCOMPARE(r->natsSubject, natsSubject);
            QCOMPARE(r->payload, payload);
            QCOMPARE(r->flags.has_value(), flags >= 0);
            if (flags >= 0) {
                QCOMPARE(int(*r->flags), flags);
                QCOMPARE(r->retain(), (flags & 1) != 0);
            }
            QVERIFY(r->mappedSubject.isEmpty());
        }
        QVERIFY(found);
    }

    void pubRel_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27");
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1");
    }
    void pubRel()
    {
        QFETCH(QString, version);
        const auto messages = loadCapture(version, QStringLiteral("MQTT_out.json"));
        QCOMPARE(messages.size(), 1);
        auto r = InflightRecord::decode(messages.first());
        QVERIFY(r.ok());
        QCOMPARE(r->kind, InflightRecord::Kind::PubRel);
        QCOMPARE(r->clientIdHash, ClientIdHash::hash(QStringLiteral("q2sub-1")));
        QCOMPARE(r->packetId, 1);
        QVERIFY(r->payload.isEmpty());
    }

    void mapped()
    {
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.qos2.in.c1.65535");
        m.headers = QByteArrayLiteral("NATS/1.0\r\nNmqtt-Pub:2\r\nNmqtt-Subject:foo.bar\r\nNmqtt-Mapped:mapped.bar\r\n\r\n");
        m.data = QByteArrayLiteral("x");
        auto r = InflightRecord::decode(m);
        QVERIFY(r.ok());
        QCOMPARE(r->mappedSubject, QStringLiteral("mapped.bar"));
        QCOMPARE(r->packetId, 65535);
        QCOMPARE(r->encodeHeaders().encode(), m.headers);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<QString>("reason");
        const QByteArray pub1("NATS/1.0\r\nNmqtt-Pub:1\r\n\r\n");
        QTest::newRow("unknown subject") << QStringLiteral("foo.bar") << pub1 << QStringLiteral("is not under $MQTT.msgs.");
        QTest::newRow("empty subject") << QString() << pub1 << QStringLiteral("is not under");
        QTest::newRow("no headers") << QStringLiteral("$MQTT.msgs.a") << QByteArray() << QStringLiteral("missing header block");
        QTest::newRow("garbage headers") << QStringLiteral("$MQTT.msgs.a") << QByteArray("\x01\x02\x03") << QStringLiteral("NATS/1.0");
        QTest::newRow("no Nmqtt-Pub") << QStringLiteral("$MQTT.msgs.a") << QByteArray("NATS/1.0\r\nFoo:1\r\n\r\n")
                                      << QStringLiteral("'Nmqtt-Pub': missing");
        QTest::newRow("qos 3") << QStringLiteral("$MQTT.msgs.a") << QByteArray("NATS/1.0\r\nNmqtt-Pub:3\r\n\r\n")
                               << QStringLiteral("is not 0, 1 or 2");
        QTest::newRow("qos long") << QStringLiteral("$MQTT.msgs.a") << QByteArray("NATS/1.0\r\nNmqtt-Pub:1234567890\r\n\r\n")
                                  << QStringLiteral("expected a QoS digit");
        QTest::newRow("qos empty") << QStringLiteral("$MQTT.msgs.a") << QByteArray("NATS/1.0\r\nNmqtt-Pub:\r\n\r\n")
                                   << QStringLiteral("expected a QoS digit");
        QTest::newRow("flags not hex") << QStringLiteral("$MQTT.qos2.in.c.1")
                                       << QByteArray("NATS/1.0\r\nNmqtt-Pub:2z\r\nNmqtt-Subject:a\r\n\r\n") << QStringLiteral("not hex");
        QTest::newRow("msgs no subject") << QStringLiteral("$MQTT.msgs.") << pub1 << QStringLiteral("no subject after");
        QTest::newRow("qos2 no Nmqtt-Subject") << QStringLiteral("$MQTT.qos2.in.c.1") << QByteArray("NATS/1.0\r\nNmqtt-Pub:2\r\n\r\n")
                                               << QStringLiteral("Nmqtt-Subject");
        QTest::newRow("qos2 no pi") << QStringLiteral("$MQTT.qos2.in.c") << QByteArray("NATS/1.0\r\nNmqtt-Pub:2\r\nNmqtt-Subject:a\r\n\r\n")
                                    << QStringLiteral("<client ID>.<packet id>");
        QTest::newRow("qos2 pi 0") << QStringLiteral("$MQTT.qos2.in.c.0")
                                   << QByteArray("NATS/1.0\r\nNmqtt-Pub:2\r\nNmqtt-Subject:a\r\n\r\n") << QStringLiteral("not 1..65535");
        QTest::newRow("qos2 pi huge") << QStringLiteral("$MQTT.qos2.in.c.99999999999999999999")
                                      << QByteArray("NATS/1.0\r\nNmqtt-Pub:2\r\nNmqtt-Subject:a\r\n\r\n") << QStringLiteral("not 1..65535");
        QTest::newRow("pubrel bad hash") << QStringLiteral("$MQTT.out.pubrel.short") << QByteArray("NATS/1.0\r\nNmqtt-PubRel:1\r\n\r\n")
                                         << QStringLiteral("8-character client ID hash");
        QTest::newRow("pubrel missing") << QStringLiteral("$MQTT.out.pubrel.Mh0qIKOb") << QByteArray("NATS/1.0\r\nFoo:1\r\n\r\n")
                                        << QStringLiteral("'Nmqtt-PubRel': missing");
        QTest::newRow("pubrel not number") << QStringLiteral("$MQTT.out.pubrel.Mh0qIKOb")
                                           << QByteArray("NATS/1.0\r\nNmqtt-PubRel:abc\r\n\r\n") << QStringLiteral("not 1..65535");
        QTest::newRow("pubrel 70000") << QStringLiteral("$MQTT.out.pubrel.Mh0qIKOb") << QByteArray("NATS/1.0\r\nNmqtt-PubRel:70000\r\n\r\n")
                                      << QStringLiteral("not 1..65535");
        QTest::newRow("huge header block") << QStringLiteral("$MQTT.msgs.a")
                                           << (QByteArray("NATS/1.0\r\nX:") + QByteArray(2 * 1024 * 1024, 'x') + "\r\n\r\n")
                                           << QStringLiteral("larger than 1 MiB");
    }
    void malformed()
    {
        QFETCH(QString, subject);
        QFETCH(QByteArray, headers);
        QFETCH(QString, reason);
        StoredMessage m;
        m.subject = subject;
        m.headers = headers;
        m.data = QByteArrayLiteral("payload");
        auto r = InflightRecord::decode(m);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
        QVERIFY2(r.error().message().contains(reason), qPrintable(r.error().message()));
    }

    // StoredMessage::fromJson: the MSG.GET reply forms.
    void storedMessageFromJson()
    {
        const QJsonObject reply =
            QJsonDocument::fromJson(
                "{\"type\":\"io.nats.jetstream.api.v1.stream_msg_get_response\",\"message\":{\"subject\":\"$MQTT.sess.kBmSuDPK\",\"seq\":2,"
                "\"hdrs\":\"TkFUUy8xLjANCk5hdHMtRXhwZWN0ZWQtTGFzdC1TdWJqZWN0LVNlcXVlbmNlOjENCg0K\",\"data\":\"e30=\",\"time\":\"2026-12-02T15:50:37Z\"}}")
                .object();
        auto m = StoredMessage::fromJson(reply);
        QVERIFY(m.ok());
        QCOMPARE(m->subject, QStringLiteral("$MQTT.sess.kBmSuDPK"));
        QCOMPARE(m->seq, quint64(2));
        QCOMPARE(m->headers, QByteArrayLiteral("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:1\r\n\r\n"));
        QCOMPARE(m->data, QByteArrayLiteral("{}"));
        auto h = NatsHeaders::parse(m->headers);
        QVERIFY(h.ok());
        QCOMPARE(h->value(QStringLiteral("nats-expected-last-subject-sequence")), QStringLiteral("1"));

        auto notFound = StoredMessage::fromJson(
            QJsonDocument::fromJson("{\"type\":\"x\",\"error\":{\"code\":404,\"err_code\":10037,\"description\":\"no message found\"}}")
                .object());
        QVERIFY(!notFound.ok());
        QCOMPARE(notFound.error().jsErrCode(), 10037);
        QVERIFY(!StoredMessage::fromJson(QJsonObject{{QStringLiteral("subject"), 5}}).ok());
        QVERIFY(!StoredMessage::fromJson(
                     QJsonObject{{QStringLiteral("subject"), QStringLiteral("a")}, {QStringLiteral("data"), QStringLiteral("!!")}})
                     .ok());
        QVERIFY(!StoredMessage::fromJson(QJsonObject{{QStringLiteral("subject"), QStringLiteral("a")}, {QStringLiteral("seq"), -1}}).ok());
        QVERIFY(!StoredMessage::fromJson(QJsonObject{}).ok());
    }

    void headerBlocks()
    {
        auto h = NatsHeaders::parse(QByteArrayLiteral("NATS/1.0\r\n\r\n\r\n")); // what 2.9.10+ store for a first save
        QVERIFY(h.ok());
        QVERIFY(h->isEmpty());
        h = NatsHeaders::parse(QByteArrayLiteral("NATS/1.0 503\r\n\r\n"));
        QVERIFY(h.ok());
        QCOMPARE(h->status(), 503);
        h = NatsHeaders::parse(QByteArrayLiteral("NATS/1.0\nA: 1\nA:2\n\n"));
        QVERIFY(h.ok());
        QCOMPARE(h->values(QStringLiteral("a")), (QStringList{QStringLiteral("1"), QStringLiteral("2")}));
        QVERIFY(!NatsHeaders::parse(QByteArrayLiteral("NATS/1.0 abc\r\n\r\n")).ok());
        QVERIFY(!NatsHeaders::parse(QByteArrayLiteral("NATS/1.0\r\n:v\r\n\r\n")).ok());
        QVERIFY(NatsHeaders::parse(QByteArray()).ok());
    }

    // Random mutations of real records (fixed seed): every input gives a record or a decode error.
    void fuzzMutations()
    {
        QRandomGenerator rng(4242);
        QList<StoredMessage> corpus;
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            for (const char *f : {"MQTT_msgs.json", "MQTT_qos2in.json", "MQTT_out.json"}) {
                if (QFile::exists(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/records/")
                                  + QLatin1String(v) + QLatin1Char('/') + QLatin1String(f)))
                    corpus += loadCapture(QString::fromLatin1(v), QString::fromLatin1(f));
            }
        }
        QVERIFY(!corpus.isEmpty());
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < 3000; ++i) {
            StoredMessage m = corpus.at(rng.bounded(int(corpus.size())));
            QByteArray &target = rng.bounded(4) == 0 ? m.headers : m.data;
            const int edits = 1 + rng.bounded(4);
            for (int e = 0; e < edits && !target.isEmpty(); ++e) {
                const int pos = rng.bounded(int(target.size()));
                switch (rng.bounded(4)) {
                case 0: target[pos] = char(rng.bounded(256)); break;
                case 1: target.remove(pos, 1 + rng.bounded(8)); break;
                case 2: target.insert(pos, char(rng.bounded(256))); break;
                default: target.truncate(pos); break;
                }
            }
            auto r = InflightRecord::decode(m);
            (r.ok() ? ok : failed)++;
            if (!r.ok())
                QVERIFY(!r.error().message().isEmpty());
        }
        QVERIFY(failed > 0);
        qInfo("mutations: %d decoded, %d decode errors", ok, failed);
    }
};

QTEST_GUILESS_MAIN(TestInflightRecord)
#include "tst_inflightrecord.moc"
