#include "closedconnections.h"

#include <QJsonArray>
#include <QSet>

namespace MqttDoctor::ClosedConnections {

QList<MqttClientEvent> fromConnz(const QList<SystemClient::Reply> &replies, const QString &account)
{
    QList<MqttClientEvent> out;
    for (const SystemClient::Reply &r : replies) {
        if (!r.error.isEmpty())
            continue;
        const QString server = r.server.value(QLatin1String("name")).toString();
        for (const QJsonValue &v : r.data.value(QLatin1String("connections")).toArray()) {
            // Only these fields are read: the `jwt` field can hold the client's password.
            const QJsonObject c = v.toObject();
            const QString clientId = c.value(QLatin1String("mqtt_client")).toString();
            if (clientId.isEmpty())
                continue;
            MqttClientEvent e;
            e.kind = MqttClientEvent::Kind::Disconnect;
            e.account = account;
            e.clientId = clientId;
            e.server = server;
            e.reason = c.value(QLatin1String("reason")).toString();
            e.connectionId = quint64(c.value(QLatin1String("cid")).toDouble());
            const QString ip = c.value(QLatin1String("ip")).toString();
            const int port = c.value(QLatin1String("port")).toInt();
            e.address = port > 0 ? (ip.contains(u':') ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(ip).arg(port) : ip;
            e.time = QDateTime::fromString(c.value(QLatin1String("stop")).toString(), Qt::ISODateWithMs).toUTC();
            out << e;
        }
    }
    return out;
}

Result<QList<MqttClientEvent>> ofAccount(SystemClient &system, const QString &account, int pageSize)
{
    pageSize = std::max(1, pageSize);
    // ConnzOptions.State is a number in a request: 0 open, 1 closed, 2 any.
    QJsonObject options{{QStringLiteral("state"), 1}, {QStringLiteral("limit"), pageSize}};
    if (!account.isEmpty())
        options.insert(QStringLiteral("acc"), account);
    constexpr int kMaxPages = 200;  // 200 pages of 1,024: more than the servers keep
    QList<MqttClientEvent> all;
    QSet<QString> seen;  // server + cid: a connection seen on two pages counts once
    for (qint64 offset = 0, page = 0; page < kMaxPages; offset += pageSize, ++page) {
        options.insert(QStringLiteral("offset"), offset);
        auto replies = system.ping(QStringLiteral("CONNZ"), options);
        if (!replies)
            return Error(replies.error()).prefixed(QStringLiteral("asking the servers for closed MQTT connections (CONNZ)"));
        bool anyFull = false;
        for (const SystemClient::Reply &r : *replies)
            anyFull = anyFull || r.data.value(QLatin1String("connections")).toArray().size() >= pageSize;
        for (MqttClientEvent &e : fromConnz(*replies, account)) {
            const QString key = e.server + u'\n' + QString::number(e.connectionId);
            if (!seen.contains(key)) {
                seen.insert(key);
                all << std::move(e);
            }
        }
        if (!anyFull)
            break;
    }
    std::sort(all.begin(), all.end(), [](const MqttClientEvent &a, const MqttClientEvent &b) { return a.time < b.time; });
    return all;
}

} // namespace MqttDoctor::ClosedConnections
