#include "systemclient.h"

#include <QJsonDocument>

#include "nats/natsconnection.h"

namespace MqttDoctor {

SystemClient::SystemClient(std::shared_ptr<NatsConnection> connection, int quietMs)
    : m_connection(std::move(connection)), m_quietMs(quietMs)
{
}

Result<SystemClient::Reply> SystemClient::parse(const QByteArray &raw)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &err);
    if (!doc.isObject())
        return Error(Error::Kind::Protocol, QStringLiteral("a system reply is not JSON: ") + err.errorString());
    const QJsonObject obj = doc.object();
    Reply r;
    r.server = obj.value(QLatin1String("server")).toObject();
    r.data = obj.contains(QLatin1String("data")) ? obj.value(QLatin1String("data")).toObject()
                                                 : obj.value(QLatin1String("statsz")).toObject();
    r.error = obj.value(QLatin1String("error")).toObject();
    return r;
}

Result<QList<SystemClient::Reply>> SystemClient::gather(const QString &subject, const QJsonObject &options)
{
    const QByteArray payload = options.isEmpty() ? QByteArray() : QJsonDocument(options).toJson(QJsonDocument::Compact);
    auto raw = m_connection->gather(subject, payload, m_quietMs);
    if (!raw) {
        Error e = raw.error();
        if (e.kind() == Error::Kind::NoResponders || e.kind() == Error::Kind::Timeout
            || e.kind() == Error::Kind::PermissionDenied) {
            const QString role = m_connection->settings().role;
            return Error(Error::Kind::NoSystemAccess,
                         QStringLiteral("no system-account access: %1 was not answered (%2)").arg(subject, e.message()),
                         QStringLiteral("the %1 must be a user of the system account (system_account in the server "
                                        "config); give it with --system-user/--system-password, --system-creds or "
                                        "--system-context").arg(role.isEmpty() ? QStringLiteral("connection") : role))
                .withNatsStatus(e.natsStatus());
        }
        return e;
    }
    QList<Reply> replies;
    for (const NatsReply &r : *raw) {
        auto parsed = parse(r.data);
        if (!parsed)
            return parsed.error();
        replies.append(*parsed);
    }
    return replies;
}

Result<QList<SystemClient::Reply>> SystemClient::ping(const QString &what, const QJsonObject &options)
{
    return gather(QStringLiteral("$SYS.REQ.SERVER.PING.") + what, options);
}

Result<QList<SystemClient::Reply>> SystemClient::account(const QString &account, const QString &what,
                                                         const QJsonObject &options)
{
    return gather(QStringLiteral("$SYS.REQ.ACCOUNT.") + account + QLatin1Char('.') + what, options);
}

} // namespace MqttDoctor
