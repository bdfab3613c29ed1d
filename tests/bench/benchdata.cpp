// Test data of bench_sessionload: the records it stores and the consumer index its loader joins with.
#include "benchdata.h"

#include <algorithm>
#include <cstdio>

#include <QElapsedTimer>
#include <QJsonDocument>

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
