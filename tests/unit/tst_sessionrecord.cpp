#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include "mqtt/clientidhash.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/sessionrecordfast.h"
#include "mqtt/storedmessage.h"

using namespace MqttDoctor;
using Dialect = TopicMapping::Dialect;

namespace {

QList<StoredMessage> loadCapture(const QString &version, const QString &file)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/records/") + version
            + QLatin1Char('/') + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read captured records: %s", qPrintable(f.fileName()));
    QList<StoredMessage> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("messages")).toArray()) {
        auto m = StoredMessage::fromJson(v.toObject());
        if (!m)
            qFatal("bad message in %s", qPrintable(f.fileName()));
        out.append(*m);
    }
    return out;
}

std::optional<SessionRecord> capturedRecord(const QString &version, const QString &file, const QString &id)
{
    for (const StoredMessage &m : loadCapture(version, file)) {
        auto r = SessionRecord::decode(m);
        if (r && r->id == id)
            return *r;
    }
    return std::nullopt;
}

const char *const kVersions[] = {"2.9.10", "2.10.27", "2.15.1"};

} // namespace

class TestSessionRecord : public QObject
{
    Q_OBJECT

private slots:
    // Every captured record decodes, its derived fields agree, and encode() round-trips.
    void capturedRoundTrip_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("file");
        for (const char *v : kVersions) {
            for (const char *f : {"MQTT_sess.json", "MQTT_sess.after.json"})
                QTest::addRow("%s/%s", v, f) << QString::fromLatin1(v) << QString::fromLatin1(f);
        }
    }
    void capturedRoundTrip()
    {
        QFETCH(QString, version);
        QFETCH(QString, file);
        const auto messages = loadCapture(version, file);
        QVERIFY(messages.size() >= 3);
        for (const StoredMessage &m : messages) {
            auto r = SessionRecord::decode(m);
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            QCOMPARE(r->subject, m.subject);
            QCOMPARE(r->seq, m.seq);
            QCOMPARE(r->idMatchesSubject(), std::optional<bool>(true));
            QVERIFY(r->unknownFields.isEmpty());
            const QByteArray encoded = r->encode();
            // Same JSON value as the server wrote (key order inside consumer configs may differ).
            QCOMPARE(QJsonDocument::fromJson(encoded), QJsonDocument::fromJson(m.data));
            auto again = SessionRecord::decode(encoded);
            QVERIFY(again.ok());
            QCOMPARE(again->encode(), encoded);
            SessionRecord bodyOnly = *r;
            bodyOnly.subject.clear();
            bodyOnly.seq = 0;
            bodyOnly.headerForm = SessionRecord::HeaderForm::None;
            bodyOnly.expectedLastSubjectSequence.reset();
            QCOMPARE(*again, bodyOnly);
            // Records without consumers are byte-identical, `\u003e` escapes included.
            if (r->cons.isEmpty())
                QCOMPARE(encoded, m.data);
            for (const auto &[k, v] : r->subs.asKeyValueRange()) {
                if (k.contains(QLatin1Char('>')))
                    QVERIFY(encoded.contains(QByteArray(k.toUtf8()).replace(">", "\\u003e")));
                Q_UNUSED(v);
            }
        }
    }

    void headerForms_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : kVersions)
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void headerForms()
    {
        QFETCH(QString, version);
        bool sawExpected = false;
        bool sawEmpty = false;
        for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_sess.json"))) {
            auto r = SessionRecord::decode(m);
            QVERIFY(r.ok());
            if (r->headerForm == SessionRecord::HeaderForm::ExpectedLastSequence) {
                sawExpected = true;
                QVERIFY(r->expectedLastSubjectSequence.has_value());
                QVERIFY(*r->expectedLastSubjectSequence < r->seq);
            } else {
                QCOMPARE(r->headerForm, SessionRecord::HeaderForm::Empty);  // first save: "NATS/1.0\r\n\r\n\r\n"
                QVERIFY(!r->expectedLastSubjectSequence);
                sawEmpty = true;
            }
        }
        QVERIFY(sawExpected);
        if (version != QLatin1String("2.9.10"))
            QVERIFY(sawEmpty);  // the half-way QoS2 publishers' first and only save
    }

    void sensorSub1_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : kVersions)
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void sensorSub1()
    {
        QFETCH(QString, version);
        auto r = capturedRecord(version, QStringLiteral("MQTT_sess.json"), QStringLiteral("sensor-sub-1"));
        QVERIFY(r);
        QCOMPARE(r->subject, QStringLiteral("$MQTT.sess.kBmSuDPK"));
        QCOMPARE(r->subjectHash(), QStringLiteral("kBmSuDPK"));
        QCOMPARE(r->subjectDomain(), QString());
        QCOMPARE(r->idHash(), QStringLiteral("kBmSuDPK"));
        QCOMPARE(r->origin, QStringLiteral("onglaOPN"));
        QVERIFY(!r->clean);
        QCOMPARE(r->subs.size(), 2);
        QCOMPARE(r->subs.value(QStringLiteral("alerts.>")), 1);
        QCOMPARE(r->subs.value(QStringLiteral("sensors.*.temp")), 1);
        QCOMPARE(r->cons.size(), 3);
        QVERIFY(r->cons.contains(QStringLiteral("alerts fwc")));
        const QJsonObject fwc = r->cons.value(QStringLiteral("alerts fwc"));
        QCOMPARE(fwc.value(QStringLiteral("filter_subject")).toString(), QStringLiteral("$MQTT.msgs.alerts"));
        QCOMPARE(fwc.value(QStringLiteral("ack_wait")).toInteger(), Q_INT64_C(30000000000));
        QCOMPARE(fwc.value(QStringLiteral("max_ack_pending")).toInt(), 1024);
        QVERIFY(fwc.value(QStringLiteral("deliver_subject")).toString().startsWith(QLatin1String("$MQTT.sub.")));
        QVERIFY(!r->pubrel);

        const auto subs = r->subscriptions(version == QLatin1String("2.9.10") ? Dialect::V2_9 : Dialect::V2_10);
        QCOMPARE(subs.size(), 2);
        QCOMPARE(subs.at(0).natsSubject, QStringLiteral("alerts.>"));
        QCOMPARE(subs.at(0).mqttFilter, QStringLiteral("alerts/#"));
        QCOMPARE(subs.at(0).qos, 1);
        QCOMPARE(subs.at(0).durableName, r->durableOf(QStringLiteral("alerts.>")));
        QCOMPARE(subs.at(0).levelUpDurable, r->durableOf(QStringLiteral("alerts fwc")));
        QVERIFY(subs.at(0).durableName.startsWith(QLatin1String("kBmSuDPK_")));
        QVERIFY(subs.at(0).levelUpDurable.startsWith(QLatin1String("kBmSuDPK_")));
        QCOMPARE(subs.at(1).mqttFilter, QStringLiteral("sensors/+/temp"));
        QVERIFY(subs.at(1).levelUpDurable.isEmpty());
        const QStringList durables = r->durableNames();
        QCOMPARE(durables.size(), 3);
        for (const QString &d : durables)
            QVERIFY(d.startsWith(QLatin1String("kBmSuDPK_")));
    }

    // QoS 2 subscriptions: 2.9 stores QoS 1; 2.10+ stores 2 and a PUBREL consumer config.
    void qos2_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : kVersions)
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void qos2()
    {
        QFETCH(QString, version);
        auto d = capturedRecord(version, QStringLiteral("MQTT_sess.json"), QStringLiteral("dashboard-2"));
        QVERIFY(d);
        QCOMPARE(d->subjectHash(), QStringLiteral("GGF5bYH2"));
        QCOMPARE(d->subs.value(QStringLiteral("sensors.>")), version == QLatin1String("2.9.10") ? 1 : 2);
        if (version == QLatin1String("2.9.10"))
            return;
        auto q = capturedRecord(version, QStringLiteral("MQTT_sess.json"), QStringLiteral("q2sub-1"));
        QVERIFY(q);
        QVERIFY(q->pubrel);
        QCOMPARE(q->pubrel->value(QStringLiteral("durable_name")).toString(), QStringLiteral("$MQTT_PUBREL_Mh0qIKOb"));
        QCOMPARE(q->pubrel->value(QStringLiteral("filter_subject")).toString(), QStringLiteral("$MQTT.out.pubrel.Mh0qIKOb"));
        QCOMPARE(q->pubrel->value(QStringLiteral("deliver_subject")).toString(), QStringLiteral("$MQTT.deliver.pubrel.Mh0qIKOb"));
        QVERIFY(q->durableNames().contains(QStringLiteral("$MQTT_PUBREL_Mh0qIKOb")));
        QCOMPARE(q->durableNames().size(), 3);

        auto dotted = capturedRecord(version, QStringLiteral("MQTT_sess.json"), QStringLiteral("dotted-3"));
        QVERIFY(dotted);
        QStringList filters;
        for (const auto &s : dotted->subscriptions())
            filters.append(s.mqttFilter);
        QCOMPARE(filters, (QStringList{QStringLiteral("a.b/#"), QStringLiteral("rooms/living.room/+"), QStringLiteral("x//y")}));
    }

    void cleanSession_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : kVersions)
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void cleanSession()
    {
        QFETCH(QString, version);
        auto c = capturedRecord(version, QStringLiteral("MQTT_sess.json"), QStringLiteral("clean-4"));
        QVERIFY(c);
        QVERIFY(c->clean);
        QCOMPARE(c->subs.value(QStringLiteral("clean.*")), 1);
        QVERIFY(c->encode().contains("\"clean\":true"));
    }

    // The colliding pair: 2.9/2.10 let the second ID take over the record; 2.15 rejects it and keeps the first.
    void collision_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("owner");
        QTest::newRow("2.9.10") << QStringLiteral("2.9.10") << QStringLiteral("cid-09191235");
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27") << QStringLiteral("cid-09191235");
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1") << QStringLiteral("cid-03579431");
    }
    void collision()
    {
        QFETCH(QString, version);
        QFETCH(QString, owner);
        const QString other = owner == QLatin1String("cid-09191235") ? QStringLiteral("cid-03579431") : QStringLiteral("cid-09191235");
        auto r = capturedRecord(version, QStringLiteral("MQTT_sess.after.json"), owner);
        QVERIFY(r);
        QCOMPARE(r->subjectHash(), QStringLiteral("1fbmU9bb"));
        QCOMPARE(r->idMatchesSubject(), std::optional<bool>(true));
        QVERIFY(!capturedRecord(version, QStringLiteral("MQTT_sess.after.json"), other));
        // 2.9/2.10: the second client inherited the first one's subscription
        QCOMPARE(r->subs.contains(QStringLiteral("coll.a")), true);
        QCOMPARE(r->subs.contains(QStringLiteral("coll.b")), version != QLatin1String("2.15.1"));
    }

    void idMismatch()
    {
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.kBmSuDPK");
        m.data = QByteArrayLiteral("{\"origin\":\"onglaOPN\",\"id\":\"dashboard-2\"}");
        auto r = SessionRecord::decode(m);
        QVERIFY(r.ok());
        QCOMPARE(r->idMatchesSubject(), std::optional<bool>(false));
        QCOMPARE(r->idHash(), QStringLiteral("GGF5bYH2"));
        QCOMPARE(r->headerForm, SessionRecord::HeaderForm::None);

        m.subject = QStringLiteral("$MQTT.sess.hub.GGF5bYH2");
        r = SessionRecord::decode(m);
        QVERIFY(r.ok());
        QCOMPARE(r->subjectDomain(), QStringLiteral("hub"));
        QCOMPARE(r->subjectHash(), QStringLiteral("GGF5bYH2"));
        QCOMPARE(r->idMatchesSubject(), std::optional<bool>(true));

        m.subject = QStringLiteral("$MQTT_sess_GGF5bYH2");  // legacy per-session stream
        r = SessionRecord::decode(m);
        QCOMPARE(r->subjectHash(), QStringLiteral("GGF5bYH2"));

        auto bare = SessionRecord::decode(m.data);
        QVERIFY(bare.ok());
        QCOMPARE(bare->idMatchesSubject(), std::nullopt);
    }

    void tolerantForms()
    {
        // nulls, unknown keys (kept and re-encoded), QoS0 subscription without consumer
        auto r = SessionRecord::decode(QByteArrayLiteral(
            "{\"origin\":null,\"id\":\"a\",\"clean\":false,\"subs\":{\"x.y\":0},\"cons\":null,\"future\":{\"k\":[1,2]}}"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QCOMPARE(r->subs.value(QStringLiteral("x.y")), 0);
        QVERIFY(r->cons.isEmpty());
        QCOMPARE(r->subscriptions().at(0).durableName, QString());
        QCOMPARE(r->unknownFields.value(QStringLiteral("future")).toObject().value(QStringLiteral("k")).toArray().size(), 2);
        QCOMPARE(r->encode(), QByteArrayLiteral("{\"id\":\"a\",\"subs\":{\"x.y\":0},\"future\":{\"k\":[1,2]}}"));
        // Go escapes on encode
        SessionRecord s;
        s.id = QStringLiteral("a<b>&\"\\\n\u2028");
        QCOMPARE(s.encode(), QByteArrayLiteral("{\"id\":\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\u2028\"}"));
        QCOMPARE(SessionRecord::decode(s.encode())->id, s.id);
        // header with other keys
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.x");
        m.headers = QByteArrayLiteral("NATS/1.0\r\nFoo: bar\r\n\r\n");
        m.data = QByteArrayLiteral("{}");
        QCOMPARE(SessionRecord::decode(m)->headerForm, SessionRecord::HeaderForm::Other);
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<QString>("reason");
        const QByteArray noHdr;
        QTest::newRow("empty") << QByteArray() << noHdr << QStringLiteral("empty record");
        QTest::newRow("truncated") << QByteArrayLiteral("{\"origin\":\"onglaOPN\",\"id\":\"sensor-sub-1\",\"subs\":{\"alerts.\\u003e\"") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("not json") << QByteArrayLiteral("hello") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("array") << QByteArrayLiteral("[1,2]") << noHdr << QStringLiteral("expected a JSON object");
        QTest::newRow("scalar") << QByteArrayLiteral("42") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("id number") << QByteArrayLiteral("{\"id\":5}") << noHdr << QStringLiteral("field 'id': expected a string, got a number");
        QTest::newRow("origin object") << QByteArrayLiteral("{\"origin\":{}}") << noHdr << QStringLiteral("field 'origin'");
        QTest::newRow("clean string") << QByteArrayLiteral("{\"clean\":\"yes\"}") << noHdr << QStringLiteral("field 'clean': expected a boolean");
        QTest::newRow("subs array") << QByteArrayLiteral("{\"subs\":[\"a\"]}") << noHdr << QStringLiteral("field 'subs': expected an object, got an array");
        QTest::newRow("qos string") << QByteArrayLiteral("{\"subs\":{\"a\":\"1\"}}") << noHdr << QStringLiteral("QoS of \"a\"");
        QTest::newRow("qos fractional") << QByteArrayLiteral("{\"subs\":{\"a\":1.5}}") << noHdr << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos huge") << QByteArrayLiteral("{\"subs\":{\"a\":1e300}}") << noHdr << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos negative") << QByteArrayLiteral("{\"subs\":{\"a\":-1}}") << noHdr << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos 7") << QByteArrayLiteral("{\"subs\":{\"a\":7}}") << noHdr << QStringLiteral("MQTT only has 0, 1 and 2");
        QTest::newRow("empty subject") << QByteArrayLiteral("{\"subs\":{\"\":1}}") << noHdr << QStringLiteral("empty subject");
        QTest::newRow("cons string") << QByteArrayLiteral("{\"cons\":{\"a\":\"x\"}}") << noHdr << QStringLiteral("consumer \"a\": expected an object");
        QTest::newRow("durable number") << QByteArrayLiteral("{\"cons\":{\"a\":{\"durable_name\":1}}}") << noHdr << QStringLiteral("durable_name: expected a string");
        QTest::newRow("ack_wait huge") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_wait\":1e40}}}") << noHdr << QStringLiteral("ack_wait: expected a 64-bit integer");
        QTest::newRow("ack_wait string") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_wait\":\"30s\"}}}") << noHdr << QStringLiteral("ack_wait");
        QTest::newRow("bad ack policy") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_policy\":\"sometimes\"}}}") << noHdr << QStringLiteral("ack_policy: unknown value");
        QTest::newRow("opt_start_seq negative") << QByteArrayLiteral("{\"cons\":{\"a\":{\"opt_start_seq\":-3}}}") << noHdr << QStringLiteral("opt_start_seq");
        QTest::newRow("mem_storage string") << QByteArrayLiteral("{\"cons\":{\"a\":{\"mem_storage\":\"true\"}}}") << noHdr << QStringLiteral("mem_storage: expected a boolean");
        QTest::newRow("pubrel array") << QByteArrayLiteral("{\"pubrel\":[]}") << noHdr << QStringLiteral("field 'pubrel'");
        QTest::newRow("pubrel bad field") << QByteArrayLiteral("{\"pubrel\":{\"max_ack_pending\":\"x\"}}") << noHdr << QStringLiteral("max_ack_pending");
        QTest::newRow("invalid utf-8") << QByteArray("{\"id\":\"\xff\xfe\"}") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("nul bytes") << QByteArray("{\"id\":\"a\"}\0\0", 12) << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("deeply nested") << (QByteArray(100000, '[') + QByteArray(100000, ']')) << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("deeply nested unknown field") << (QByteArrayLiteral("{\"x\":") + QByteArray(5000, '[') + QByteArray(5000, ']') + '}') << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("bad header block") << QByteArrayLiteral("{}") << QByteArrayLiteral("HTTP/1.1\r\n\r\n") << QStringLiteral("NATS/1.0");
        QTest::newRow("bad header line") << QByteArrayLiteral("{}") << QByteArrayLiteral("NATS/1.0\r\nnocolon\r\n\r\n") << QStringLiteral("key:value");
        QTest::newRow("bad expected seq") << QByteArrayLiteral("{}") << QByteArrayLiteral("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:-1\r\n\r\n") << QStringLiteral("not an unsigned integer");
    }
    void malformed()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, headers);
        QFETCH(QString, reason);
        StoredMessage m;
        m.subject = QStringLiteral("$MQTT.sess.kBmSuDPK");
        m.headers = headers;
        m.data = body;
        auto r = SessionRecord::decode(m);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
        QVERIFY2(r.error().message().startsWith(QLatin1String("session record: ")), qPrintable(r.error().message()));
        QVERIFY2(r.error().message().contains(reason), qPrintable(r.error().message()));
    }

    // Every prefix of a real record is either a record or a decode error, never a crash.
    void everyTruncation()
    {
        const auto messages = loadCapture(QStringLiteral("2.15.1"), QStringLiteral("MQTT_sess.json"));
        const QByteArray full = messages.first().data;
        for (qsizetype n = 0; n < full.size(); ++n) {
            auto r = SessionRecord::decode(full.left(n));
            QVERIFY(!r.ok());
        }
        QVERIFY(SessionRecord::decode(full).ok());
    }

    // Random mutations of real records (fixed seed): every input gives a record or a decode error.
    void fuzzMutations()
    {
        QRandomGenerator rng(4242);
        QList<StoredMessage> corpus;
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            for (const char *f : {"MQTT_sess.json", "MQTT_sess.after.json"}) {
                if (QFile::exists(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/records/") + QLatin1String(v) + QLatin1Char('/') + QLatin1String(f)))
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
            auto r = SessionRecord::decode(m);
            (r.ok() ? ok : failed)++;
            if (r.ok()) {  // whatever decodes also re-encodes to something that decodes the same
                const QByteArray encoded = r->encode();
                auto again = SessionRecord::decode(encoded);
                QVERIFY2(again.ok(), encoded.constData());
                QCOMPARE(again->encode(), encoded);
            }
            if (!r.ok())
                QVERIFY(!r.error().message().isEmpty());
        }
        QVERIFY(failed > 0);
        qInfo("mutations: %d decoded, %d decode errors", ok, failed);
    }

    // --- the fast decoder (SessionRecordFast) against the reference decoder (QJsonDocument) ---

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
        const QByteArray cfg = QByteArrayLiteral("{\"durable_name\":\"h_1\",\"deliver_policy\":\"new\",\"ack_policy\":\"explicit\","
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
        QVERIFY(m.data.contains(c.json()));  // the stored bytes of the config
        const QJsonObject o = c;
        QCOMPARE(ConsumerConfigJson(o), c);  // re-encoded from the object: same value
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
        QTest::newRow("both") << QByteArray(R"({"durable_name":"kBmSuDPK_a1","deliver_policy":"new","ack_policy":"explicit","deliver_subject":"$MQTT.sub.X1","num_replicas":0})");
        QTest::newRow("deliver first") << QByteArray(R"({"deliver_subject":"$MQTT.sub.X2","durable_name":"kBmSuDPK_a2","ack_policy":"explicit"})");
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
        QCOMPARE(SessionRecord::decode(fast->encode())->cons, fast->cons);  // encode writes Go's field order: same value
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

QTEST_GUILESS_MAIN(TestSessionRecord)
#include "tst_sessionrecord.moc"
