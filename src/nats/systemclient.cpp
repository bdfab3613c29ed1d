#include "systemclient.h"

#include <QJsonDocument>

#include "nats/natsconnection.h"

namespace MqttDoctor {

SystemClient::SystemClient(std::shared_ptr<NatsConnection> connection, int quietMs)
    : m_connection(std::move(connection)), m_quietMs(quietMs)
{
}

namespace {

QString excerpt(const QByteArray &data)
{
    QString text = QString::fromUtf8(data.left(120)).simplified();
    if (data.size() > 120)
        text += QStringLiteral("... (%1 bytes)").arg(data.size());
    return text.isEmpty() ? QStringLiteral("(empty)") : text;
}

Error malformed(const QString &subject, const QString &what)
{
    return Error(Error::Kind::Protocol,
                 QStringLiteral("%1: malformed reply: %2").arg(subject.isEmpty() ? QStringLiteral("system request") : subject, what),
                 QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                "answers on $SYS.REQ subjects"));
}

} // namespace

Result<SystemClient::Reply> SystemClient::parse(const QByteArray &raw, const QString &subject)
{
    if (raw.trimmed().isEmpty())
        return malformed(subject, QStringLiteral("the reply is empty"));
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &err);
    if (err.error != QJsonParseError::NoError)
        return malformed(subject, QStringLiteral("the reply is not JSON (%1 at offset %2): %3")
                                      .arg(err.errorString()).arg(err.offset).arg(excerpt(raw)));
    if (!doc.isObject())
        return malformed(subject, QStringLiteral("the reply is not a JSON object: ") + excerpt(raw));
    const QJsonObject obj = doc.object();
    Reply r;
    const QJsonValue server = obj.value(QLatin1String("server"));
    if (!server.isUndefined() && !server.isObject())
        return malformed(subject, QStringLiteral("\"server\" is not an object: ") + excerpt(raw));
    r.server = server.toObject();
    const QJsonValue error = obj.value(QLatin1String("error"));
    if (!error.isUndefined() && !error.isNull()) {
        if (!error.isObject())
            return malformed(subject, QStringLiteral("\"error\" is not an object: ") + excerpt(raw));
        r.error = error.toObject();
        if (r.error.isEmpty())
            r.error.insert(QStringLiteral("description"), QStringLiteral("an empty error"));
        return r;
    }
    const QJsonValue data = obj.contains(QLatin1String("data")) ? obj.value(QLatin1String("data"))
                                                                : obj.value(QLatin1String("statsz"));
    if (!data.isObject())
        return malformed(subject, data.isUndefined() ? QStringLiteral("neither \"data\" nor \"error\": ") + excerpt(raw)
                                                     : QStringLiteral("\"data\" is not an object: ") + excerpt(raw));
    r.data = data.toObject();
    return r;
}

QString SystemClient::describeError(const QJsonObject &error)
{
    const qint64 code = error.value(QLatin1String("code")).toInteger();
    QString description = error.value(QLatin1String("description")).toString().left(300);
    if (description.isEmpty())
        description = QStringLiteral("no description");
    return code ? QStringLiteral("%1 (%2)").arg(description).arg(code) : description;
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
            const bool denied = e.kind() == Error::Kind::PermissionDenied;
            return Error(denied ? Error::Kind::PermissionDenied : Error::Kind::NoSystemAccess,
                         denied ? QStringLiteral("no system-account access: %1").arg(e.message())
                                : QStringLiteral("no system-account access: %1 was not answered (%2)").arg(subject, e.message()),
                         QStringLiteral("the %1 must be a user of the system account (system_account in the server "
                                        "config) allowed to publish to $SYS.REQ.>; give it with --system-user/--system-password, "
                                        "--system-creds or --system-context").arg(role.isEmpty() ? QStringLiteral("connection") : role))
                .withNatsStatus(e.natsStatus());
        }
        return e;
    }
    QList<Reply> replies;
    QStringList errors;
    for (const NatsReply &r : *raw) {
        auto parsed = parse(r.data, subject);
        if (!parsed)
            return parsed.error();
        if (!parsed->error.isEmpty())
            errors.append(describeError(parsed->error));
        replies.append(*parsed);
    }
    if (!replies.isEmpty() && errors.size() == replies.size())
        return Error(Error::Kind::Protocol, QStringLiteral("%1 was answered with an error: %2").arg(subject, errors.first()));
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
