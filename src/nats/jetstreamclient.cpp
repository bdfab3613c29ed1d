#include "jetstreamclient.h"

#include <QJsonArray>
#include <QJsonDocument>

#include "nats/natsconnection.h"

namespace MqttDoctor {

JetStreamClient::JetStreamClient(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{
}

QString JetStreamClient::apiSubject(const QString &op) const
{
    if (m_domain.isEmpty())
        return QStringLiteral("$JS.API.") + op;
    return QStringLiteral("$JS.") + m_domain + QStringLiteral(".API.") + op;
}

Error JetStreamClient::errorFromReply(const QJsonObject &error, const QString &op)
{
    const int errCode = error.value(QLatin1String("err_code")).toInt();
    const int code = error.value(QLatin1String("code")).toInt();
    const QString description = error.value(QLatin1String("description")).toString();
    Error e(errCode == 10059 || errCode == 10014 || errCode == 10037 ? Error::Kind::NotFound : Error::Kind::JetStream,
            QStringLiteral("JetStream %1 failed: %2 (%3)").arg(op, description, QString::number(errCode ? errCode : code)));
    if (errCode == 10039)
        e.withHint(QStringLiteral("enable JetStream for the account in the server configuration"));
    e.withJsErrCode(errCode);
    return e;
}

Result<QJsonObject> JetStreamClient::call(const QString &op, const QJsonObject &body)
{
    const QByteArray payload = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    auto reply = m_connection->request(apiSubject(op), payload);
    if (!reply) {
        Error e = reply.error();
        if (e.kind() == Error::Kind::NoResponders)
            return Error(Error::Kind::JetStream,
                         QStringLiteral("JetStream %1: no JetStream responds for this account%2").arg(
                             op, m_domain.isEmpty() ? QString() : QStringLiteral(" in domain ") + m_domain),
                         QStringLiteral("JetStream is not enabled for the account, or the domain is wrong"))
                .withNatsStatus(e.natsStatus())
                .withJsErrCode(10039);
        return e.prefixed(QStringLiteral("JetStream ") + op);
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(reply->data, &parseError);
    if (!doc.isObject())
        return Error(Error::Kind::Protocol, QStringLiteral("JetStream %1: the reply is not JSON: %2").arg(op, parseError.errorString()));
    const QJsonObject obj = doc.object();
    if (obj.contains(QLatin1String("error")))
        return errorFromReply(obj.value(QLatin1String("error")).toObject(), op);
    return obj;
}

Result<QJsonObject> JetStreamClient::accountInfo()
{
    return call(QStringLiteral("INFO"));
}

namespace {

// The list endpoints page with {offset}, answering {total, offset, limit, <key>: [...]}.
template<typename Fn>
Result<void> forEachPage(JetStreamClient &js, const QString &op, QJsonObject body, const QString &key, Fn fn)
{
    int offset = 0;
    for (int guard = 0; guard < 100000; ++guard) {
        body.insert(QStringLiteral("offset"), offset);
        auto reply = js.call(op, body);
        if (!reply)
            return reply.error();
        const QJsonArray items = reply->value(key).toArray();
        for (const QJsonValue &v : items)
            fn(v);
        offset += static_cast<int>(items.size());
        const int total = reply->value(QLatin1String("total")).toInt();
        if (items.isEmpty() || offset >= total)
            return {};
    }
    return {};
}

} // namespace

Result<QStringList> JetStreamClient::streamNames(const QString &subjectFilter)
{
    QStringList names;
    QJsonObject body;
    if (!subjectFilter.isEmpty())
        body.insert(QStringLiteral("subject"), subjectFilter);
    auto r = forEachPage(*this, QStringLiteral("STREAM.NAMES"), body, QStringLiteral("streams"),
                         [&](const QJsonValue &v) { names.append(v.toString()); });
    if (!r)
        return r.error();
    names.sort();
    return names;
}

Result<QJsonObject> JetStreamClient::streamInfo(const QString &name)
{
    return call(QStringLiteral("STREAM.INFO.") + name);
}

Result<QList<QJsonObject>> JetStreamClient::streamList(const QString &subjectFilter)
{
    QList<QJsonObject> streams;
    QJsonObject body;
    if (!subjectFilter.isEmpty())
        body.insert(QStringLiteral("subject"), subjectFilter);
    auto r = forEachPage(*this, QStringLiteral("STREAM.LIST"), body, QStringLiteral("streams"),
                         [&](const QJsonValue &v) { streams.append(v.toObject()); });
    if (!r)
        return r.error();
    return streams;
}

Result<QList<QJsonObject>> JetStreamClient::consumerList(const QString &stream)
{
    QList<QJsonObject> consumers;
    auto r = forEachPage(*this, QStringLiteral("CONSUMER.LIST.") + stream, {}, QStringLiteral("consumers"),
                         [&](const QJsonValue &v) { consumers.append(v.toObject()); });
    if (!r)
        return r.error();
    return consumers;
}

} // namespace MqttDoctor
