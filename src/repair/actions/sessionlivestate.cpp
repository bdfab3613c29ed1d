#include "repair/actions/sessionlivestate.h"

#include "mqtt/sessionrecord.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"

namespace MqttDoctor::SessionLiveState {

namespace {

Result<std::optional<StoredRecord>> msgGetLiveRecord(const ExecContext &ctx, const QString &stream, const QJsonObject &body)
{
    auto reply = ctx.api(QStringLiteral("STREAM.MSG.GET.") + stream, body);
    if (!reply) {
        const int code = reply.error().jsErrCode();
        if (code == JsErrors::NoMessageFound || code == JsErrors::StreamNotFound) // no message found, stream not found
            return std::optional<StoredRecord>();
        return reply.error();
    }
    const QJsonObject m = reply->value(QLatin1String("message")).toObject();
    StoredRecord r;
    r.subject = m.value(QLatin1String("subject")).toString();
    r.seq = quint64(m.value(QLatin1String("seq")).toInteger());
    r.timeNs = MessageGetter::parseTimeNs(m.value(QLatin1String("time")).toString());
    r.headers = QByteArray::fromBase64(m.value(QLatin1String("hdrs")).toString().toLatin1());
    r.data = QByteArray::fromBase64(m.value(QLatin1String("data")).toString().toLatin1());
    return std::optional<StoredRecord>(r);
}

} // namespace

Result<std::optional<StoredRecord>> lastOnSubject(const ExecContext &ctx, const QString &stream, const QString &subject)
{
    return msgGetLiveRecord(ctx, stream, QJsonObject{{QStringLiteral("last_by_subj"), subject}});
}

Result<std::optional<StoredRecord>> bySequence(const ExecContext &ctx, const QString &stream, quint64 seq)
{
    return msgGetLiveRecord(ctx, stream, QJsonObject{{QStringLiteral("seq"), qint64(seq)}});
}

std::optional<SessionLoader::ConnectedClients> connectedNow(const ExecContext &ctx, const QString &clientId)
{
    if (!ctx.target.connection)
        return std::nullopt;
    auto clients = SessionLoader::loadConnected(ctx.target.connection, ctx.target.account, clientId);
    if (!clients)
        return std::nullopt;
    return *clients;
}

bool recordReferences(const QByteArray &body, const QString &name)
{
    auto rec = SessionRecord::decode(body);
    return rec && rec->durableNames().contains(name);
}

} // namespace MqttDoctor::SessionLiveState
