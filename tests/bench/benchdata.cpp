// Test data of bench_sessionload: the records it stores and the consumer index its loader joins with.
#include "benchdata.h"

#include <algorithm>
#include <cstdio>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include "mqtt/clientidhash.h"

namespace MqttDoctor::BenchData {

QByteArray durableOf(const QByteArray &hash, int i)
{
    return hash + "_VLQy5y60qFRsGvLlBv" + QByteArray::number(i).rightJustified(6, '0');
}

// ~300 bytes, like a real record with one QoS1 subscription.
QByteArray sessionRecord(const QByteArray &clientId, const QByteArray &hash, int i)
{
    return "{\"origin\":\"DiAi4bSi\",\"id\":\"" + clientId
        + "\",\"subs\":{\"sensors.*.temp\":1},"
          "\"cons\":{\"sensors.*.temp\":{\"durable_name\":\""
        + durableOf(hash, i)
        + "\",\"deliver_policy\":\"new\",\"ack_policy\":\"explicit\",\"ack_wait\":30000000000,"
          "\"filter_subject\":\"$MQTT.msgs.sensors.*.temp\",\"replay_policy\":\"instant\",\"max_ack_pending\":1024,"
          "\"deliver_subject\":\"$MQTT.sub.VLQy5y60qFRsGvLlBvebjS\",\"num_replicas\":0}}}";
}

QByteArray sessionRecordQos0(const QByteArray &clientId)
{
    return "{\"origin\":\"DiAi4bSi\",\"id\":\"" + clientId + "\",\"subs\":{\"sensors.*.temp\":0}}";
}

bool check(natsStatus s, const char *what)
{
    if (s == NATS_OK)
        return true;
    std::fprintf(stderr, "%s: %s\n", what, natsStatus_GetText(s));
    return false;
}

natsConnection *rawConnect(const QByteArray &url)
{
    natsOptions *opts = nullptr;
    natsConnection *nc = nullptr;
    if (!check(natsOptions_Create(&opts), "options"))
        return nullptr;
    natsOptions_SetURL(opts, url.constData());
    natsOptions_SetUserInfo(opts, User, Password);
    natsOptions_SetTimeout(opts, 10000);
    const natsStatus s = natsConnection_Connect(&nc, opts);
    natsOptions_Destroy(opts);
    return check(s, "connect") ? nc : nullptr;
}

std::shared_ptr<NatsConnection> ourConnection(const QString &url)
{
    ConnectionSettings settings;
    settings.servers = {url};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = QString::fromLatin1(User);
    settings.credentials.password = QString::fromLatin1(Password);
    settings.timeoutMs = 10000;
    auto nc = NatsConnection::connect(settings);
    if (!nc) {
        std::fprintf(stderr, "%s\n", qPrintable(nc.error().toString()));
        return nullptr;
    }
    return *nc;
}

double median(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// ---- fill (parent) ----

namespace {

bool addStream(jsCtx *js, const char *name, const char *subject, int64_t maxPerSubject)
{
    jsStreamConfig cfg;
    jsStreamConfig_Init(&cfg);
    cfg.Name = name;
    const char *subjects[] = {subject};
    cfg.Subjects = subjects;
    cfg.SubjectsLen = 1;
    cfg.Storage = js_FileStorage;
    cfg.Retention = js_LimitsPolicy;
    cfg.MaxMsgsPerSubject = maxPerSubject;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    return check(js_AddStream(nullptr, js, &cfg, nullptr, &jerr), name);
}

// `requests` (subject, payload) with at most `window` in flight over one wildcard reply subscription; the
// number of replies without an "error" member, -1 when a request could not be sent or a reply did not come.
qint64 pipelined(natsConnection *nc, const QList<std::pair<QByteArray, QByteArray>> &requests, int window)
{
    natsInbox *inbox = nullptr;
    if (!check(natsInbox_Create(&inbox), "inbox"))
        return -1;
    const QByteArray prefix = QByteArray(inbox) + '.';
    natsInbox_Destroy(inbox);
    natsSubscription *sub = nullptr;
    if (!check(natsConnection_SubscribeSync(&sub, nc, QByteArray(prefix + '*').constData()), "reply subscription"))
        return -1;
    natsSubscription_SetPendingLimits(sub, -1, -1);
    qint64 sent = 0, received = 0, succeeded = 0;
    bool ok = true;
    while (ok && received < requests.size()) {
        while (ok && sent < requests.size() && sent - received < window) {
            const auto &[subject, payload] = requests.at(sent);
            ok = check(natsConnection_PublishRequest(nc, subject.constData(), QByteArray(prefix + QByteArray::number(sent)).constData(),
                                                     payload.constData(), int(payload.size())),
                       "request");
            ++sent;
        }
        natsMsg *m = nullptr;
        ok = ok && check(natsSubscription_NextMsg(&m, sub, 60000), "reply");
        if (!ok)
            break;
        const QByteArray reply(natsMsg_GetData(m), natsMsg_GetDataLength(m));
        if (!reply.contains("\"error\""))
            ++succeeded;
        else if (received - succeeded < 3)
            std::fprintf(stderr, "%s: %s\n", natsMsg_GetSubject(m), reply.left(300).constData());
        ++received;
        natsMsg_Destroy(m);
    }
    natsSubscription_Destroy(sub);
    return ok ? succeeded : -1;
}

// A JetStream API request's reply as JSON (an empty object when none came, the error printed).
QJsonObject apiRequest(natsConnection *nc, const QByteArray &subject, const QByteArray &payload = {})
{
    natsMsg *reply = nullptr;
    if (!check(natsConnection_Request(&reply, nc, subject.constData(), payload.constData(), int(payload.size()), 30000),
               subject.constData()))
        return {};
    const QJsonObject json = QJsonDocument::fromJson(QByteArray(natsMsg_GetData(reply), natsMsg_GetDataLength(reply))).object();
    natsMsg_Destroy(reply);
    return json;
}

} // namespace

// The sessions and 2.9's retained layout (JSON on the single subject `$MQTT.rmsgs`).
bool fill(const QByteArray &url, int records, int retained, bool qos0)
{
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return false;
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.PublishAsync.MaxPending = 4096;
    // Wait for acks when 4096 are pending (nats.c gives up after 200 ms: a loaded machine is slower than that).
    jo.PublishAsync.StallWait = 30000;
    jsCtx *js = nullptr;
    if (!check(natsConnection_JetStream(&js, nc, &jo), "jetstream"))
        return false;
    bool ok = addStream(js, "$MQTT_sess", "$MQTT.sess.>", 1) && addStream(js, "$MQTT_rmsgs", "$MQTT.rmsgs", -1);
    QElapsedTimer t;
    t.start();
    for (int i = 0; ok && i < records; ++i) {
        const QByteArray id = "client-" + QByteArray::number(i).rightJustified(8, '0');
        const QByteArray hash = ClientIdHash::hash(QString::fromLatin1(id)).toLatin1();
        const QByteArray subject = "$MQTT.sess." + hash;
        const QByteArray body = qos0 ? sessionRecordQos0(id) : sessionRecord(id, hash, i);
        natsMsg *m = nullptr;
        ok = check(natsMsg_Create(&m, subject.constData(), nullptr, body.constData(), int(body.size())), "msg");
        // Saves after the first carry the optimistic lock header; 0 = "no message on the subject yet".
        natsMsgHeader_Set(m, "Nats-Expected-Last-Subject-Sequence", "0");
        ok = ok && check(js_PublishMsgAsync(js, &m, nullptr), "publish session");
        if (m)
            natsMsg_Destroy(m);
    }
    for (int i = 0; ok && i < retained; ++i) {
        const QByteArray topic = "sensors/room" + QByteArray::number(i) + "/temp";
        QByteArray natsSubject = topic;
        natsSubject.replace('/', '.');
        const QByteArray payload = "{\"celsius\":" + QByteArray::number(15 + i % 20) + ".5,\"sensor\":" + QByteArray::number(i) + "}";
        const QByteArray json = "{\"origin\":\"DiAi4bSi\",\"subject\":\"" + natsSubject + "\",\"topic\":\"" + topic + "\",\"msg\":\""
            + payload.toBase64() + "\",\"flags\":3,\"source\":\"acme\"}";
        ok = check(js_PublishAsync(js, "$MQTT.rmsgs", json.constData(), int(json.size()), nullptr), "publish retained json");
    }
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 120000;
    ok = ok && check(js_PublishAsyncComplete(js, &po), "publish complete");
    const double s = double(t.nsecsElapsed()) / 1e9;
    std::printf("fill: %d session records + %d retained (JSON) in %.2f s (%.0f msgs/s, js_PublishAsync, 4096 pending)\n", records, retained,
                s, double(records + retained) / s);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    return ok;
}

// 2.11+'s retained layout: `$MQTT_rmsgs` re-created per subject, header encoding, payload as body.
bool fillRetainedHeaders(const QByteArray &url, int retained)
{
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return false;
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.PublishAsync.MaxPending = 4096;
    // Wait for acks when 4096 are pending (nats.c gives up after 200 ms: a loaded machine is slower than that).
    jo.PublishAsync.StallWait = 30000;
    jsCtx *js = nullptr;
    if (!check(natsConnection_JetStream(&js, nc, &jo), "jetstream"))
        return false;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    bool ok =
        check(js_DeleteStream(js, "$MQTT_rmsgs", nullptr, &jerr), "delete $MQTT_rmsgs") && addStream(js, "$MQTT_rmsgs", "$MQTT.rmsgs.>", 1);
    for (int i = 0; ok && i < retained; ++i) {
        const QByteArray topic = "sensors/room" + QByteArray::number(i) + "/temp";
        QByteArray natsSubject = topic;
        natsSubject.replace('/', '.');
        const QByteArray payload = "{\"celsius\":" + QByteArray::number(15 + i % 20) + ".5,\"sensor\":" + QByteArray::number(i) + "}";
        const QByteArray hdrSubject = "$MQTT.rmsgs." + natsSubject;
        natsMsg *m = nullptr;
        ok = check(natsMsg_Create(&m, hdrSubject.constData(), nullptr, payload.constData(), int(payload.size())), "msg");
        natsMsgHeader_Set(m, "Nmqtt-RTopic", topic.constData());
        natsMsgHeader_Set(m, "Nmqtt-RFlags", "3");
        natsMsgHeader_Set(m, "Nmqtt-ROrigin", "DiAi4bSi");
        natsMsgHeader_Set(m, "Nmqtt-RSource", "acme");
        ok = ok && check(js_PublishMsgAsync(js, &m, nullptr), "publish retained headers");
        if (m)
            natsMsg_Destroy(m);
    }
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 120000;
    ok = ok && check(js_PublishAsyncComplete(js, &po), "publish complete");
    std::printf("fill: $MQTT_rmsgs re-created per subject with %d retained messages in the header encoding\n", retained);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    return ok;
}

// $MQTT_msgs as nats-server makes it, and the durable of each record with the config the record holds.
bool createDurables(const QByteArray &url, int records, int window, int maxConsumers)
{
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return false;
    const QJsonObject info = apiRequest(nc, "$JS.API.STREAM.INFO.$MQTT_msgs");
    bool ok = !info.isEmpty();
    if (ok && info.contains(QLatin1String("error"))) {
        QByteArray config = R"({"name":"$MQTT_msgs","subjects":["$MQTT.msgs.>"],"retention":"interest","storage":"file",)"
                            R"("num_replicas":1,"max_msgs":-1,"max_bytes":-1,"max_age":0,"max_msgs_per_subject":-1,)"
                            R"("discard":"old","duplicate_window":120000000000)";
        if (maxConsumers > 0)
            config += ",\"max_consumers\":" + QByteArray::number(maxConsumers);
        config += '}';
        const QJsonObject created = apiRequest(nc, "$JS.API.STREAM.CREATE.$MQTT_msgs", config);
        ok = !created.isEmpty() && !created.contains(QLatin1String("error"));
        if (!ok)
            std::fprintf(stderr, "create $MQTT_msgs: %s\n", QJsonDocument(created).toJson(QJsonDocument::Compact).constData());
    }
    QList<std::pair<QByteArray, QByteArray>> requests;
    requests.reserve(records);
    for (int i = 0; ok && i < records; ++i) {
        const QByteArray id = "client-" + QByteArray::number(i).rightJustified(8, '0');
        const QByteArray durable = durableOf(ClientIdHash::hash(QString::fromLatin1(id)).toLatin1(), i);
        requests.append({"$JS.API.CONSUMER.DURABLE.CREATE.$MQTT_msgs." + durable,
                         R"({"stream_name":"$MQTT_msgs","config":{"durable_name":")" + durable
                             + R"(","deliver_subject":"$MQTT.sub.VLQy5y60qFRsGvLlBvebjS","deliver_policy":"new",)"
                               R"("ack_policy":"explicit","ack_wait":30000000000,"filter_subject":"$MQTT.msgs.sensors.*.temp",)"
                               R"("replay_policy":"instant","max_ack_pending":1024}})"});
    }
    QElapsedTimer t;
    t.start();
    const qint64 created = ok ? pipelined(nc, requests, window) : -1;
    const double s = double(t.nsecsElapsed()) / 1e9;
    ok = created == records;
    std::printf("durables: %lld of %d created on $MQTT_msgs in %.2f s (%.0f/s, %d requests in flight)\n", static_cast<long long>(created),
                records, s, double(std::max<qint64>(created, 0)) / s, window);
    natsConnection_Destroy(nc);
    return ok;
}

