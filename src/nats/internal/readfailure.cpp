#include "nats/internal/readfailure.h"

#include "nats/jserrors.h"
#include "nats/natsconnection.h"
#include "nats/natserrors.h"

namespace MqttDoctor::ReadFailure {

Error natsError(natsStatus s, const QString &what)
{
    return NatsErrors::fromStatus(s, {}, what);
}

Error jsError(natsStatus s, jsErrCode jerr, const QString &what)
{
    if (jerr == 0)
        return natsError(s, what);
    const int code = static_cast<int>(jerr);
    Error e(code == JsErrors::StreamNotFound || code == JsErrors::ConsumerNotFound ? Error::Kind::NotFound : Error::Kind::JetStream,
            QStringLiteral("%1: JetStream error %2 (%3)").arg(what, QString::number(code), NatsErrors::statusText(s)));
    e.withNatsStatus(s).withJsErrCode(code);
    return e;
}

Error deniedOr(NatsConnection &connection, quint64 mark, const QString &what, Error fallback)
{
    const QString violation = connection.permissionViolationSince(mark);
    if (violation.isEmpty())
        return fallback;
    return Error(Error::Kind::PermissionDenied, what + QStringLiteral(": the server refused it: ") + violation,
                 QStringLiteral("the user needs permission for the account's JetStream API ($JS.API.>) and its reply inbox"))
        .withNatsStatus(NATS_NOT_PERMITTED);
}

Error idleError(const QString &stream, int idleMs, quint64 done, bool connectionLost)
{
    if (connectionLost)
        return Error(Error::Kind::Timeout,
                     QStringLiteral("reading stream %1: the connection to the server was lost after %2 messages and did not come "
                                    "back within %3 ms")
                         .arg(stream, QString::number(done), QString::number(idleMs)),
                     QStringLiteral("the server stopped or the network failed; check that it runs and retry"));
    return Error(Error::Kind::Timeout,
                 QStringLiteral("reading stream %1: the server delivered nothing for %2 ms after %3 messages")
                     .arg(stream, QString::number(idleMs), QString::number(done)),
                 QStringLiteral("the stream leader may be unavailable; check the server and retry"));
}

} // namespace MqttDoctor::ReadFailure
