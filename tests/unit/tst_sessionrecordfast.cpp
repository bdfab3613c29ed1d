// The fast session record decoder (SessionRecordFast) against the reference decoder (QJsonDocument),
// and the compact consumer configs it produces: real records of every version, unusual and malformed
// input, random mutations.
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

#include "mqtt/clientidhash.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/sessionrecordfast.h"
#include "mqtt/storedmessage.h"

#include "capturedrecords.h"

using namespace MqttDoctor;
using TestData::loadCapture;

namespace {
const auto &kVersions = TestData::kRecordVersions;
} // namespace

class TestSessionRecordFast : public QObject
{
    Q_OBJECT

private slots:
    // Real records take the fast path (no QJsonDocument) and give exactly the reference record.
    void fastPathOnCapturedRecords()
    {
        for (const char *v : kVersions) {
            for (const char *f : {"MQTT_sess.json", "MQTT_sess.after.json"}) {
                for (const StoredMessage &m : loadCapture(QString::fromLatin1(v), QString::fromLatin1(f))) {
                    QVERIFY2(SessionRecordFast::decodeBody(m.data).has_value(), m.data.constData());
                    SessionRecord::HeaderForm form;
                    std::optional<quint64> seq;
                    QVERIFY2(SessionRecordFast::headerForm(m.headers, form, seq), m.headers.constData());
                    compareDecoders(m);
                }
            }
        }
    }

