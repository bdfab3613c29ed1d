#include "clusterjson.h"

#include <QJsonArray>

namespace MqttDoctor::ClusterJson {

QJsonObject server(const ServerInfo &s)
{
    QJsonObject o{{QStringLiteral("name"), s.name},
                  {QStringLiteral("id"), s.id},
                  {QStringLiteral("version"), s.version},
                  {QStringLiteral("cluster"), s.cluster},
                  {QStringLiteral("host"), s.host},
                  {QStringLiteral("jetstream"), s.jetstream},
                  {QStringLiteral("js_domain"), s.jsDomain},
                  {QStringLiteral("gateway"),
                   s.gateway.isEmpty()
                       ? QJsonValue(QJsonValue::Null)
                       : QJsonValue(QJsonObject{{QStringLiteral("name"), s.gateway},
                                                {QStringLiteral("remotes"), QJsonArray::fromStringList(s.gatewayRemotes)}})},
                  {QStringLiteral("leafnodes"),
                   QJsonObject{{QStringLiteral("listener"), s.leafListener}, {QStringLiteral("remotes"), s.leafRemotes}}}};
    if (!s.mqttKnown)
        o.insert(QStringLiteral("mqtt"), QJsonValue(QJsonValue::Null));
    else if (s.mqttPort > 0)
        o.insert(QStringLiteral("mqtt"), QJsonObject{{QStringLiteral("host"), s.mqttHost}, {QStringLiteral("port"), s.mqttPort}});
    else
        o.insert(QStringLiteral("mqtt"), false);
    return o;
}

QJsonObject account(const AccountInfo &a)
{
    QJsonArray mqtt;
    for (const StreamInfo &s : a.streams)
        if (s.isMqtt())
            mqtt.append(s.name);
    QJsonObject o{{QStringLiteral("name"), a.name},
                  {QStringLiteral("system"), a.isSystem},
                  {QStringLiteral("jetstream"), a.jetstreamKnown ? QJsonValue(a.jetstream) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("limits"), a.limitsKnown ? QJsonValue(a.limits) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("memory"), a.memory},
                  {QStringLiteral("storage"), a.storage},
                  {QStringLiteral("streams"), a.streamsKnown ? QJsonValue(a.streamCount) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("consumers"), a.streamsKnown ? QJsonValue(a.consumerCount) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("mqtt_streams"), a.streamsKnown ? QJsonValue(mqtt) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("source"), a.source}};
    return o;
}

QJsonObject consumer(const QJsonObject &info)
{
    QJsonObject o{{QStringLiteral("name"), info.value(QLatin1String("name"))},
                  {QStringLiteral("config"), info.value(QLatin1String("config"))},
                  {QStringLiteral("num_pending"), info.value(QLatin1String("num_pending")).toInteger()},
                  {QStringLiteral("num_ack_pending"), info.value(QLatin1String("num_ack_pending")).toInteger()},
                  {QStringLiteral("num_redelivered"), info.value(QLatin1String("num_redelivered")).toInteger()}};
    if (info.contains(QLatin1String("cluster")))
        o.insert(QStringLiteral("cluster"), info.value(QLatin1String("cluster")));
    return o;
}

QJsonObject stream(const StreamInfo &s)
{
    QJsonObject o{{QStringLiteral("name"), s.name},       {QStringLiteral("legacy"), s.isLegacySession()},
                  {QStringLiteral("config"), s.config},   {QStringLiteral("state"), s.state},
                  {QStringLiteral("created"), s.created}, {QStringLiteral("source"), s.source}};
    if (!s.cluster.isEmpty())
        o.insert(QStringLiteral("cluster"), s.cluster);
    if (s.consumersKnown) {
        QJsonArray consumers;
        for (const QJsonObject &c : s.consumers)
            consumers.append(consumer(c));
        o.insert(QStringLiteral("consumers"), consumers);
    } else {
        o.insert(QStringLiteral("consumers"), QJsonValue(QJsonValue::Null));
    }
    return o;
}

} // namespace MqttDoctor::ClusterJson
