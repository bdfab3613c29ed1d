#include "mqttclientevent.h"

#include <QJsonDocument>

namespace MqttDoctor {

namespace {
const QString kConnectType = QStringLiteral("io.nats.server.advisory.v1.client_connect");
const QString kDisconnectType = QStringLiteral("io.nats.server.advisory.v1.client_disconnect");
} // namespace

QString MqttClientEvent::formatAddress(const QString &host, int port)
{
    if (port <= 0)
        return host;
    return (host.contains(u':') ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(host).arg(port);
}

QString MqttClientEvent::takeoverReason()
{
    return QStringLiteral("Duplicate Client ID");
}

std::optional<MqttClientEvent> MqttClientEvent::fromAdvisory(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    const QString type = o.value(QLatin1String("type")).toString();
    MqttClientEvent e;
    if (type == kConnectType)
        e.kind = Kind::Connect;
    else if (type == kDisconnectType)
        e.kind = Kind::Disconnect;
    else
        return std::nullopt;
    const QJsonObject client = o.value(QLatin1String("client")).toObject();
    if (client.value(QLatin1String("client_type")).toString() != QLatin1String("mqtt"))
        return std::nullopt;
    e.time = QDateTime::fromString(o.value(QLatin1String("timestamp")).toString(), Qt::ISODateWithMs).toUTC();
    e.account = client.value(QLatin1String("acc")).toString();
    e.clientId = client.value(QLatin1String("client_id")).toString();
    e.user = client.value(QLatin1String("user")).toString();
    e.connectionId = quint64(client.value(QLatin1String("id")).toDouble());
    e.address = formatAddress(client.value(QLatin1String("host")).toString(), client.value(QLatin1String("port")).toInt());
    const QJsonObject server = o.value(QLatin1String("server")).toObject();
    e.server = server.value(QLatin1String("name")).toString();
    if (e.server.isEmpty())
        e.server = server.value(QLatin1String("id")).toString();
    if (e.kind == Kind::Disconnect)
        e.reason = o.value(QLatin1String("reason")).toString();
    return e;
}

QJsonObject MqttClientEvent::toJson() const
{
    return QJsonObject{{QStringLiteral("time"), time.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("event"), kind == Kind::Connect ? QStringLiteral("connect") : QStringLiteral("disconnect")},
                       {QStringLiteral("account"), account},
                       {QStringLiteral("client_id"), clientId},
                       {QStringLiteral("server"), server},
                       {QStringLiteral("address"), address},
                       {QStringLiteral("user"), user},
                       {QStringLiteral("cid"), qint64(connectionId)},
                       {QStringLiteral("reason"), kind == Kind::Disconnect ? QJsonValue(reason) : QJsonValue(QJsonValue::Null)}};
}

QString MqttClientEvent::text() const
{
    QString line = QStringLiteral("%1  %2  %3  %4  %5  ")
                       .arg(time.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")), account,
                            clientId.isEmpty() ? QStringLiteral("(no client ID)") : clientId, server, address);
    if (kind == Kind::Connect)
        return line + QStringLiteral("connect");
    return line + QStringLiteral("disconnect") + (reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
}

} // namespace MqttDoctor
