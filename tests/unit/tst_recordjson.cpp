// The JSON the streaming commands write record by record (SessionLoader::writeJson,
// RetainedLoader::writeJson, Finding::writeJson) is the JSON of the documents they replaced (toJson()),
// text included, for records captured from real servers of every version and for the odd ones
// (undecodable, legacy, missing and unanswered consumers, connected or unknown, escapes, non-ASCII).
#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QTextStream>

#include <functional>

#include "capturedrecords.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/finding.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"

using namespace MqttDoctor;

namespace {

StreamMessage streamMessage(const StoredMessage &m)
{
    StreamMessage s;
    s.subject = m.subject;
    s.sequence = m.seq;
    s.timeNs = 1764906012123456789LL + qint64(m.seq) * 1000000007LL;
    s.headers = m.headers;
    s.data = m.data;
    return s;
}

// `{"list": [each element written by `write`]}` as text, and the same made from `toJson` as a document.
template<typename T>
void compareWithDocument(const QList<T> &items, const std::function<void(JsonStreamWriter &, const T &)> &write,
                         const std::function<QJsonObject(const T &)> &toJson)
{
    QByteArray streamed;
    {
        QBuffer buffer(&streamed);
        buffer.open(QIODevice::WriteOnly);
        QTextStream out(&buffer);
        JsonStreamWriter w(out);
        w.beginObject();
        w.beginArray(QStringLiteral("list"));
        for (const T &item : items)
            write(w, item);
        w.endArray();
        w.finish();
    }
    QJsonArray list;
    for (const T &item : items)
        list.append(toJson(item));
    const QByteArray document = QJsonDocument(QJsonObject{{QStringLiteral("list"), list}}).toJson(QJsonDocument::Indented);
    QCOMPARE(streamed, document);
}

} // namespace

class TestRecordJson : public QObject
{
    Q_OBJECT

private slots:
    void sessions_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : TestData::kRecordVersions)
            QTest::newRow(v) << QString::fromLatin1(v);
    }

    void sessions()
    {
        QFETCH(QString, version);
        QList<SessionEntry> entries;
        for (const StoredMessage &m : TestData::loadCapture(version, QStringLiteral("MQTT_sess.json")))
            entries.append(SessionLoader::fromMessage(streamMessage(m), TopicMapping::Dialect::V2_10));
        QVERIFY(!entries.isEmpty());
        // Undecodable, with control characters, quotes and non-ASCII in what it shows.
        StreamMessage garbage;
        garbage.subject = QStringLiteral("$MQTT.sess.AbCdEfGh");
        garbage.sequence = 99;
        garbage.data = "{\"id\":\"caf\xc3\xa9 \\\"x\\\"\\n\xf0\x9f\x98\x80\",\"subs\":";
        entries.append(SessionLoader::fromMessage(garbage, TopicMapping::Dialect::V2_9));
        // The first consumers exist (one did not answer), the rest are missing; connected, not, unknown.
        SessionLoader::ConsumerIndex index;
        bool first = true;
        for (const SessionEntry &e : std::as_const(entries))
            if (e.record)
                for (auto it = e.record->cons.cbegin(); it != e.record->cons.cend(); ++it) {
                    QJsonObject info{{QStringLiteral("name"), it.value().durableName()},
                                     {QStringLiteral("num_pending"), 7},
                                     {QStringLiteral("num_ack_pending"), 2},
                                     {QStringLiteral("config"), it.value().toObject()}};
                    if (first)
                        SessionLoader::indexConsumers(index, QStringLiteral("$MQTT_msgs"), {info});
                    first = false;
                }
        SessionLoader::ConnectedClients connected;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            SessionEntry &e = entries[i];
            SessionLoader::joinConsumers(e, index, i % 3 != 2);
            if (i % 2 == 0 && e.record)
                connected.insert(e.clientId, QStringLiteral("n1"));
            SessionLoader::joinConnected(e, i % 4 == 3 ? std::nullopt : std::optional(connected));
        }
        if (entries.size() > 1)
            SessionLoader::markLegacy(entries[1], QStringLiteral("$MQTT_sess_") + entries[1].hash);
        compareWithDocument<SessionEntry>(
            entries, [](JsonStreamWriter &w, const SessionEntry &e) { SessionLoader::writeJson(w, e); },
            [](const SessionEntry &e) { return SessionLoader::toJson(e); });
    }

    void retained_data() { sessions_data(); }

    void retained()
    {
        QFETCH(QString, version);
        QList<RetainedEntry> entries;
        for (const StoredMessage &m : TestData::loadCapture(version, QStringLiteral("MQTT_rmsgs.json")))
            entries.append(RetainedLoader::fromMessage(streamMessage(m)));
        QVERIFY(!entries.isEmpty());
        StreamMessage garbage;
        garbage.subject = QStringLiteral("$MQTT.rmsgs");
        garbage.sequence = 7;
        garbage.data = "not json \x01";
        entries.append(RetainedLoader::fromMessage(garbage));
        StreamMessage marker;
        marker.subject = QStringLiteral("$MQTT.rmsgs.a.b");
        marker.sequence = 8;
        marker.headers = "NATS/1.0\r\nNmqtt-RTopic: a/b\r\nNmqtt-RFlags: -1\r\n\r\n";
        entries.append(RetainedLoader::fromMessage(marker));
        compareWithDocument<RetainedEntry>(
            entries, [](JsonStreamWriter &w, const RetainedEntry &e) { RetainedLoader::writeJson(w, e); },
            [](const RetainedEntry &e) { return RetainedLoader::toJson(e); });
    }

    void findings()
    {
        Finding full;
        full.code = QStringLiteral("SESSION_MISSING_CONSUMER");
        full.severity = Finding::Severity::Error;
        full.account = QStringLiteral("ACME");
        full.stream = QStringLiteral("$MQTT_msgs");
        full.subject = QStringLiteral("$MQTT.sess.AbCdEfGh");
        full.clientId = QStringLiteral("sensor \"7\" \u00e9");
        full.title = QStringLiteral("a title");
        full.detail = QStringLiteral("line one\nline two\ttab");
        full.expected = QJsonObject{{QStringLiteral("consumer"), QStringLiteral("x")},
                                    {QStringLiteral("n"), 1.5},
                                    {QStringLiteral("list"), QJsonArray{1, QJsonArray{}, QJsonObject{}, QJsonValue::Null}}};
        full.actual = QJsonValue::Null;
        full.explains = {QStringLiteral("a log line"), QStringLiteral("another")};
        full.repair = QStringLiteral("create_consumer");
        Finding bare;
        bare.code = QStringLiteral("STREAM_MISSING");
        bare.expected = 9007199254740993LL;
        bare.actual = QStringLiteral("missing");
        compareWithDocument<Finding>(
            {full, bare, full}, [](JsonStreamWriter &w, const Finding &f) { f.writeJson(w); }, [](const Finding &f) { return f.toJson(); });
    }
};

QTEST_GUILESS_MAIN(TestRecordJson)
#include "tst_recordjson.moc"