    // Unusual and malformed bodies and header blocks: both decoders agree (record or error message).
    void fastMatchesReference_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("headers");
        const QByteArray cfg =
            QByteArrayLiteral("{\"durable_name\":\"h_1\",\"deliver_policy\":\"new\",\"ack_policy\":\"explicit\","
                              "\"ack_wait\":30000000000,\"filter_subject\":\"$MQTT.msgs.a.\\u003e\",\"num_replicas\":0}");
        const QByteArray expected = QByteArrayLiteral("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:7\r\n\r\n");
        auto add = [&](const char *name, const QByteArray &body, const QByteArray &headers = QByteArray()) {
            QTest::newRow(name) << body << headers;
        };
        add("empty object", "{}");
        add("whitespace", " \r\n{ \"id\" : \"a\" ,\t\"clean\" : true } \n");
        add("typical", "{\"origin\":\"o\",\"id\":\"c1\",\"subs\":{\"a.\\u003e\":1},\"cons\":{\"a.\\u003e\":" + cfg + "}}", expected);
        add("pubrel", "{\"id\":\"c1\",\"pubrel\":" + cfg + "}", QByteArrayLiteral("NATS/1.0\r\n\r\n\r\n"));
        add("escapes", "{\"id\":\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\u2028\"}");
        add("escaped key", "{\"i\\u0064\":\"a\"}");
        add("escaped control", "{\"id\":\"a\\u0001\"}");
        add("surrogate pair", "{\"id\":\"\\ud83d\\ude00\"}");
        add("lone surrogate", "{\"id\":\"\\ud83d\"}");
        add("utf-8 id", "{\"id\":\"caf\xc3\xa9\"}");
        add("invalid utf-8", "{\"id\":\"\xff\"}");
        add("DEL", "{\"id\":\"a\x7f\"}");
        add("raw control", "{\"id\":\"a\x01\"}");
        add("duplicate field", "{\"id\":\"a\",\"id\":\"b\"}");
        add("duplicate sub", "{\"subs\":{\"a\":1,\"a\":2}}");
        add("duplicate consumer", "{\"cons\":{\"a\":{},\"a\":{\"durable_name\":\"x\"}}}");
        add("duplicate config key", "{\"cons\":{\"a\":{\"durable_name\":\"x\",\"durable_name\":\"y\"}}}");
        add("duplicate config key apart", "{\"cons\":{\"a\":{\"ack_wait\":1,\"durable_name\":\"x\",\"x\":1,\"ack_wait\":2}}}");
        add("duplicate config key once null", "{\"cons\":{\"a\":{\"ack_wait\":null,\"ack_wait\":2}}}");
        add("duplicate unknown config key", "{\"cons\":{\"a\":{\"metadata\":{},\"durable_name\":\"x\",\"metadata\":{}}}}");
        add("unknown keys like known ones", "{\"cons\":{\"a\":{\"ack_wai\":\"s\",\"ack_waitt\":[],\"Ack_wait\":true,\"ack_wait\":5}}}");
        add("every known config key",
            "{\"cons\":{\"a\":{\"durable_name\":\"d\",\"name\":\"d\",\"description\":\"\",\"filter_subject\":\"f\","
            "\"deliver_subject\":\"s\",\"deliver_group\":\"g\",\"sample_freq\":\"1%\",\"opt_start_time\":\"t\",\"deliver_policy\":\"all\","
            "\"ack_policy\":\"none\",\"replay_policy\":\"original\",\"ack_wait\":1,\"max_deliver\":-1,\"max_waiting\":0,"
            "\"max_ack_pending\":1,\"idle_heartbeat\":0,\"max_batch\":0,\"max_expires\":0,\"max_bytes\":0,\"inactive_threshold\":0,"
            "\"num_replicas\":0,\"opt_start_seq\":0,\"rate_limit_bps\":0,\"flow_control\":false,\"headers_only\":true,"
            "\"mem_storage\":false,\"direct\":false}}}");
        add("null fields", "{\"origin\":null,\"id\":\"a\",\"cons\":{\"a\":null},\"pubrel\":null}");
        add("null config values", "{\"cons\":{\"a\":{\"durable_name\":null,\"ack_wait\":null,\"mem_storage\":null}}}");
        add("unknown field", "{\"id\":\"a\",\"future\":[1,{\"k\":true}]}");
        add("unknown config fields", "{\"cons\":{\"a\":{\"metadata\":{\"k\":\"v\"},\"backoff\":[1,2],\"x\":null}}}");
        add("qos forms", "{\"subs\":{\"a\":1.0,\"b\":0,\"c\":2}}");
        add("qos 3", "{\"subs\":{\"a\":3}}");
        add("qos leading zero", "{\"subs\":{\"a\":01}}");
        add("qos exponent", "{\"subs\":{\"a\":1e0}}");
        add("huge ack_wait", "{\"cons\":{\"a\":{\"ack_wait\":123456789012345678901234567890}}}");
        add("max int64", "{\"cons\":{\"a\":{\"ack_wait\":9223372036854775807}}}");
        add("18 digits", "{\"cons\":{\"a\":{\"ack_wait\":-999999999999999999}}}");
        add("negative unsigned", "{\"cons\":{\"a\":{\"opt_start_seq\":-0}}}");
        add("fractional int", "{\"cons\":{\"a\":{\"max_deliver\":1.5}}}");
        add("bool as number", "{\"cons\":{\"a\":{\"flow_control\":1}}}");
        add("bad enum", "{\"cons\":{\"a\":{\"replay_policy\":\"fast\"}}}");
        add("escaped enum", "{\"cons\":{\"a\":{\"ack_policy\":\"\\u0061ll\"}}}");
        add("number key type", "{\"cons\":{\"a\":{\"durable_name\":5}}}");
        add("config not object", "{\"cons\":{\"a\":[]}}");
        add("empty subject", "{\"subs\":{\"\":1}}");
        add("empty sid", "{\"cons\":{\"\":{}}}");
        add("trailing garbage", "{\"id\":\"a\"}x");
        add("trailing comma", "{\"id\":\"a\",}");
        add("missing colon", "{\"id\" \"a\"}");
        add("nested deep in config", "{\"cons\":{\"a\":{\"x\":" + QByteArray(40, '[') + QByteArray(40, ']') + "}}}");
        add("array", "[]");
        add("empty", "");
        add("literal prefix", "{\"clean\":tru}");
        add("expected header spaced", "{}", "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence: 7\r\n\r\n");
        // Found by fuzz_sessionrecord (fuzz/crashes/sessionrecord): bare CR/LF after the status line.
        add("empty header bare line ends", "{\"id\":\"a\"}", "NATS/1.0\n\r\r\n\r\n");
        add("empty header bare LF", "{\"id\":\"a\"}", "NATS/1.0\n\n");
        add("expected header bare LF end", "{}", "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:7\r\n\n");
        add("expected header lower case", "{}", "NATS/1.0\r\nnats-expected-last-subject-sequence:7\r\n\r\n");
        add("expected header huge", "{}", "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:99999999999999999999\r\n\r\n");
        add("expected header empty", "{}", "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:\r\n\r\n");
        add("other header", "{}", "NATS/1.0\r\nFoo:bar\r\n\r\n");
        add("status header", "{}", "NATS/1.0 404\r\n\r\n");
        add("bare NATS/1.0", "{}", "NATS/1.0");
        add("not a header", "{}", "HTTP/1.1\r\n\r\n");
    }
    void fastMatchesReference()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, headers);
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.kBmSuDPK");
        m.seq = 9;
        m.headers = headers;
        m.data = body;
        compareDecoders(m);
    }

    // The fast path itself (not only its fallback) takes every known consumer config field and unknown
    // keys that resemble them, and leaves every duplicate key (known, unknown, one of them null) to the reference.
    void fastPathConfigKeys()
    {
        const QByteArray known =
            "{\"durable_name\":\"d\",\"name\":\"d\",\"description\":\"\",\"filter_subject\":\"f\","
            "\"deliver_subject\":\"s\",\"deliver_group\":\"g\",\"sample_freq\":\"1%\",\"opt_start_time\":\"t\","
            "\"deliver_policy\":\"all\",\"ack_policy\":\"none\",\"replay_policy\":\"original\",\"ack_wait\":1,"
            "\"max_deliver\":-1,\"max_waiting\":0,\"max_ack_pending\":1,\"idle_heartbeat\":0,\"max_batch\":0,"
            "\"max_expires\":0,\"max_bytes\":0,\"inactive_threshold\":0,\"num_replicas\":0,\"opt_start_seq\":0,"
            "\"rate_limit_bps\":0,\"flow_control\":false,\"headers_only\":true,\"mem_storage\":false,\"direct\":false}";
        auto fast = SessionRecordFast::decodeBody("{\"cons\":{\"a\":" + known + "}}");
        QVERIFY(fast.has_value());
        QCOMPARE(fast->cons.value(QStringLiteral("a")).durableName(), QStringLiteral("d"));
        QVERIFY(SessionRecordFast::decodeBody("{\"cons\":{\"a\":{\"ack_wai\":\"s\",\"ack_waitt\":[],\"Ack_wait\":true,\"ack_wait\":5}}}"));
        for (const char *duplicate :
             {"{\"cons\":{\"a\":{\"ack_wait\":1,\"durable_name\":\"x\",\"x\":1,\"ack_wait\":2}}}",
              "{\"cons\":{\"a\":{\"ack_wait\":null,\"ack_wait\":2}}}", "{\"cons\":{\"a\":{\"direct\":true,\"direct\":true}}}",
              "{\"cons\":{\"a\":{\"metadata\":{},\"durable_name\":\"x\",\"metadata\":{}}}}"})
            QVERIFY2(!SessionRecordFast::decodeBody(duplicate), duplicate);
    }

    // Every known consumer config key (so every length the lookup handles) and keys one byte off it
    // (same length with one byte changed, also by 0x10 and 0x40, which keep the first or last byte's
    // slot; one byte shorter or longer; upper case): `[]` is a value no known field takes, so the fast
    // path hands a known key over and skips an unknown one.
    void knownFieldLookup()
    {
        const QList<QByteArray> known = {"durable_name",   "name",          "description",    "filter_subject", "deliver_subject",
                                         "deliver_group",  "sample_freq",   "opt_start_time", "deliver_policy", "ack_policy",
                                         "replay_policy",  "ack_wait",      "max_deliver",    "max_waiting",    "max_ack_pending",
                                         "idle_heartbeat", "max_batch",     "max_expires",    "max_bytes",      "inactive_threshold",
                                         "num_replicas",   "opt_start_seq", "rate_limit_bps", "flow_control",   "headers_only",
                                         "mem_storage",    "direct"};
        auto body = [](const QByteArray &key) { return QByteArray("{\"cons\":{\"a\":{\"" + key + "\":[]}}}"); };
        for (const QByteArray &key : known) {
            QVERIFY2(!SessionRecordFast::decodeBody(body(key)), key.constData());
            compareDecoders(message(body(key)));
            QList<QByteArray> others = {key.chopped(1), key + 'e', key.mid(1), 'n' + key, key.toUpper()};
            for (qsizetype i = 0; i < key.size(); ++i) {
                for (char c : {'_', 'a', 'x', char(key[i] ^ 0x10), char(key[i] ^ 0x40)}) {
                    QByteArray other = key;
                    other[i] = c;
                    others << other;
                }
            }
            for (const QByteArray &other : std::as_const(others)) {
                if (known.contains(other))
                    continue;
                const bool plain =
                    std::all_of(other.cbegin(), other.cend(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
                if (plain)
                    QVERIFY2(SessionRecordFast::decodeBody(body(other)).has_value(), other.constData());
                compareDecoders(message(body(other)));
            }
        }
        for (int n = 0; n <= 24; ++n) // keys of every length, none a field
            compareDecoders(message(body(QByteArray(n, 'k'))));
    }

    // Each enum field with every value of every enum field (and near misses): the fast path takes
    // exactly its own field's values and hands the rest over; both decoders agree.
    void enumValues()
    {
        const QList<QByteArray> deliver = {"all", "last", "new", "by_start_sequence", "by_start_time", "last_per_subject", "undefined"};
        const QList<QByteArray> ack = {"none", "all", "explicit"};
        const QList<QByteArray> replay = {"instant", "original"};
        const QList<QByteArray> misses = {"", "ALL", "al", "alll", "explicit ", "instan", "originals", "by_start_time_", "fast"};
        const QList<std::pair<QByteArray, QList<QByteArray>>> fields = {
            {"deliver_policy", deliver}, {"ack_policy", ack}, {"replay_policy", replay}};
        for (const auto &[key, allowed] : fields) {
            for (const QByteArray &value : deliver + ack + replay + misses) {
                const QByteArray body = "{\"cons\":{\"a\":{\"" + key + "\":\"" + value + "\"}}}";
                QCOMPARE(SessionRecordFast::decodeBody(body).has_value(), allowed.contains(value));
                compareDecoders(message(body));
            }
        }
    }

    // Bytes that end a plain run of a string (and plain ones) at every position 0..17 of an id, a key,
    // a durable name and a subscription, escapes there, and strings cut by the end of the body: the
    // fast path and the reference decoder agree.
    void stringBytesAtEveryPosition()
    {
        const QList<QByteArray> pieces = {QByteArray("\0", 1), "\x1f",  " ",   "\"",  "\\",      "~",       "\x7f",    "\x80",
                                          "\xc3\xa9",          "\xff",  "\\n", "\\/", "\\u0041", "\\u00e9", "\\u0001", "\\ud83d\\ude00",
                                          "\\ud83d",           "\\u12", "\\x"};
        for (int pos = 0; pos <= 17; ++pos) {
            for (const QByteArray &piece : pieces) {
                const QByteArray text = QByteArray(pos, 'a') + piece + "bcdefghijk";
                for (const QByteArray &body :
                     QList<QByteArray>{"{\"id\":\"" + text + "\"}", "{\"" + text + "\":1}", "{\"cons\":{\"a\":{\"" + text + "\":1}}}",
                                       "{\"cons\":{\"a\":{\"durable_name\":\"" + text + "\"}}}", "{\"subs\":{\"" + text + "\":1}}",
                                       "{\"id\":\"" + text, "{\"id\":\"" + QByteArray(pos, 'a') + piece})
                    compareDecoders(message(body));
                if (QTest::currentTestFailed())
                    return;
            }
        }
    }

    // Every prefix and random mutations of real records: both decoders agree.
    void fastMatchesReferenceMutated()
    {
        QRandomGenerator rng(777);
        QList<StoredMessage> corpus;
        for (const char *v : kVersions)
            corpus += loadCapture(QString::fromLatin1(v), QStringLiteral("MQTT_sess.json"));
        for (const StoredMessage &m : std::as_const(corpus)) {
            for (qsizetype n = 0; n <= m.data.size(); n += 7) {
                StoredMessage cut = m;
                cut.data.truncate(n);
                compareDecoders(cut);
            }
        }
        for (int i = 0; i < 3000; ++i) {
            StoredMessage m = corpus.at(rng.bounded(int(corpus.size())));
            QByteArray &target = rng.bounded(5) == 0 ? m.headers : m.data;
            for (int e = 1 + rng.bounded(3); e > 0 && !target.isEmpty(); --e) {
                const int pos = rng.bounded(int(target.size()));
                switch (rng.bounded(3)) {
                case 0: target[pos] = "{}[]:,\"\\u0123456789-.enultrfas \xc3\xff"[rng.bounded(32)]; break;
                case 1: target.remove(pos, 1 + rng.bounded(4)); break;
                default: target.insert(pos, char(rng.bounded(256))); break;
                }
            }
            compareDecoders(m);
            if (QTest::currentTestFailed())
                return;
        }
    }

    // Consumer configs stay compact JSON and read like objects.
    void consumerConfigJson()
    {
        const auto messages = loadCapture(QStringLiteral("2.10.27"), QStringLiteral("MQTT_sess.json"));
        const StoredMessage &m = messages.first();
        auto r = SessionRecord::decode(m);
        QVERIFY(r.ok());
        const ConsumerConfigJson c = r->cons.value(QStringLiteral("alerts fwc"));
        QCOMPARE(c.durableName(), QStringLiteral("kBmSuDPK_eu7CGS0wEzXeu10aX4btGm"));
        QCOMPARE(c.value(QStringLiteral("filter_subject")).toString(), QStringLiteral("$MQTT.msgs.alerts"));
        QVERIFY(m.data.contains(c.json())); // the stored bytes of the config
        const QJsonObject o = c;
        QCOMPARE(ConsumerConfigJson(o), c); // re-encoded from the object: same value
        QCOMPARE(ConsumerConfigJson(o).durableName(), c.durableName());
        QVERIFY(ConsumerConfigJson().isEmpty());
        QVERIFY(ConsumerConfigJson(QJsonObject()).isEmpty());
        QVERIFY(!c.isEmpty());
        QCOMPARE(ConsumerConfigJson().toObject(), QJsonObject());
        QVERIFY(!(ConsumerConfigJson(QJsonObject{{QStringLiteral("durable_name"), QStringLiteral("x")}}) == c));
    }

    // The durable name and deliver subject are kept apart from the rest of a config (shared between
    // records): the bytes and values read back exactly, in either field order, with either field absent,
    // and an escaped name is kept whole.
    void consumerConfigShared_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::newRow("both") << QByteArray(
            R"({"durable_name":"kBmSuDPK_a1","deliver_policy":"new","ack_policy":"explicit","deliver_subject":"$MQTT.sub.X1","num_replicas":0})");
        QTest::newRow("deliver first") << QByteArray(
            R"({"deliver_subject":"$MQTT.sub.X2","durable_name":"kBmSuDPK_a2","ack_policy":"explicit"})");
        QTest::newRow("no deliver subject") << QByteArray(R"({"durable_name":"kBmSuDPK_a3","ack_policy":"explicit"})");
        QTest::newRow("no durable") << QByteArray(R"({"ack_policy":"explicit","deliver_subject":"$MQTT.sub.X4"})");
        QTest::newRow("escaped name") << QByteArray(R"({"durable_name":"a>b","deliver_subject":"$MQTT.sub.X5"})");
        QTest::newRow("empty values") << QByteArray(R"({"durable_name":"","deliver_subject":""})");
    }
    void consumerConfigShared()
    {
        QFETCH(QByteArray, config);
        const QByteArray body = R"({"origin":"o1","id":"c1","clean":false,"subs":{"a.b":1},"cons":{"a.b":)" + config + "}}";
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(QStringLiteral("c1"));
        m.data = body;
        const auto fast = SessionRecord::decode(m);
        const auto reference = SessionRecord::decodeReference(m);
        QVERIFY2(fast.ok(), qPrintable(fast.ok() ? QString() : fast.error().message()));
        QVERIFY(reference.ok());
        const ConsumerConfigJson c = fast->cons.value(QStringLiteral("a.b"));
        QCOMPARE(c.json(), config);
        QCOMPARE(c.toObject(), QJsonDocument::fromJson(config).object());
        QCOMPARE(c.durableName(), QJsonDocument::fromJson(config).object().value(QLatin1String("durable_name")).toString());
        QCOMPARE(c, reference->cons.value(QStringLiteral("a.b")));
        QCOMPARE(*fast, *reference);
        QCOMPARE(SessionRecord::decode(fast->encode())->cons, fast->cons); // encode writes Go's field order: same value
        // A second record with the same rest and other values: each reads back its own.
        QByteArray other = config;
        other.replace("_a", "_z").replace("X", "Y");
        const auto second = SessionRecord::decode(QByteArray(R"({"origin":"o1","id":"c2","subs":{"a.b":1},"cons":{"a.b":)" + other + "}}"));
        QVERIFY(second.ok());
        QCOMPARE(second->cons.value(QStringLiteral("a.b")).json(), other);
        QCOMPARE(c.json(), config);
        QCOMPARE(c == second->cons.value(QStringLiteral("a.b")), config == other);
    }

private:
    static StoredMessage message(const QByteArray &body)
    {
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.kBmSuDPK");
        m.seq = 3;
        m.data = body;
        return m;
    }

    static void compareDecoders(const StoredMessage &m)
    {
        const auto fast = SessionRecord::decode(m);
        const auto reference = SessionRecord::decodeReference(m);
        QCOMPARE(fast.ok(), reference.ok());
        if (!fast.ok()) {
            QCOMPARE(fast.error().message(), reference.error().message());
            QCOMPARE(fast.error().kind(), reference.error().kind());
            return;
        }
        QCOMPARE(*fast, *reference);
        QCOMPARE(fast->encode(), reference->encode());
        QCOMPARE(fast->durableNames(), reference->durableNames());
        QCOMPARE(fast->subscriptions(), reference->subscriptions());
    }
};

QTEST_GUILESS_MAIN(TestSessionRecordFast)
#include "tst_sessionrecordfast.moc"
