#include "accountsample.h"

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

ConsumerProgress ConsumerProgress::fromInfo(const QString &stream, const QJsonObject &info)
{
    ConsumerProgress p;
    p.stream = stream;
    const QJsonObject delivered = info.value(QLatin1String("delivered")).toObject();
    const QJsonObject ackFloor = info.value(QLatin1String("ack_floor")).toObject();
    p.deliveredConsumerSeq = delivered.value(QLatin1String("consumer_seq")).toInteger();
    p.deliveredStreamSeq = delivered.value(QLatin1String("stream_seq")).toInteger();
    p.ackFloorConsumerSeq = ackFloor.value(QLatin1String("consumer_seq")).toInteger();
    p.ackFloorStreamSeq = ackFloor.value(QLatin1String("stream_seq")).toInteger();
    p.numAckPending = info.value(QLatin1String("num_ack_pending")).toInteger();
    p.numRedelivered = info.value(QLatin1String("num_redelivered")).toInteger();
    p.numPending = info.value(QLatin1String("num_pending")).toInteger();
    p.maxAckPending = info.value(QLatin1String("config")).toObject().value(QLatin1String("max_ack_pending")).toInteger();
    return p;
}

AccountSample AccountSample::of(const AccountInfo &account, const QDateTime &time)
{
    AccountSample s;
    s.account = account.name;
    s.time = time;
    s.api = account.api;
    bool anyListed = false;
    bool allKnown = true;
    for (const StreamInfo &stream : account.streams) {
        if (stream.name != MqttLayout::messagesStream() && stream.name != MqttLayout::outStream())
            continue;
        anyListed = true;
        allKnown = allKnown && stream.consumersKnown;
        for (const QJsonObject &c : stream.consumers)
            s.consumers.insert(c.value(QLatin1String("name")).toString(), ConsumerProgress::fromInfo(stream.name, c));
    }
    // No $MQTT_msgs at all: there is no durable to compare, which is known too.
    s.consumersKnown = account.streamsKnown && (!anyListed || allKnown);
    return s;
}

qint64 AccountSample::secondsSince(const AccountSample &earlier) const
{
    if (!time.isValid() || !earlier.time.isValid())
        return 0;
    return std::max<qint64>(0, earlier.time.secsTo(time));
}

} // namespace MqttDoctor