SessionCounts sessionCounts(const QByteArray &url)
{
    SessionCounts counts;
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return counts;
    const QJsonObject sess = apiRequest(nc, "$JS.API.STREAM.INFO.$MQTT_sess");
    const QJsonObject msgs = apiRequest(nc, "$JS.API.STREAM.INFO.$MQTT_msgs");
    natsConnection_Destroy(nc);
    for (const auto &[json, name] : {std::pair{sess, "$MQTT_sess"}, std::pair{msgs, "$MQTT_msgs"}})
        if (!json.contains(QLatin1String("state")))
            std::fprintf(stderr, "stream info %s: %s\n", name, QJsonDocument(json).toJson(QJsonDocument::Compact).constData());
    if (sess.contains(QLatin1String("state")))
        counts.records = sess.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger(-1);
    if (msgs.contains(QLatin1String("state")))
        counts.durables = msgs.value(QLatin1String("state")).toObject().value(QLatin1String("consumer_count")).toInteger(-1);
    return counts;
}

bool purgeStream(const QByteArray &url, const QByteArray &stream)
{
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return false;
    const QJsonObject reply = apiRequest(nc, "$JS.API.STREAM.PURGE." + stream);
    natsConnection_Destroy(nc);
    const bool ok = reply.value(QLatin1String("success")).toBool();
    if (!ok)
        std::fprintf(stderr, "purge %s: %s\n", stream.constData(), QJsonDocument(reply).toJson(QJsonDocument::Compact).constData());
    return ok;
}

