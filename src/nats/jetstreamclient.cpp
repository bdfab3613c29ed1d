#include "jetstreamclient.h"

#include <QJsonArray>
#include <QJsonDocument>

#include "common/jsontypename.h"
#include "nats/jserrors.h"
#include "nats/natsconnection.h"

namespace MqttDoctor {

JetStreamClient::JetStreamClient(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{}

QString JetStreamClient::apiSubject(const QString &domain, const QString &op)
{
    if (domain.isEmpty())
        return QStringLiteral("$JS.API.") + op;
    return QStringLiteral("$JS.") + domain + QStringLiteral(".API.") + op;
}

namespace {

constexpr int kMaxPages = 10000; // 10,000 pages of 256: far beyond any real account
constexpr qsizetype kMaxItems = 2'000'000; // e.g. consumers of 1M sessions with two subscriptions each

// A short, printable excerpt of a reply for messages.
QString excerpt(const QByteArray &data)
{
    QString text = QString::fromUtf8(data.left(120)).simplified();
    if (data.size() > 120)
        text += QStringLiteral("... (%1 bytes)").arg(data.size());
    return text.isEmpty() ? QStringLiteral("(empty)") : text;
}

} // namespace

Error JetStreamClient::errorFromReply(const QJsonObject &error, const QString &op)
{
    const qint64 errCode64 = error.value(QLatin1String("err_code")).toInteger();
    const qint64 code64 = error.value(QLatin1String("code")).toInteger();
    // Codes outside int range are garbage: keep them out of the int fields.
    const int errCode = errCode64 > 0 && errCode64 < 1000000 ? int(errCode64) : 0;
    const int code = code64 > 0 && code64 < 1000000 ? int(code64) : 0;
    QString description = error.value(QLatin1String("description")).toString().left(500);
    if (description.isEmpty())
        description = QStringLiteral("the server gave no description");
    const QString number = errCode ? QString::number(errCode) : (code ? QString::number(code) : QStringLiteral("no error code"));
    Error e(errCode == JsErrors::StreamNotFound || errCode == JsErrors::ConsumerNotFound || errCode == JsErrors::NoMessageFound
                ? Error::Kind::NotFound
                : Error::Kind::JetStream,
            QStringLiteral("JetStream %1 failed: %2 (%3)").arg(op, description, number));
    if (errCode == JsErrors::NotEnabledForAccount)
        e.withHint(QStringLiteral("enable JetStream for the account in the server configuration"));
    e.withJsErrCode(errCode);
    return e;
}

Error JetStreamClient::malformed(const QString &op, const QString &what)
{
    return Error(Error::Kind::Protocol, QStringLiteral("JetStream %1: malformed reply: %2").arg(op, what),
                 QStringLiteral("the reply did not come from a nats-server JetStream API as expected; check what answers "
                                "on $JS.API for this account"));
}

Result<QJsonObject> JetStreamClient::call(const QString &op, const QJsonObject &body)
{
    const QByteArray payload = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    const QString subject = apiSubject(op);
    auto reply = m_connection->request(subject, payload);
    if (!reply) {
        Error e = reply.error();
        if (e.kind() == Error::Kind::NoResponders)
            return Error(Error::Kind::JetStream,
                         QStringLiteral("JetStream %1: no JetStream responds for this account%2")
                             .arg(op, m_domain.isEmpty() ? QString() : QStringLiteral(" in domain ") + m_domain),
                         QStringLiteral("JetStream is not enabled for the account, or the domain is wrong"))
                .withNatsStatus(e.natsStatus())
                .withJsErrCode(JsErrors::NotEnabledForAccount);
        return e.prefixed(QStringLiteral("JetStream ") + op);
    }
    return parseReply(reply->data, op, subject);
}

Result<QJsonObject> JetStreamClient::parseReply(const QByteArray &body, const QString &op, const QString &subject)
{
    if (body.trimmed().isEmpty())
        return malformed(op, QStringLiteral("the reply on %1 is empty").arg(subject));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return malformed(op,
                         QStringLiteral("the reply is not JSON (%1 at offset %2): %3")
                             .arg(parseError.errorString())
                             .arg(parseError.offset)
                             .arg(excerpt(body)));
    if (!doc.isObject())
        return malformed(op,
                         QStringLiteral("the reply is %1, not a JSON object: %2")
                             .arg(doc.isArray() ? QStringLiteral("an array") : QStringLiteral("a bare value"), excerpt(body)));
    const QJsonObject obj = doc.object();
    if (obj.contains(QLatin1String("error"))) {
        const QJsonValue error = obj.value(QLatin1String("error"));
        if (!error.isObject())
            return malformed(op, QStringLiteral("\"error\" is %1, not an object: %2").arg(jsonTypeName(error), excerpt(body)));
        return errorFromReply(error.toObject(), op);
    }
    return obj;
}

Result<QJsonObject> JetStreamClient::accountInfo()
{
    auto r = call(QStringLiteral("INFO"));
    if (!r)
        return r;
    for (const char *key : {"memory", "storage", "streams", "consumers"}) {
        const QJsonValue v = r->value(QLatin1String(key));
        if (!v.isUndefined() && !v.isDouble())
            return malformed(QStringLiteral("INFO"), QStringLiteral("\"%1\" is %2, not a number").arg(QLatin1String(key), jsonTypeName(v)));
    }
    const QJsonValue limits = r->value(QLatin1String("limits"));
    if (!limits.isUndefined() && !limits.isObject())
        return malformed(QStringLiteral("INFO"), QStringLiteral("\"limits\" is %1, not an object").arg(jsonTypeName(limits)));
    return r;
}

Result<void> JetStreamClient::checkStreamInfo(const QJsonObject &info, const QString &op, const QString &expectedName)
{
    const QJsonValue config = info.value(QLatin1String("config"));
    if (!config.isObject())
        return malformed(op, QStringLiteral("the stream's \"config\" is %1, not an object").arg(jsonTypeName(config)));
    const QJsonValue name = config.toObject().value(QLatin1String("name"));
    if (!name.isString() || name.toString().isEmpty())
        return malformed(op, QStringLiteral("the stream's config.name is %1, not a stream name").arg(jsonTypeName(name)));
    if (!expectedName.isEmpty() && name.toString() != expectedName)
        return malformed(op,
                         QStringLiteral("asked for stream %1, the reply describes stream %2").arg(expectedName, name.toString().left(100)));
    const QJsonValue subjects = config.toObject().value(QLatin1String("subjects"));
    if (!subjects.isUndefined() && !subjects.isNull() && !subjects.isArray())
        return malformed(op,
                         QStringLiteral("config.subjects of stream %1 is %2, not an array").arg(name.toString(), jsonTypeName(subjects)));
    const QJsonValue state = info.value(QLatin1String("state"));
    if (!state.isObject())
        return malformed(op, QStringLiteral("the state of stream %1 is %2, not an object").arg(name.toString(), jsonTypeName(state)));
    for (const char *key : {"messages", "bytes", "first_seq", "last_seq", "consumer_count"}) {
        const QJsonValue v = state.toObject().value(QLatin1String(key));
        if (!v.isUndefined() && (!v.isDouble() || v.toDouble() < 0))
            return malformed(
                op, QStringLiteral("state.%1 of stream %2 is %3, not a count").arg(QLatin1String(key), name.toString(), jsonTypeName(v)));
    }
    return {};
}

Result<void> JetStreamClient::checkConsumerInfo(const QJsonObject &info, const QString &op)
{
    const QJsonValue name = info.value(QLatin1String("name"));
    if (!name.isString() || name.toString().isEmpty())
        return malformed(op, QStringLiteral("a consumer's \"name\" is %1, not a name").arg(jsonTypeName(name)));
    const QJsonValue config = info.value(QLatin1String("config"));
    if (!config.isObject())
        return malformed(
            op, QStringLiteral("the \"config\" of consumer %1 is %2, not an object").arg(name.toString().left(100), jsonTypeName(config)));
    return {};
}

namespace {

// The list endpoints page with {offset}, answering {total, offset, limit, <key>: [...]}. Bounded:
// a reply that claims more than it gives, repeats itself or never ends is cut off with an error.
template<typename Fn>
Result<void> forEachPage(JetStreamClient &js, const QString &op, QJsonObject body, const QString &key, Fn fn,
                         QStringList *missing = nullptr)
{
    qint64 offset = 0;
    for (int page = 0; page < kMaxPages; ++page) {
        body.insert(QStringLiteral("offset"), offset);
        auto reply = js.call(op, body);
        if (!reply)
            return reply.error();
        const QJsonValue itemsValue = reply->value(key);
        const QJsonValue totalValue = reply->value(QLatin1String("total"));
        if (!totalValue.isDouble() || totalValue.toDouble() < 0)
            return JetStreamClient::malformed(op, QStringLiteral("\"total\" is %1, not a count").arg(jsonTypeName(totalValue)));
        const qint64 total = totalValue.toInteger(-1);
        if (itemsValue.isNull() || (itemsValue.isUndefined() && total == 0))
            return {}; // the server writes null for an empty list
        if (!itemsValue.isArray())
            return JetStreamClient::malformed(op, QStringLiteral("\"%1\" is %2, not an array").arg(key, jsonTypeName(itemsValue)));
        const QJsonValue replyOffset = reply->value(QLatin1String("offset"));
        if (!replyOffset.isUndefined() && replyOffset.toInteger(-1) != offset)
            return JetStreamClient::malformed(op,
                                              QStringLiteral("asked for the page at offset %1, got offset %2")
                                                  .arg(offset)
                                                  .arg(replyOffset.toVariant().toString().left(40)));
        // In a cluster, entries whose leader did not answer in time are listed by name under "missing".
        if (missing)
            for (const QJsonValue &m : reply->value(QLatin1String("missing")).toArray())
                if (m.isString() && !m.toString().isEmpty() && !missing->contains(m.toString()))
                    missing->append(m.toString());
        const QJsonArray items = itemsValue.toArray();
        if (total < 0 || offset + items.size() > kMaxItems || total > kMaxItems)
            return JetStreamClient::malformed(op,
                                              QStringLiteral("the reply claims %1 entries, more than the %2 this tool reads")
                                                  .arg(totalValue.toVariant().toString().left(40))
                                                  .arg(kMaxItems));
        for (const QJsonValue &v : items)
            if (auto r = fn(v); !r)
                return r;
        offset += items.size();
        // A page shorter than the server's page size is the last one, whatever "total" says.
        const qint64 limit = reply->value(QLatin1String("limit")).toInteger(0);
        if (items.isEmpty() || offset >= total || (limit > 0 && items.size() < limit))
            return {};
    }
    return JetStreamClient::malformed(op, QStringLiteral("still more pages after %1 requests").arg(kMaxPages));
}

} // namespace

Result<QStringList> JetStreamClient::streamNames(const QString &subjectFilter)
{
    QStringList names;
    QJsonObject body;
    if (!subjectFilter.isEmpty())
        body.insert(QStringLiteral("subject"), subjectFilter);
    const QString op = QStringLiteral("STREAM.NAMES");
    auto r = forEachPage(*this, op, body, QStringLiteral("streams"), [&](const QJsonValue &v) -> Result<void> {
        if (!v.isString() || v.toString().isEmpty())
            return malformed(op, QStringLiteral("a stream name is %1, not a name").arg(jsonTypeName(v)));
        names.append(v.toString());
        return {};
    });
    if (!r)
        return r.error();
    names.sort();
    return names;
}

Result<QJsonObject> JetStreamClient::streamInfo(const QString &name, const QJsonObject &request)
{
    const QString op = QStringLiteral("STREAM.INFO.") + name;
    auto r = call(op, request);
    if (!r)
        return r;
    if (auto ok = checkStreamInfo(*r, op, name); !ok)
        return ok.error();
    return r;
}

Result<QList<QJsonObject>> JetStreamClient::streamList(const QString &subjectFilter)
{
    QList<QJsonObject> streams;
    QJsonObject body;
    if (!subjectFilter.isEmpty())
        body.insert(QStringLiteral("subject"), subjectFilter);
    const QString op = QStringLiteral("STREAM.LIST");
    QStringList missing;
    auto r = forEachPage(
        *this, op, body, QStringLiteral("streams"),
        [&](const QJsonValue &v) -> Result<void> {
            if (!v.isObject())
                return malformed(op, QStringLiteral("a stream entry is %1, not an object").arg(jsonTypeName(v)));
            if (auto ok = checkStreamInfo(v.toObject(), op); !ok)
                return ok;
            streams.append(v.toObject());
            return {};
        },
        &missing);
    if (!r)
        return r.error();
    // As for consumers: a stream whose leader did not answer is asked for on its own, never taken for absent.
    for (const QString &name : std::as_const(missing)) {
        auto info = streamInfo(name);
        if (!info && info.error().jsErrCode() == JsErrors::StreamNotFound)
            continue; // deleted meanwhile
        if (!info)
            return Error(Error::Kind::JetStream, QStringLiteral("%1: stream %2 did not answer (%3)").arg(op, name, info.error().message()),
                         info.error().jsErrCode() == JsErrors::StreamOffline
                             ? QStringLiteral("every server holding it is down or cut off; in a supercluster the gateway to the "
                                              "cluster it is placed in may be down (\"servers\" names the clusters no server of "
                                              "answers); try again when those servers are back")
                             : QStringLiteral("its servers may be down or electing a leader; try again when the cluster is healthy"))
                .withJsErrCode(info.error().jsErrCode());
        streams.append(*info);
    }
    return streams;
}

Result<QList<QJsonObject>> JetStreamClient::consumerList(const QString &stream)
{
    return listConsumers(stream, false);
}

Result<QList<QJsonObject>> JetStreamClient::consumerListAllowUnavailable(const QString &stream)
{
    return listConsumers(stream, true);
}

Result<QList<QJsonObject>> JetStreamClient::listConsumers(const QString &stream, bool allowUnavailable)
{
    QList<QJsonObject> consumers;
    QStringList missing;
    const QString op = QStringLiteral("CONSUMER.LIST.") + stream;
    auto r = forEachPage(
        *this, op, {}, QStringLiteral("consumers"),
        [&](const QJsonValue &v) -> Result<void> {
            if (!v.isObject())
                return malformed(op, QStringLiteral("a consumer entry is %1, not an object").arg(jsonTypeName(v)));
            QJsonObject entry = v.toObject();
            // With a server down, a cluster lists a consumer it could not reach with an empty "name": take the
            // name from its config and mark it. An entry that names nothing anywhere is malformed.
            if (entry.value(QLatin1String("name")).toString().isEmpty() && entry.value(QLatin1String("config")).isObject()) {
                const QJsonObject config = entry.value(QLatin1String("config")).toObject();
                const QString fromConfig =
                    config.value(QLatin1String("durable_name")).toString(config.value(QLatin1String("name")).toString());
                if (!fromConfig.isEmpty()) {
                    entry.insert(QStringLiteral("name"), fromConfig);
                    entry.insert(QStringLiteral("unavailable"), QStringLiteral("listed without its state; its server may be down"));
                }
            }
            if (auto ok = checkConsumerInfo(entry, op); !ok)
                return ok;
            consumers.append(entry);
            return {};
        },
        &missing);
    if (!r)
        return r.error();
    // A consumer the list left out because its leader did not answer (a node down, an election) is asked for on its
    // own: reporting it as absent would make a healthy session look broken and invite a wrong repair.
    for (const QString &name : std::as_const(missing)) {
        const QString infoOp = QStringLiteral("CONSUMER.INFO.%1.%2").arg(stream, name);
        auto info = call(infoOp);
        if (!info && info.error().jsErrCode() == JsErrors::ConsumerNotFound)
            continue; // deleted meanwhile
        if (!info && allowUnavailable) {
            consumers.append(QJsonObject{{QStringLiteral("name"), name},
                                         {QStringLiteral("config"), QJsonObject()},
                                         {QStringLiteral("unavailable"), info.error().message()}});
            continue;
        }
        if (!info)
            return Error(Error::Kind::JetStream,
                         QStringLiteral("%1: consumer %2 did not answer (%3)").arg(op, name, info.error().message()),
                         QStringLiteral("its servers may be down or electing a leader; try again when the cluster is healthy"))
                .withJsErrCode(info.error().jsErrCode());
        if (auto ok = checkConsumerInfo(*info, infoOp); !ok)
            return ok.error();
        consumers.append(*info);
    }
    return consumers;
}

} // namespace MqttDoctor
