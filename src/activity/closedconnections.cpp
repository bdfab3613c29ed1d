#include "closedconnections.h"

#include <QJsonArray>

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
            e.address = MqttClientEvent::formatAddress(c.value(QLatin1String("ip")).toString(), c.value(QLatin1String("port")).toInt());
            e.time = QDateTime::fromString(c.value(QLatin1String("stop")).toString(), Qt::ISODateWithMs).toUTC();
            out << e;
        }
    }
    return out;
}

} // namespace MqttDoctor::ClosedConnections