// What CONSUMER.LIST returns for the durable of record i, as SessionLoader::loadConsumers indexes it.
SessionLoader::ConsumerIndex consumerIndex(int records)
{
    SessionLoader::ConsumerIndex index;
    index.reserve(records);
    QList<QJsonObject> chunk;
    for (int i = 0; i < records; ++i) {
        const QByteArray id = "client-" + QByteArray::number(i).rightJustified(8, '0');
        const QByteArray hash = ClientIdHash::hash(QString::fromLatin1(id)).toLatin1();
        const QByteArray durable = durableOf(hash, i);
        const QByteArray info = "{\"stream_name\":\"$MQTT_msgs\",\"name\":\"" + durable
            + "\",\"created\":\"2026-12-02T15:50:37.344798216Z\","
              "\"config\":{\"durable_name\":\""
            + durable + "\",\"name\":\"" + durable
            + "\",\"deliver_policy\":\"new\","
              "\"ack_policy\":\"explicit\",\"ack_wait\":30000000000,\"max_deliver\":-1,\"filter_subject\":\"$MQTT.msgs.sensors.*.temp\","
              "\"replay_policy\":\"instant\",\"max_ack_pending\":1024,\"deliver_subject\":\"$MQTT.sub.VLQy5y60qFRsGvLlBvebjS\","
              "\"num_replicas\":0},\"delivered\":{\"consumer_seq\":0,\"stream_seq\":0},\"ack_floor\":{\"consumer_seq\":0,"
              "\"stream_seq\":0},\"num_ack_pending\":"
            + QByteArray::number(i % 3)
            + ",\"num_redelivered\":0,\"num_waiting\":0,"
              "\"num_pending\":"
            + QByteArray::number(i % 7) + ",\"push_bound\":false}";
        chunk.append(QJsonDocument::fromJson(info).object());
        if (chunk.size() == 1000 || i == records - 1) {
            SessionLoader::indexConsumers(index, QStringLiteral("$MQTT_msgs"), chunk);
            chunk.clear();
        }
    }
    return index;
}

} // namespace MqttDoctor::BenchData
