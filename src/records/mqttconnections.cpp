#include "mqttconnections.h"

#include <QJsonArray>
#include <QSet>

namespace MqttDoctor {

QJsonObject MqttConnection::toJson() const
{
    QJsonObject o{{QStringLiteral("client_id"), clientId}, {QStringLiteral("server"), serverName},
                  {QStringLiteral("server_id"), serverId}, {QStringLiteral("server_version"), serverVersion},
                  {QStringLiteral("cid"), qint64(cid)},    {QStringLiteral("address"), address}};
    if (start.isValid())
        o.insert(QStringLiteral("start"), start.toString(Qt::ISODateWithMs));
    return o;
}

namespace MqttConnections {

QList<MqttConnection> fromConnz(const QList<SystemClient::Reply> &replies)
{
    QList<MqttConnection> out;
    for (const SystemClient::Reply &r : replies) {
        if (!r.error.isEmpty())
            continue;
        for (const QJsonValue &v : r.data.value(QLatin1String("connections")).toArray()) {
            const QJsonObject c = v.toObject();
            if (!c.value(QLatin1String("stop")).toString().isEmpty())
                continue;
            MqttConnection m;
            m.clientId = c.value(QLatin1String("mqtt_client")).toString();
            if (m.clientId.isEmpty())
                continue;
            m.serverId = r.server.value(QLatin1String("id")).toString();
            m.serverName = r.server.value(QLatin1String("name")).toString();
            m.serverVersion = r.server.value(QLatin1String("ver")).toString();
            m.cid = quint64(c.value(QLatin1String("cid")).toInteger());
            m.address = QStringLiteral("%1:%2").arg(c.value(QLatin1String("ip")).toString()).arg(c.value(QLatin1String("port")).toInt());
            m.start = QDateTime::fromString(c.value(QLatin1String("start")).toString(), Qt::ISODateWithMs).toUTC();
            out.append(m);
        }
    }
    return out;
}

Result<QList<MqttConnection>> find(SystemClient &system, const QString &account, const QStringList &clientIds)
{
    // One client: CONNZ filters by it on every server; several or all: the account's MQTT connections, paged.
    constexpr int kPage = 2048;
    constexpr int kMaxPages = 500;
    QJsonObject options{{QStringLiteral("limit"), kPage}};
    if (!account.isEmpty())
        options.insert(QStringLiteral("acc"), account);
    if (clientIds.size() == 1)
        options.insert(QStringLiteral("mqtt_client"), clientIds.first());
    const QSet<QString> wanted(clientIds.cbegin(), clientIds.cend());
    QList<MqttConnection> out;
    QSet<QString> seen;
    for (int page = 0; page < kMaxPages; ++page) {
        options.insert(QStringLiteral("offset"), page * kPage);
        auto replies = system.ping(QStringLiteral("CONNZ"), options);
        if (!replies)
            return Error(replies.error()).prefixed(QStringLiteral("asking the servers for MQTT connections (CONNZ)"));
        bool anyFull = false;
        qsizetype fresh = 0;
        for (const SystemClient::Reply &r : *replies)
            anyFull = anyFull || r.data.value(QLatin1String("connections")).toArray().size() >= kPage;
        for (MqttConnection &m : fromConnz(*replies)) {
            const QString key = m.serverId + u'\n' + QString::number(m.cid);
            if (seen.contains(key))
                continue;
            seen.insert(key);
            ++fresh;
            if (wanted.isEmpty() || wanted.contains(m.clientId))
                out.append(std::move(m));
        }
        if (!anyFull || fresh == 0)
            return out;
    }
    return Error(Error::Kind::Protocol,
                 QStringLiteral("asking the servers for MQTT connections (CONNZ): still full pages after %1 requests").arg(kMaxPages));
}

} // namespace MqttConnections
} // namespace MqttDoctor
