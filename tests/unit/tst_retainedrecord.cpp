#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <cstring>

#include "mqtt/retainedrecord.h"
#include "mqtt/retainedrecordfast.h"
#include "mqtt/storedmessage.h"

#include "capturedrecords.h"

using namespace MqttDoctor;
using TestData::loadCapture;

namespace {

std::optional<RetainedRecord> capturedByTopic(const QString &version, const QString &topic)
{
    for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_rmsgs.json"))) {
        auto r = RetainedRecord::decode(m);
        if (r && r->topic == topic)
            return *r;
    }
    return std::nullopt;
}

} // namespace

class TestRetainedRecord : public QObject
{
    Q_OBJECT

private slots:
    // Real records of each version: encoding, storage subject, and byte-exact re-encoding.
    void captured_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<bool>("legacySubject");
        QTest::newRow("2.9.10") << QStringLiteral("2.9.10") << QStringLiteral("json") << true;
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27") << QStringLiteral("json") << false;
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1") << QStringLiteral("headers") << false;
    }
    void captured()
    {
        QFETCH(QString, version);
        QFETCH(QString, encoding);
        QFETCH(bool, legacySubject);
        const auto messages = loadCapture(version, QStringLiteral("MQTT_rmsgs.json"));
        QVERIFY(messages.size() >= 3);
        for (const StoredMessage &m : messages) {
            auto r = RetainedRecord::decode(m);
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            QCOMPARE(r->encodingName(), encoding);
            QCOMPARE(r->isOnLegacySubject(), legacySubject);
            QCOMPARE(r->storedSubject, m.subject);
            QCOMPARE(r->seq, m.seq);
            QVERIFY(r->retain());
            QVERIFY(!r->isDeleteMarker);
            QCOMPARE(r->origin, QStringLiteral("onglaOPN"));
            QCOMPARE(r->source, QStringLiteral("acme"));
            if (!legacySubject)
                QCOMPARE(r->subject, r->subjectFromStoredSubject());
            if (r->encoding == RetainedRecord::Encoding::Json) {
                QCOMPARE(r->encodeJson(), m.data); // byte-identical to what the server wrote
                QVERIFY(m.headers.isEmpty());
            } else {
                QCOMPARE(r->encodeHeaders().encode(), m.headers);
                QCOMPARE(r->payload, m.data);
            }
        }
    }

    void fields_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<int>("qos");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("preview");
        const QByteArray blob("\x00\x01\x02\xff\xfe\x80\x41", 7);
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            QTest::addRow("%s kitchen", v) << QString::fromLatin1(v) << QStringLiteral("sensors/kitchen/temp")
                                           << QStringLiteral("sensors.kitchen.temp") << 1 << QByteArray("21.5") << QStringLiteral("21.5");
            QTest::addRow("%s garage", v) << QString::fromLatin1(v) << QStringLiteral("sensors/garage/temp")
                                          << QStringLiteral("sensors.garage.temp") << 0 << QByteArray("9.0") << QStringLiteral("9.0");
            QTest::addRow("%s binary", v) << QString::fromLatin1(v) << QStringLiteral("blobs/raw") << QStringLiteral("blobs.raw") << 1
                                          << blob << QStringLiteral("hex: 00 01 02 ff fe 80 41");
        }
        for (const char *v : {"2.10.27", "2.15.1"}) {
            QTest::addRow("%s qos2", v) << QString::fromLatin1(v) << QStringLiteral("alerts/fire") << QStringLiteral("alerts.fire") << 2
                                        << QByteArray("fire!") << QStringLiteral("fire!");
            QTest::addRow("%s dotted", v) << QString::fromLatin1(v) << QStringLiteral("rooms/living.room/temp")
                                          << QStringLiteral("rooms.living//room.temp") << 1 << QByteArray("20") << QStringLiteral("20");
        }
    }
    void fields()
    {
        QFETCH(QString, version);
        QFETCH(QString, topic);
        QFETCH(QString, subject);
        QFETCH(int, qos);
        QFETCH(QByteArray, payload);
        QFETCH(QString, preview);
        auto r = capturedByTopic(version, topic);
        QVERIFY(r);
        QCOMPARE(r->subject, subject);
        QCOMPARE(r->qos(), qos);
        QCOMPARE(r->payload, payload);
        QCOMPARE(r->payloadPreview(), preview);
        QVERIFY(!r->dup());
    }

    // The cleared topic (empty retained PUBLISH) leaves no record in any captured version.
    void clearedTopicIsGone()
    {
        for (const char *v : {"2.10.27", "2.15.1"})
            QVERIFY(!capturedByTopic(QString::fromLatin1(v), QStringLiteral("gone/soon")));
    }

    // 2.11.12+/2.12.3+/2.14+: "Nmqtt-RFlags:-<hex>" and an empty body (the origin server
    // deletes the marker at once, so the captures hold none: built by hand).
    void deleteMarker()
    {
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.rmsgs.gone.soon");
        m.seq = 7;
        m.headers = QByteArrayLiteral(
            "NATS/1.0\r\nNmqtt-RTopic:gone/soon\r\nNmqtt-RFlags:-3\r\nNmqtt-ROrigin:onglaOPN\r\nNmqtt-RSource:acme\r\n\r\n");
        auto r = RetainedRecord::decode(m);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QVERIFY(r->isDeleteMarker);
        QCOMPARE(r->encoding, RetainedRecord::Encoding::Headers);
        QCOMPARE(r->topic, QStringLiteral("gone/soon"));
        QCOMPARE(r->subject, QStringLiteral("gone.soon"));
        QCOMPARE(r->qos(), 1);
        QVERIFY(r->payload.isEmpty());
        QCOMPARE(r->payloadPreview(), QString());
        QCOMPARE(r->encodeHeaders().encode(), m.headers);

        m.headers = QByteArrayLiteral("NATS/1.0\r\nNmqtt-RFlags:-1\r\n\r\n"); // marker without a topic header
        r = RetainedRecord::decode(m);
        QVERIFY(r.ok());
        QVERIFY(r->isDeleteMarker);
        QCOMPARE(r->subject, QStringLiteral("gone.soon"));
    }

    void jsonFallbackAndOptionalFields()
    {
        // No Nmqtt-RFlags: JSON even with other headers; omitted fields keep defaults.
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.rmsgs.a.b");
        m.headers = QByteArrayLiteral("NATS/1.0\r\nX-Other:1\r\n\r\n");
        m.data = QByteArrayLiteral("{\"topic\":\"a/b\"}");
        auto r = RetainedRecord::decode(m);
        QVERIFY(r.ok());
        QCOMPARE(r->encoding, RetainedRecord::Encoding::Json);
        QCOMPARE(r->subject, QStringLiteral("a.b")); // from the stored subject
        QCOMPARE(r->flags, quint8(0));
        QVERIFY(r->payload.isEmpty());
        QCOMPARE(RetainedRecord::decodeJson(QByteArrayLiteral("{\"subject\":\"a.b\",\"msg\":null,\"flags\":9}"))->dup(), true);
        // header form without optional origin/source
        NatsHeaders h;
        h.append(QStringLiteral("Nmqtt-RTopic"), QStringLiteral("a/b"));
        h.append(QStringLiteral("Nmqtt-RFlags"), QStringLiteral("b"));
        auto hr = RetainedRecord::decodeHeaders(h, QByteArrayLiteral("x"), QStringLiteral("$MQTT.rmsgs.a.b"));
        QVERIFY(hr.ok());
        QCOMPARE(hr->flags, quint8(0xb));
        QCOMPARE(hr->qos(), 1);
        QVERIFY(hr->dup());
        QCOMPARE(hr->encodeHeaders(), h);
    }

    void preview_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("preview");
        QTest::newRow("text") << QByteArray("hello") << 64 << QStringLiteral("hello");
        QTest::newRow("newlines") << QByteArray("a\nb\tc\\") << 64 << QStringLiteral("a\\nb\\tc\\\\");
        QTest::newRow("truncated") << QByteArray("abcdefghij") << 4 << QStringLiteral("abcd\u2026");
        QTest::newRow("utf-8") << QStringLiteral("21.5 \u00b0C").toUtf8() << 64 << QStringLiteral("21.5 \u00b0C");
        QTest::newRow("control char") << QByteArray("a\x01") << 64 << QStringLiteral("hex: 61 01");
        QTest::newRow("invalid utf-8") << QByteArray("\xc3\x28") << 64 << QStringLiteral("hex: c3 28");
        QTest::newRow("long binary") << QByteArray(100, '\0') << 12 << QStringLiteral("hex: 00 00 00 00\u2026");
        QTest::newRow("empty") << QByteArray() << 64 << QString();
    }
    void preview()
    {
        QFETCH(QByteArray, payload);
        QFETCH(int, max);
        QFETCH(QString, preview);
        RetainedRecord r;
        r.payload = payload;
        QCOMPARE(r.payloadPreview(max), preview);
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("reason");
        const QByteArray none;
        QTest::newRow("empty") << none << QByteArray() << QStringLiteral("empty record");
        QTest::newRow("truncated") << none << QByteArray("{\"origin\":\"onglaOPN\",\"subject\":\"sensors.kit")
                                   << QStringLiteral("invalid JSON");
        QTest::newRow("array") << none << QByteArray("[]") << QStringLiteral("expected a JSON object");
        QTest::newRow("no topic or subject") << none << QByteArray("{\"msg\":\"eA==\"}") << QStringLiteral("neither topic nor subject");
        QTest::newRow("topic number") << none << QByteArray("{\"topic\":1}") << QStringLiteral("field 'topic': expected a string");
        QTest::newRow("msg not base64") << none << QByteArray("{\"topic\":\"a\",\"msg\":\"***\"}")
                                        << QStringLiteral("field 'msg': invalid base64");
        QTest::newRow("msg number") << none << QByteArray("{\"topic\":\"a\",\"msg\":12}") << QStringLiteral("field 'msg'");
        QTest::newRow("flags huge") << none << QByteArray("{\"topic\":\"a\",\"flags\":1e99}")
                                    << QStringLiteral("field 'flags': expected an integer 0..255");
        QTest::newRow("flags 256") << none << QByteArray("{\"topic\":\"a\",\"flags\":256}") << QStringLiteral("field 'flags'");
        QTest::newRow("flags string") << none << QByteArray("{\"topic\":\"a\",\"flags\":\"3\"}") << QStringLiteral("field 'flags'");
        QTest::newRow("flags qos3") << none << QByteArray("{\"topic\":\"a\",\"flags\":7}") << QStringLiteral("QoS 3");
        QTest::newRow("invalid utf-8") << none << QByteArray("{\"topic\":\"\xff\"}") << QStringLiteral("invalid JSON");
        QTest::newRow("deeply nested") << none << (QByteArray(200000, '[') + QByteArray(200000, ']')) << QStringLiteral("invalid JSON");
        QTest::newRow("hdr flags not hex") << QByteArray("NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:zz\r\n\r\n") << QByteArray("x")
                                           << QStringLiteral("expected a hex byte");
        QTest::newRow("hdr flags empty") << QByteArray("NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:\r\n\r\n") << QByteArray("x")
                                         << QStringLiteral("expected a hex byte");
        QTest::newRow("hdr flags huge") << QByteArray("NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:ffffffffff\r\n\r\n") << QByteArray("x")
                                        << QStringLiteral("expected a hex byte");
        QTest::newRow("hdr flags qos3") << QByteArray("NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:7\r\n\r\n") << QByteArray("x")
                                        << QStringLiteral("QoS 3");
        QTest::newRow("hdr no topic") << QByteArray("NATS/1.0\r\nNmqtt-RFlags:3\r\n\r\n") << QByteArray("x")
                                      << QStringLiteral("Nmqtt-RTopic");
        QTest::newRow("marker with body") << QByteArray("NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:-3\r\n\r\n") << QByteArray("x")
                                          << QStringLiteral("delete marker with a non-empty body");
        QTest::newRow("garbage headers") << QByteArray("\x01\x02garbage") << QByteArray("{}") << QStringLiteral("NATS/1.0");
    }
    void malformed()
    {
        QFETCH(QByteArray, headers);
        QFETCH(QByteArray, body);
        QFETCH(QString, reason);
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.rmsgs.a");
        m.headers = headers;
        m.data = body;
        auto r = RetainedRecord::decode(m);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
        QVERIFY2(r.error().message().startsWith(QLatin1String("retained message: ")), qPrintable(r.error().message()));
        QVERIFY2(r.error().message().contains(reason), qPrintable(r.error().message()));
    }

    void encodeRoundTrip()
    {
        RetainedRecord r;
        r.origin = QStringLiteral("onglaOPN");
        r.subject = QStringLiteral("a.b");
        r.topic = QStringLiteral("a/b");
        r.payload = QByteArray("\x00<>&", 4);
        r.flags = 5;
        r.source = QStringLiteral("acme");
        auto j = RetainedRecord::decodeJson(r.encodeJson());
        QVERIFY(j.ok());
        QCOMPARE(*j, r);
        RetainedRecord h = r;
        h.encoding = RetainedRecord::Encoding::Headers;
        h.storedSubject = QStringLiteral("$MQTT.rmsgs.a.b");
        auto hh = RetainedRecord::decodeHeaders(h.encodeHeaders(), h.payload, h.storedSubject);
        QVERIFY(hh.ok());
        QCOMPARE(*hh, h);
    }

    // Random mutations of real records (fixed seed): every input gives a record or a decode error.
    void fuzzMutations()
    {
        QRandomGenerator rng(4242);
        QList<StoredMessage> corpus;
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            for (const char *f : {"MQTT_rmsgs.json"}) {
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
            auto r = RetainedRecord::decode(m);
            (r.ok() ? ok : failed)++;
            if (!r.ok())
                QVERIFY(!r.error().message().isEmpty());
        }
        QVERIFY(failed > 0);
        qInfo("mutations: %d decoded, %d decode errors", ok, failed);
    }

    // --- the fast decoder (RetainedRecordFast) against the reference decoder ---

    // Real records of every version take the fast path and give exactly the reference record.
    void fastPathOnCapturedRecords()
    {
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            for (const StoredMessage &m : loadCapture(QString::fromLatin1(v), QStringLiteral("MQTT_rmsgs.json"))) {
                QVERIFY2(RetainedRecordFast::decode(m).has_value(), m.data.constData());
                compareDecoders(m);
            }
        }
    }

    void fastMatchesReference_data()
    {
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<QByteArray>("body");
        const QByteArray none;
        const QByteArray hdr("NATS/1.0\r\nNmqtt-RTopic:a/b\r\nNmqtt-RFlags:3\r\nNmqtt-ROrigin:o\r\nNmqtt-RSource:acme\r\n\r\n");
        auto add = [](const char *name, const QByteArray &h, const QByteArray &b) { QTest::newRow(name) << h << b; };
        add("headers", hdr, "21.5");
        add("headers spaced (nats.c)", "NATS/1.0\r\nNmqtt-RTopic: a/b \r\nNmqtt-RFlags: 3\r\n\r\n", "x");
        add("headers lower-case key", "NATS/1.0\r\nnmqtt-rtopic:a\r\nNmqtt-RFlags:3\r\n\r\n", "x");
        add("headers other key", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:3\r\nX:y\r\n\r\n", "x");
        add("headers repeated key", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RTopic:b\r\nNmqtt-RFlags:3\r\n\r\n", "x");
        add("headers utf-8 topic", "NATS/1.0\r\nNmqtt-RTopic:caf\xc3\xa9\r\nNmqtt-RFlags:3\r\n\r\n", "x");
        add("headers invalid utf-8 topic", "NATS/1.0\r\nNmqtt-RTopic:\xff\r\nNmqtt-RFlags:3\r\n\r\n", "x");
        add("headers upper hex", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:0B\r\n\r\n", "x");
        add("headers 0x", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:0x3\r\n\r\n", "x");
        add("delete marker", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:-3\r\n\r\n", "");
        add("delete marker without topic", "NATS/1.0\r\nNmqtt-RFlags:-1\r\n\r\n", "");
        add("marker with body", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:-3\r\n\r\n", "x");
        add("no blank line", "NATS/1.0\r\nNmqtt-RTopic:a\r\nNmqtt-RFlags:3\r\n", "x");
        add("bare LF", "NATS/1.0\nNmqtt-RTopic:a\nNmqtt-RFlags:3\n\n", "x");
        add("empty block, json body", "NATS/1.0\r\n\r\n", "{\"topic\":\"a\"}");
        add("topic header without flags", "NATS/1.0\r\nNmqtt-RTopic:a\r\n\r\n", "{\"topic\":\"b\"}");
        add("json", none, "{\"origin\":\"o\",\"subject\":\"a.b\",\"topic\":\"a/b\",\"msg\":\"MjEuNQ==\",\"flags\":3,\"source\":\"acme\"}");
        add("json escapes", none, "{\"topic\":\"a\\u002fb\\u003e\",\"subject\":\"a.\\u003e\"}");
        add("json unknown field", none, "{\"topic\":\"a\",\"later\":{\"x\":[1,true,null]}}");
        add("json repeated field", none, "{\"topic\":\"a\",\"topic\":\"b\"}");
        add("json null", none, "{\"topic\":\"a\",\"origin\":null}");
        add("json msg escaped", none, "{\"topic\":\"a\",\"msg\":\"MjE\\u0075NQ==\"}");
        add("json msg bad base64", none, "{\"topic\":\"a\",\"msg\":\"M*==\"}");
        add("json msg unpadded", none, "{\"topic\":\"a\",\"msg\":\"MjE\"}");
        add("json flags 255", none, "{\"topic\":\"a\",\"flags\":255}");
        add("json flags 1.0", none, "{\"topic\":\"a\",\"flags\":1.0}");
        add("json flags -0", none, "{\"topic\":\"a\",\"flags\":-0}");
        add("json only subject", none, "{\"subject\":\"a.b\"}");
        add("json empty object", none, "{}");
        add("json trailing", none, "{\"topic\":\"a\"} x");
        add("json empty", none, "");
    }
    void fastMatchesReference()
    {
        QFETCH(QByteArray, headers);
        QFETCH(QByteArray, body);
        for (const QString &subject : {QStringLiteral("$MQTT.rmsgs.a.b"), QStringLiteral("$MQTT.rmsgs")}) {
            StoredMessage m;
            m.subject = subject;
            m.seq = 4;
            m.headers = headers;
            m.data = body;
            compareDecoders(m);
        }
    }

    // The payload's base64 text: canonical text of every length 0..40 is decoded by the fast path itself
    // (the payload's bytes back); text that is not canonical (no or extra padding, '=' or a foreign
    // byte anywhere, bits after the last byte, escapes, empty) gives what the reference decoder gives.
    void fastMatchesReferenceBase64()
    {
        QRandomGenerator rng(64);
        auto message = [](const QByteArray &msg) {
            StoredMessage m;
            m.subject = QStringLiteral("$MQTT.rmsgs");
            m.seq = 5;
            m.data = "{\"topic\":\"a/b\",\"msg\":\"" + msg + "\",\"flags\":1}";
            return m;
        };
        static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int n = 0; n <= 40; ++n) {
            QByteArray payload(n, Qt::Uninitialized);
            for (char &c : payload)
                c = char(rng.bounded(256));
            if (n == 3)
                payload = "\xfb\xff\xbf"; // "+/+/": both alphabet ends
            const QByteArray text = payload.toBase64();
            const auto fast = RetainedRecordFast::decode(message(text));
            QVERIFY2(fast.has_value(), text.constData());
            QCOMPARE(fast->payload, payload);
            compareDecoders(message(text));
            const qsizetype pad = text.size() - QByteArray(text).replace('=', "").size();
            QList<QByteArray> variants = {text + '=',
                                          text + "==",
                                          text + "A",
                                          text + "AAAA",
                                          QByteArray(text).replace('=', ""),
                                          text.chopped(std::min<qsizetype>(1, text.size())),
                                          ' ' + text,
                                          text + ' '};
            if (pad > 0) { // non-zero bits after the last byte
                QByteArray bits = text;
                const qsizetype at = text.size() - pad - 1;
                bits[at] = kAlphabet[(std::strchr(kAlphabet, bits[at]) - kAlphabet) ^ 1];
                variants << bits;
            }
            for (qsizetype i = 0; i < text.size(); ++i) {
                for (const char *replacement : {"=", "-", "_", "*", "\\u0041", "\\/", "\x80"}) {
                    QByteArray other = text;
                    other.replace(i, 1, replacement);
                    variants << other;
                }
            }
            for (const QByteArray &variant : std::as_const(variants))
                compareDecoders(message(variant));
            if (QTest::currentTestFailed())
                return;
        }
        for (const char *text : {"", "QQ==", "QR==", "QUI=", "QUJ=", "QUJ", "Q===", "====", "=QQQ", "QQ=Q", "QQ=", "QQ===", "QUJD",
                                 "QUJDRA==", "QUJDRA=", "QUJDRA", "QUJDRB==", "QU JD", "QUJD\\nRA=="}) {
            compareDecoders(message(text));
            QVERIFY2(RetainedRecordFast::decode(message(text)).has_value() == RetainedRecord::decodeReference(message(text)).ok(),
                     text); // canonical or not, the fast path decides whatever it can take
        }
    }

    // Flags of one to four digits, inside and outside a byte: the fast path and the reference agree.
    void fastMatchesReferenceFlags()
    {
        for (const char *flags : {"0",   "1",   "2",   "3",   "6",   "7",   "9",    "10",  "11", "99", "100",
                                  "127", "199", "254", "255", "256", "999", "1000", "007", "-1", "1e1"}) {
            StoredMessage m;
            m.subject = QStringLiteral("$MQTT.rmsgs.a.b");
            m.seq = 6;
            m.data = QByteArray("{\"topic\":\"a/b\",\"flags\":") + flags + "}";
            compareDecoders(m);
        }
    }

    void fastMatchesReferenceMutated()
    {
        QRandomGenerator rng(99);
        QList<StoredMessage> corpus;
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"})
            corpus += loadCapture(QString::fromLatin1(v), QStringLiteral("MQTT_rmsgs.json"));
        for (int i = 0; i < 3000; ++i) {
            StoredMessage m = corpus.at(rng.bounded(int(corpus.size())));
            QByteArray &target = (!m.headers.isEmpty() && rng.bounded(2) == 0) ? m.headers : m.data;
            for (int e = 1 + rng.bounded(3); e > 0 && !target.isEmpty(); --e) {
                const int pos = rng.bounded(int(target.size()));
                switch (rng.bounded(3)) {
                case 0: target[pos] = "{}[]:,\"\\u0123456789abf-.=+/\r\n \xc3\xff"[rng.bounded(30)]; break;
                case 1: target.remove(pos, 1 + rng.bounded(4)); break;
                default: target.insert(pos, char(rng.bounded(256))); break;
                }
            }
            compareDecoders(m);
            if (QTest::currentTestFailed())
                return;
        }
    }

private:
    static void compareDecoders(const StoredMessage &m)
    {
        const auto fast = RetainedRecord::decode(m);
        const auto reference = RetainedRecord::decodeReference(m);
        QCOMPARE(fast.ok(), reference.ok());
        if (!fast.ok()) {
            QCOMPARE(fast.error().message(), reference.error().message());
            return;
        }
        QCOMPARE(*fast, *reference);
    }

    // Sparkplug B birth certificates, which 2.11+ servers retain under $sparkplug/certificates/.
    void sparkplugBirths_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("description");
        QTest::newRow("NBIRTH") << QStringLiteral("$sparkplug/certificates/spBv1.0/plant1/NBIRTH/gw7")
                                << QStringLiteral("Sparkplug B NBIRTH certificate: group plant1, edge node gw7");
        QTest::newRow("DBIRTH") << QStringLiteral("$sparkplug/certificates/spBv1.0/plant1/DBIRTH/gw7/press3")
                                << QStringLiteral("Sparkplug B DBIRTH certificate: group plant1, edge node gw7, device press3");
        QTest::newRow("plain Sparkplug topic") << QStringLiteral("spBv1.0/plant1/NBIRTH/gw7") << QString();
        QTest::newRow("NBIRTH with a device") << QStringLiteral("$sparkplug/certificates/spBv1.0/plant1/NBIRTH/gw7/x") << QString();
        QTest::newRow("DBIRTH without a device") << QStringLiteral("$sparkplug/certificates/spBv1.0/plant1/DBIRTH/gw7") << QString();
        QTest::newRow("NDATA") << QStringLiteral("$sparkplug/certificates/spBv1.0/plant1/NDATA/gw7") << QString();
        QTest::newRow("empty group") << QStringLiteral("$sparkplug/certificates/spBv1.0//NBIRTH/gw7") << QString();
    }
    void sparkplugBirths()
    {
        QFETCH(QString, topic);
        QFETCH(QString, description);
        RetainedRecord r;
        r.topic = topic;
        const auto birth = r.sparkplugBirth();
        QCOMPARE(birth.has_value(), !description.isEmpty());
        if (birth)
            QCOMPARE(birth->description(), description);
    }
};

QTEST_GUILESS_MAIN(TestRetainedRecord)
#include "tst_retainedrecord.moc"
