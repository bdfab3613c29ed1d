// StreamReader against real servers of every version: real MQTT sessions, retained and queued
// messages read completely; large streams drained; cancel; interest streams read by sequence
// without changing them; a JetStream domain.
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>
#include <QThread>

#include <atomic>

#include "mqttclient.h"
#include "natsserverfixture.h"
#include "mqtt/clientidhash.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/messagegetter.h"
#include "nats/requestcounter.h"
#include "nats/streamindex.h"
#include "nats/streamreader.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

std::shared_ptr<NatsConnection> connectAcme(const NatsServerFixture &server)
{
    ConnectionSettings settings;
    settings.servers = {server.url()};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = QStringLiteral("acme");
    settings.credentials.password = QStringLiteral("acmepass");
    settings.timeoutMs = 10000;
    settings.role = QStringLiteral("account ACME");
    auto c = NatsConnection::connect(settings);
    if (!c) {
        qWarning("%s", qPrintable(c.error().toString()));
        return {};
    }
    return *c;
}

QString err(const Error &e)
{
    return e.toString();
}

// Reads everything into one list (and checks progress is monotonic).
struct Collected
{
    QList<StreamMessage> messages;
    int batches = 0;
    ReadProgress lastProgress;
    bool progressOk = true;
};

StreamReader::BatchHandler collector(Collected &c)
{
    return [&c](QList<StreamMessage> &&batch, const ReadProgress &p) {
        ++c.batches;
        if (p.done < c.lastProgress.done || (p.total && p.done > p.total))
            c.progressOk = false;
        c.lastProgress = p;
        c.messages.append(std::move(batch));
        return true;
    };
}

QByteArray sessionLikeRecord(int i)
{
    // ~300 bytes, shaped like a session record.
    const QByteArray n = QByteArray::number(i).rightJustified(8, '0');
    return "{\"origin\":\"DiAi4bSi\",\"id\":\"client-" + n
        + "\",\"subs\":{\"sensors.*.temp\":1},\"cons\":{\"sensors.*.temp\":{\"durable_name\":\"h" + n
        + "_VLQy5y60qFRsGvLlBvebew\",\"deliver_policy\":\"new\",\"ack_policy\":\"explicit\",\"ack_wait\":30000000000,"
          "\"filter_subject\":\"$MQTT.msgs.sensors.*.temp\",\"max_ack_pending\":1024,"
          "\"deliver_subject\":\"$MQTT.sub.VLQy5y60qFRsGvLlBveb"
        + n + "\"}}}";
}

bool createLoadStream(JetStreamClient &js, const QString &name, const QString &subjects, QString *error, int maxPerSubject = 1)
{
    QJsonObject cfg{{QStringLiteral("name"), name},
                    {QStringLiteral("subjects"), QJsonArray{subjects}},
                    {QStringLiteral("retention"), QStringLiteral("limits")},
                    {QStringLiteral("storage"), QStringLiteral("file")},
                    {QStringLiteral("max_msgs_per_subject"), maxPerSubject},
                    {QStringLiteral("num_replicas"), 1}};
    auto r = js.call(QStringLiteral("STREAM.CREATE.") + name, cfg);
    if (!r)
        *error = r.error().toString();
    return r.ok();
}

// Core publishes (JetStream stores them; no ack needed), then waits until the stream holds them all.
bool fillLoadStream(NatsConnection &nc, JetStreamClient &js, const QString &name, const QString &prefix, int count, QString *error)
{
    for (int i = 0; i < count; ++i) {
        auto p = nc.publish(prefix + QString::number(i).rightJustified(8, QLatin1Char('0')), sessionLikeRecord(i));
        if (!p) {
            *error = p.error().toString();
            return false;
        }
    }
    QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired()) {
        auto info = js.streamInfo(name);
        if (info && info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger() >= count)
            return true;
        QThread::msleep(100);
    }
    *error = QStringLiteral("the stream did not reach %1 messages").arg(count);
    return false;
}

int consumerCount(JetStreamClient &js, const QString &stream)
{
    auto info = js.streamInfo(stream);
    return info ? int(info->value(QLatin1String("state")).toObject().value(QLatin1String("consumer_count")).toInteger()) : -1;
}

QStringList consumerNames(JetStreamClient &js, const QString &stream)
{
    QStringList names;
    auto list = js.consumerList(stream);
    if (list)
        for (const QJsonObject &c : *list)
            names << c.value(QLatin1String("name")).toString();
    names.sort();
    return names;
}

} // namespace

