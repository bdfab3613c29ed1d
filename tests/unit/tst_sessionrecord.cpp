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

#include "capturedrecords.h"

using namespace MqttDoctor;
using Dialect = TopicMapping::Dialect;
using TestData::loadCapture;

namespace {

std::optional<SessionRecord> capturedRecord(const QString &version, const QString &file, const QString &id)
{
    for (const StoredMessage &m : loadCapture(version, file)) {
        auto r = SessionRecord::decode(m);
        if (r && r->id == id)
            return *r;
    }
    return std::nullopt;
}

const auto &kVersions = TestData::kRecordVersions;

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
                QCOMPARE(r->headerForm, SessionRecord::HeaderForm::Empty); // first save: "NATS/1.0\r\n\r\n\r\n"
                QVERIFY(!r->expectedLastSubjectSequence);
                sawEmpty = true;
            }
        }
        QVERIFY(sawExpected);
        if (version != QLatin1String("2.9.10"))
            QVERIFY(sawEmpty); // the half-way QoS2 publishers' first and only save
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

        m.subject = QStringLiteral("$MQTT_sess_GGF5bYH2"); // legacy per-session stream
        r = SessionRecord::decode(m);
        QCOMPARE(r->subjectHash(), QStringLiteral("GGF5bYH2"));

        auto bare = SessionRecord::decode(m.data);
        QVERIFY(bare.ok());
        QCOMPARE(bare->idMatchesSubject(), std::nullopt);

        // subjectHashOf: the same token as subjectHash(), for any subject, as a view
        for (const QString &subject : {QStringLiteral("$MQTT.sess.GGF5bYH2"), QStringLiteral("$MQTT.sess.hub.GGF5bYH2"),
                                       QStringLiteral("$MQTT.sess.a.b.GGF5bYH2"), QStringLiteral("$MQTT_sess_GGF5bYH2")}) {
            m.subject = subject;
            QCOMPARE(SessionRecord::subjectHashOf(subject), QStringView(u"GGF5bYH2"));
            QCOMPARE(SessionRecord::decode(m)->subjectHash(), SessionRecord::subjectHashOf(subject).toString());
        }
        QVERIFY(SessionRecord::subjectHashOf(u"$MQTT.sess.").isEmpty());
        QVERIFY(SessionRecord::subjectHashOf(u"$MQTT.msgs.x").isEmpty());
        QVERIFY(SessionRecord::subjectHashOf(u"").isEmpty());
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
        QTest::newRow("truncated") << QByteArrayLiteral("{\"origin\":\"onglaOPN\",\"id\":\"sensor-sub-1\",\"subs\":{\"alerts.\\u003e\"")
                                   << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("not json") << QByteArrayLiteral("hello") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("array") << QByteArrayLiteral("[1,2]") << noHdr << QStringLiteral("expected a JSON object");
        QTest::newRow("scalar") << QByteArrayLiteral("42") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("id number") << QByteArrayLiteral("{\"id\":5}") << noHdr
                                   << QStringLiteral("field 'id': expected a string, got a number");
        QTest::newRow("origin object") << QByteArrayLiteral("{\"origin\":{}}") << noHdr << QStringLiteral("field 'origin'");
        QTest::newRow("clean string") << QByteArrayLiteral("{\"clean\":\"yes\"}") << noHdr
                                      << QStringLiteral("field 'clean': expected a boolean");
        QTest::newRow("subs array") << QByteArrayLiteral("{\"subs\":[\"a\"]}") << noHdr
                                    << QStringLiteral("field 'subs': expected an object, got an array");
        QTest::newRow("qos string") << QByteArrayLiteral("{\"subs\":{\"a\":\"1\"}}") << noHdr << QStringLiteral("QoS of \"a\"");
        QTest::newRow("qos fractional") << QByteArrayLiteral("{\"subs\":{\"a\":1.5}}") << noHdr
                                        << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos huge") << QByteArrayLiteral("{\"subs\":{\"a\":1e300}}") << noHdr << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos negative") << QByteArrayLiteral("{\"subs\":{\"a\":-1}}") << noHdr
                                      << QStringLiteral("expected an integer 0..255");
        QTest::newRow("qos 7") << QByteArrayLiteral("{\"subs\":{\"a\":7}}") << noHdr << QStringLiteral("MQTT only has 0, 1 and 2");
        QTest::newRow("empty subject") << QByteArrayLiteral("{\"subs\":{\"\":1}}") << noHdr << QStringLiteral("empty subject");
        QTest::newRow("cons string") << QByteArrayLiteral("{\"cons\":{\"a\":\"x\"}}") << noHdr
                                     << QStringLiteral("consumer \"a\": expected an object");
        QTest::newRow("durable number") << QByteArrayLiteral("{\"cons\":{\"a\":{\"durable_name\":1}}}") << noHdr
                                        << QStringLiteral("durable_name: expected a string");
        QTest::newRow("ack_wait huge") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_wait\":1e40}}}") << noHdr
                                       << QStringLiteral("ack_wait: expected a 64-bit integer");
        QTest::newRow("ack_wait string") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_wait\":\"30s\"}}}") << noHdr
                                         << QStringLiteral("ack_wait");
        QTest::newRow("bad ack policy") << QByteArrayLiteral("{\"cons\":{\"a\":{\"ack_policy\":\"sometimes\"}}}") << noHdr
                                        << QStringLiteral("ack_policy: unknown value");
        QTest::newRow("opt_start_seq negative")
            << QByteArrayLiteral("{\"cons\":{\"a\":{\"opt_start_seq\":-3}}}") << noHdr << QStringLiteral("opt_start_seq");
        QTest::newRow("mem_storage string") << QByteArrayLiteral("{\"cons\":{\"a\":{\"mem_storage\":\"true\"}}}") << noHdr
                                            << QStringLiteral("mem_storage: expected a boolean");
        QTest::newRow("pubrel array") << QByteArrayLiteral("{\"pubrel\":[]}") << noHdr << QStringLiteral("field 'pubrel'");
        QTest::newRow("pubrel bad field") << QByteArrayLiteral("{\"pubrel\":{\"max_ack_pending\":\"x\"}}") << noHdr
                                          << QStringLiteral("max_ack_pending");
        QTest::newRow("invalid utf-8") << QByteArray("{\"id\":\"\xff\xfe\"}") << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("nul bytes") << QByteArray("{\"id\":\"a\"}\0\0", 12) << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("deeply nested") << (QByteArray(100000, '[') + QByteArray(100000, ']')) << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("deeply nested unknown field") << (QByteArrayLiteral("{\"x\":") + QByteArray(5000, '[') + QByteArray(5000, ']') + '}')
                                                     << noHdr << QStringLiteral("invalid JSON");
        QTest::newRow("bad header block") << QByteArrayLiteral("{}") << QByteArrayLiteral("HTTP/1.1\r\n\r\n") << QStringLiteral("NATS/1.0");
        QTest::newRow("bad header line") << QByteArrayLiteral("{}") << QByteArrayLiteral("NATS/1.0\r\nnocolon\r\n\r\n")
                                         << QStringLiteral("key:value");
        QTest::newRow("bad expected seq") << QByteArrayLiteral("{}")
                                          << QByteArrayLiteral("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:-1\r\n\r\n")
                                          << QStringLiteral("not an unsigned integer");
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
            auto r = SessionRecord::decode(m);
            (r.ok() ? ok : failed)++;
            if (r.ok()) { // whatever decodes also re-encodes to something that decodes the same
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
};

QTEST_GUILESS_MAIN(TestSessionRecord)
#include "tst_sessionrecord.moc"
