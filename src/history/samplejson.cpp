#include "samplejson.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

QJsonArray pair(qint64 a, qint64 b)
{
    return {a, b};
}

} // namespace

QJsonObject SampleJson::toJson(const AccountSample &sample)
{
    QJsonObject o{{QStringLiteral("time"), sample.time.toUTC().toString(Qt::ISODateWithMs)},
                  {QStringLiteral("consumers_known"), sample.consumersKnown}};
    if (sample.api)
        o.insert(QStringLiteral("api"),
                 QJsonObject{{QStringLiteral("total"), sample.api->total},
                             {QStringLiteral("errors"), sample.api->errors},
                             {QStringLiteral("source"), sample.api->source},
                             {QStringLiteral("servers"), sample.api->servers}});
    QJsonObject consumers;
    for (auto it = sample.consumers.cbegin(); it != sample.consumers.cend(); ++it) {
        const ConsumerProgress &c = it.value();
        consumers.insert(it.key(),
                         QJsonObject{{QStringLiteral("stream"), c.stream},
                                     {QStringLiteral("delivered"), pair(c.deliveredConsumerSeq, c.deliveredStreamSeq)},
                                     {QStringLiteral("ack_floor"), pair(c.ackFloorConsumerSeq, c.ackFloorStreamSeq)},
                                     {QStringLiteral("ack_pending"), c.numAckPending},
                                     {QStringLiteral("redelivered"), c.numRedelivered},
                                     {QStringLiteral("pending"), c.numPending},
                                     {QStringLiteral("max_ack_pending"), c.maxAckPending}});
    }
    o.insert(QStringLiteral("consumers"), consumers);
    return o;
}

std::optional<AccountSample> SampleJson::fromJson(const QString &account, const QJsonObject &json)
{
    AccountSample s;
    s.account = account;
    s.time = QDateTime::fromString(json.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
    if (!s.time.isValid())
        return std::nullopt;
    s.consumersKnown = json.value(QLatin1String("consumers_known")).toBool();
    if (const QJsonObject api = json.value(QLatin1String("api")).toObject(); !api.isEmpty()) {
        JetStreamApiCounts counts;
        counts.total = api.value(QLatin1String("total")).toInteger();
        counts.errors = api.value(QLatin1String("errors")).toInteger();
        counts.source = api.value(QLatin1String("source")).toString();
        counts.servers = api.value(QLatin1String("servers")).toInt();
        s.api = counts;
    }
    const QJsonObject consumers = json.value(QLatin1String("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        ConsumerProgress p;
        p.stream = c.value(QLatin1String("stream")).toString();
        const QJsonArray delivered = c.value(QLatin1String("delivered")).toArray();
        const QJsonArray ackFloor = c.value(QLatin1String("ack_floor")).toArray();
        p.deliveredConsumerSeq = delivered.at(0).toInteger();
        p.deliveredStreamSeq = delivered.at(1).toInteger();
        p.ackFloorConsumerSeq = ackFloor.at(0).toInteger();
        p.ackFloorStreamSeq = ackFloor.at(1).toInteger();
        p.numAckPending = c.value(QLatin1String("ack_pending")).toInteger();
        p.numRedelivered = c.value(QLatin1String("redelivered")).toInteger();
        p.numPending = c.value(QLatin1String("pending")).toInteger();
        p.maxAckPending = c.value(QLatin1String("max_ack_pending")).toInteger();
        s.consumers.insert(it.key(), p);
    }
    return s;
}

} // namespace MqttDoctor