class TestStreamReader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void mqttState_data() { addServerVersionRows(); }

    // Real sessions, retained and queued messages made by mosquitto clients are all read.
    void mqttState()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        const bool v29 = server.binary().versionNumber() < QVersionNumber(2, 10);

        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        mqtt.setTimeoutMs(30000);
        const QStringList clients{QStringLiteral("sensor-sub-1"), QStringLiteral("dashboard-2"), QStringLiteral("g1")};
        const QList<QStringList> topics{
            {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, {QStringLiteral("sensors/#")}, {QStringLiteral("queue/me")}};
        for (int i = 0; i < clients.size(); ++i) {
            MqttResult r;
            for (int attempt = 0; attempt < 3 && !r.subscribed(); ++attempt)
                r = mqtt.createPersistentSession(clients[i], topics[i], 1);
            QVERIFY2(r.subscribed(), qPrintable(r.describe()));
        }
        QVERIFY(mqtt.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("sensors/garage/temp"), "9.0", 0, true).acknowledged);
        // Three queued QoS1 messages for the offline session g1 (interest stream $MQTT_msgs).
        for (int i = 1; i <= 3; ++i)
            QVERIFY(mqtt.publish(QStringLiteral("queue/me"), "m" + QByteArray::number(i), 1).acknowledged);

        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc);
        StreamReader reader(nc);
        MessageGetter getter(nc);
        StreamIndex index(nc);
        StreamReader::Options options;
        options.batchSize = 2; // several batches even for a handful of records

        // Sessions: one record per client, on the client's hash subject, with the client's ID.
        Collected sessions;
        auto r = reader.readLastPerSubject(QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT.sess.>"), options, collector(sessions));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(3));
        QVERIFY(!r->cancelled);
        QCOMPARE(sessions.messages.size(), 3);
        QCOMPARE(sessions.batches, 2);
        QVERIFY(sessions.progressOk);
        QCOMPARE(sessions.lastProgress.done, quint64(3));
        QSet<QString> ids;
        for (const StreamMessage &m : sessions.messages) {
            const QJsonObject o = QJsonDocument::fromJson(m.data).object();
            const QString id = o.value(QLatin1String("id")).toString();
            ids.insert(id);
            QCOMPARE(m.subject, QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(id));
            QVERIFY(m.sequence > 0);
            QVERIFY(qAbs(m.time().secsTo(QDateTime::currentDateTimeUtc())) < 600);
            QVERIFY(!m.deleted);
        }
        QCOMPARE(ids, QSet<QString>(clients.begin(), clients.end()));
        QCOMPARE(consumerCount(js, QStringLiteral("$MQTT_sess")), 0); // the ordered consumer is gone

        // Empty filter: the stream's own subject is used.
        Collected sessions2;
        r = reader.readLastPerSubject(QStringLiteral("$MQTT_sess"), {}, {}, collector(sessions2));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(sessions2.messages.size(), 3);

        // Retained messages: 2.9 keeps all on "$MQTT.rmsgs" (read all); 2.10+ one subject per topic.
        Collected retained;
        r = v29 ? reader.readAll(QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT.rmsgs"), {}, collector(retained))
                : reader.readLastPerSubject(QStringLiteral("$MQTT_rmsgs"), {}, {}, collector(retained));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(retained.messages.size(), 2);
        QSet<QByteArray> payloads;
        for (const StreamMessage &m : retained.messages) {
            const QJsonObject o = QJsonDocument::fromJson(m.data).object();
            // JSON encoding (2.9/2.10) carries the payload base64 in "msg"; the header encoding (2.11+) is the payload.
            payloads.insert(o.contains(QLatin1String("msg")) ? QByteArray::fromBase64(o.value(QLatin1String("msg")).toString().toLatin1())
                                                             : m.data);
            if (v29)
                QCOMPARE(m.subject, QStringLiteral("$MQTT.rmsgs"));
        }
        QCOMPARE(payloads, (QSet<QByteArray>{"21.5", "9.0"}));

        // Interest stream by sequence: the retained QoS1 publish (queued for the sensors/ sessions) and
        // the three for g1. Read them, delete "m2", read again: the deleted sequence is reported.
        auto map0 = index.sequenceMap(QStringLiteral("$MQTT_msgs"));
        QVERIFY2(map0.ok(), qPrintable(map0.ok() ? QString() : err(map0.error())));
        QCOMPARE(map0->messages, quint64(4));
        const QList<quint64> live0 = map0->liveSequences();
        QCOMPARE(live0.size(), 4);
        Collected first;
        r = getter.getBySequences(QStringLiteral("$MQTT_msgs"), live0, options, collector(first));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->deleted, quint64(0));
        QHash<QByteArray, quint64> seqOf;
        for (const StreamMessage &m : first.messages)
            seqOf.insert(m.data, m.sequence);
        QVERIFY(seqOf.contains("21.5") && seqOf.contains("m1") && seqOf.contains("m2") && seqOf.contains("m3"));
        auto del = js.call(QStringLiteral("STREAM.MSG.DELETE.$MQTT_msgs"), QJsonObject{{QStringLiteral("seq"), qint64(seqOf["m2"])}});
        QVERIFY2(del.ok(), qPrintable(del.ok() ? QString() : err(del.error())));

        auto map = index.sequenceMap(QStringLiteral("$MQTT_msgs"));
        QVERIFY(map.ok());
        QCOMPARE(map->messages, quint64(3));
        QVERIFY(map->deleted.contains(seqOf["m2"]));
        QCOMPARE(map->liveSequences().size(), 3);
        QVERIFY(!map->liveSequences().contains(seqOf["m2"]));
        const QStringList consumersBefore = consumerNames(js, QStringLiteral("$MQTT_msgs"));
        QVERIFY(!consumersBefore.isEmpty());

        Collected queued;
        r = getter.getBySequences(QStringLiteral("$MQTT_msgs"), {seqOf["m1"], seqOf["m2"], seqOf["m3"]}, options, collector(queued));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(3));
        QCOMPARE(r->deleted, quint64(1));
        QCOMPARE(queued.messages.size(), 3);
        std::sort(queued.messages.begin(), queued.messages.end(),
                  [](const StreamMessage &a, const StreamMessage &b) { return a.sequence < b.sequence; });
        QCOMPARE(queued.messages[0].data, QByteArray("m1"));
        QCOMPARE(queued.messages[0].subject, QStringLiteral("$MQTT.msgs.queue.me"));
        QVERIFY(queued.messages[0].headers.startsWith("NATS/1.0"));
        QVERIFY(queued.messages[0].headers.contains("Nmqtt-Pub"));
        QVERIFY(queued.messages[0].timeNs > 0);
        QVERIFY(queued.messages[1].deleted);
        QCOMPARE(queued.messages[1].sequence, seqOf["m2"]);
        QCOMPARE(queued.messages[2].data, QByteArray("m3"));

        // Browsing never changes a stream: same count, same consumers.
        auto mapAfter = index.sequenceMap(QStringLiteral("$MQTT_msgs"));
        QVERIFY(mapAfter.ok());
        QCOMPARE(mapAfter->messages, quint64(3));
        QCOMPARE(mapAfter->lastSequence, map->lastSequence);
        QCOMPARE(consumerNames(js, QStringLiteral("$MQTT_msgs")), consumersBefore);

        // Subjects with counts.
        auto subjects = index.subjectCounts(QStringLiteral("$MQTT_msgs"));
        QVERIFY2(subjects.ok(), qPrintable(subjects.ok() ? QString() : err(subjects.error())));
        QCOMPARE(subjects->size(), 2);
        QCOMPARE(subjects->first().subject, QStringLiteral("$MQTT.msgs.queue.me"));
        QCOMPARE(subjects->first().messages, quint64(2));
        QCOMPARE(subjects->last().subject, QStringLiteral("$MQTT.msgs.sensors.kitchen.temp"));
    }

    void largeStream_data() { mqttState_data(); }

    // 20,000 records read completely, in order, on distinct subjects; cancel stops early.
    void largeStream()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc);
        QString error;
        QVERIFY2(createLoadStream(js, QStringLiteral("LOADTEST"), QStringLiteral("load.sess.>"), &error), qPrintable(error));
        const int count = 20000;
        QVERIFY2(fillLoadStream(*nc, js, QStringLiteral("LOADTEST"), QStringLiteral("load.sess."), count, &error), qPrintable(error));

        StreamReader reader(nc);

        MessageGetter getter(nc);

        StreamIndex index(nc);
        Collected all;
        auto r = reader.readLastPerSubject(QStringLiteral("LOADTEST"), QStringLiteral("load.sess.>"), {}, collector(all));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(count));
        QCOMPARE(all.messages.size(), count);
        QVERIFY(all.progressOk);
        QCOMPARE(all.lastProgress.done, quint64(count));
        QCOMPARE(all.lastProgress.total, quint64(count));
        QSet<QString> subjects;
        quint64 previous = 0;
        bool ordered = true;
        for (const StreamMessage &m : all.messages) {
            subjects.insert(m.subject);
            ordered = ordered && m.sequence > previous;
            previous = m.sequence;
        }
        QVERIFY(ordered);
        QCOMPARE(subjects.size(), count);
        QCOMPARE(all.messages[12345].subject, QStringLiteral("load.sess.00012345"));
        QCOMPARE(all.messages[12345].data, sessionLikeRecord(12345));
        QCOMPARE(consumerCount(js, QStringLiteral("LOADTEST")), 0);

        // Cancel from the handler's thread after the first batch (the flag may be set from any thread).
        std::atomic<bool> cancel{false};
        StreamReader::Options options;
        options.cancel = &cancel;
        quint64 seen = 0;
        r = reader.readLastPerSubject(QStringLiteral("LOADTEST"), {}, options, [&](QList<StreamMessage> &&batch, const ReadProgress &) {
            seen += quint64(batch.size());
            cancel = true;
            return true;
        });
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QVERIFY(r->cancelled);
        QVERIFY(seen < quint64(count));
        QCOMPARE(r->delivered, seen);

        // The handler saying stop.
        r = reader.readAll(QStringLiteral("LOADTEST"), {}, {}, [](QList<StreamMessage> &&, const ReadProgress &) { return false; });
        QVERIFY(r.ok());
        QVERIFY(r->cancelled);
        QCOMPARE(r->delivered, quint64(1024));
        QTRY_COMPARE_WITH_TIMEOUT(consumerCount(js, QStringLiteral("LOADTEST")), 0, 10000);

        // A filter matching nothing ends at once.
        Collected none;
        r = reader.readLastPerSubject(QStringLiteral("LOADTEST"), QStringLiteral("load.sess.nobody"), {}, collector(none));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(0));

        // Every subject, and a pipelined read by sequence of all of them.
        auto counts = index.subjectCounts(QStringLiteral("LOADTEST"));
        QVERIFY(counts.ok());
        QCOMPARE(counts->size(), count);
        auto map = index.sequenceMap(QStringLiteral("LOADTEST"));
        QVERIFY(map.ok());
        Collected bySeq;
        r = getter.getBySequences(QStringLiteral("LOADTEST"), map->liveSequences(), {}, collector(bySeq));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(count));
        QCOMPARE(r->deleted, quint64(0));
        QCOMPARE(bySeq.messages.size(), count);

        // A missing stream is a NotFound error.
        auto missing = reader.readLastPerSubject(QStringLiteral("NOPE"), QStringLiteral("nope.>"), {}, collector(none));
        QVERIFY(!missing.ok());
    }

    // The server restarts in the middle of a read: the connection reconnects, the reader makes a new
    // consumer from the message after the last one it handed out, and every record arrives once, in order.
    void readSurvivesServerRestart()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest")), qPrintable(server.errorString()));
        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc);
        QString error;
        QVERIFY2(createLoadStream(js, QStringLiteral("LOADTEST"), QStringLiteral("load.sess.>"), &error), qPrintable(error));
        const int count = 20000;
        QVERIFY2(fillLoadStream(*nc, js, QStringLiteral("LOADTEST"), QStringLiteral("load.sess."), count, &error), qPrintable(error));

        StreamReader reader(nc);
        StreamReader::Options options;
        options.batchSize = 500;
        options.idleTimeoutMs = 20000; // the client reconnects within a few seconds
        Collected all;
        bool restarted = false;
        const quint64 consumersBefore = nc->requests().count(RequestCounter::Kind::OrderedConsumer);
        auto r = reader.readAll(QStringLiteral("LOADTEST"), QStringLiteral("load.sess.>"), options,
                                [&](QList<StreamMessage> &&batch, const ReadProgress &p) {
                                    if (!restarted) {
                                        restarted = true;
                                        if (!server.restart())
                                            return false;
                                    }
                                    return collector(all)(std::move(batch), p);
                                });
        QVERIFY(restarted);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? server.errorString() : err(r.error())));
        QVERIFY(!r->cancelled);
        QCOMPARE(all.messages.size(), count);
        for (int i = 0; i < count; ++i)
            QCOMPARE(all.messages[i].sequence, quint64(i + 1));
        QCOMPARE(all.messages[count - 1].data, sessionLikeRecord(count - 1));
        QCOMPARE(nc->requests().count(RequestCounter::Kind::OrderedConsumer) - consumersBefore, 2u); // the first, and one after the restart
        QTRY_COMPARE_WITH_TIMEOUT(consumerCount(js, QStringLiteral("LOADTEST")), 0, 10000);
    }

    void lastPerSubject_data() { mqttState_data(); }

    // A stream keeping several messages per subject: last per subject gives only the newest of each.
    void lastPerSubject()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc);
        QString error;
        QVERIFY2(createLoadStream(js, QStringLiteral("MULTI"), QStringLiteral("multi.>"), &error, -1), qPrintable(error));
        for (int round = 0; round < 3; ++round)
            for (int i = 0; i < 100; ++i)
                QVERIFY(nc->publish(QStringLiteral("multi.%1").arg(i), "round" + QByteArray::number(round)).ok());
        QTRY_COMPARE_WITH_TIMEOUT(
            js.streamInfo(QStringLiteral("MULTI"))->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger(),
            qint64(300), 20000);

        StreamReader reader(nc);

        StreamReader::Options options;
        options.batchSize = 64;
        Collected last;
        auto r = reader.readLastPerSubject(QStringLiteral("MULTI"), QStringLiteral("multi.>"), options, collector(last));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(last.messages.size(), 100);
        QCOMPARE(last.lastProgress.total, quint64(100));
        for (const StreamMessage &m : last.messages)
            QCOMPARE(m.data, QByteArray("round2"));
        Collected all;
        r = reader.readAll(QStringLiteral("MULTI"), {}, options, collector(all));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(all.messages.size(), 300);
        QCOMPARE(all.lastProgress.total, quint64(300));
    }

    // More subjects than the server lists in one STREAM.INFO reply (100,000): subjectCounts() pages.
    void subjectPaging()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9")), qPrintable(server.errorString()));
        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc);
        QString error;
        QVERIFY2(createLoadStream(js, QStringLiteral("MANY"), QStringLiteral("many.>"), &error), qPrintable(error));
        const int count = 100005;
        for (int i = 0; i < count; ++i)
            QVERIFY(nc->publish(QStringLiteral("many.%1").arg(i), "x").ok());
        QTRY_COMPARE_WITH_TIMEOUT(
            js.streamInfo(QStringLiteral("MANY"))->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger(),
            qint64(count), 60000);
        // One reply holds at most 100,000 subjects: paging is needed.
        auto page = js.call(QStringLiteral("STREAM.INFO.MANY"), QJsonObject{{QStringLiteral("subjects_filter"), QStringLiteral("many.>")}});
        QVERIFY(page.ok());
        QVERIFY(page->value(QLatin1String("state")).toObject().value(QLatin1String("subjects")).toObject().size() < count);
        StreamIndex index(nc);
        auto counts = index.subjectCounts(QStringLiteral("MANY"), QStringLiteral("many.>"));
        QVERIFY2(counts.ok(), qPrintable(counts.ok() ? QString() : err(counts.error())));
        QCOMPARE(counts->size(), count);
        QSet<QString> distinct;
        for (const SubjectCount &c : *counts)
            distinct.insert(c.subject);
        QCOMPARE(distinct.size(), count);
    }

    // The JetStream domain prefixes every request.
    void domain()
    {
        ServerConfig config = ServerConfig::standard();
        config.setJetStreamDomain(QStringLiteral("hub"));
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest"), config), qPrintable(server.errorString()));
        auto nc = connectAcme(server);
        QVERIFY(nc);
        JetStreamClient js(nc, QStringLiteral("hub"));
        QString error;
        QVERIFY2(createLoadStream(js, QStringLiteral("DOM"), QStringLiteral("dom.>"), &error), qPrintable(error));
        QVERIFY2(fillLoadStream(*nc, js, QStringLiteral("DOM"), QStringLiteral("dom."), 50, &error), qPrintable(error));

        StreamReader reader(nc, QStringLiteral("hub"));

        MessageGetter getter(nc, QStringLiteral("hub"));

        StreamIndex index(nc, QStringLiteral("hub"));
        Collected all;
        auto r = reader.readLastPerSubject(QStringLiteral("DOM"), {}, {}, collector(all));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(all.messages.size(), 50);
        auto map = index.sequenceMap(QStringLiteral("DOM"));
        QVERIFY(map.ok());
        Collected bySeq;
        r = getter.getBySequences(QStringLiteral("DOM"), map->liveSequences() << 9999, {}, collector(bySeq));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : err(r.error())));
        QCOMPARE(r->delivered, quint64(51));
        QCOMPARE(r->deleted, quint64(1));
    }
};

QTEST_GUILESS_MAIN(TestStreamReader)
#include "tst_streamreader.moc"
