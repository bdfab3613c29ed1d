#include "natserrors.h"

#include <nats/nats.h>

namespace MqttDoctor::NatsErrors {

QString statusText(int natsStatus)
{
    return QString::fromUtf8(natsStatus_GetText(static_cast<::natsStatus>(natsStatus)));
}

QString detail(int natsStatus, const QString &lastErrorText)
{
    QString text = lastErrorText.trimmed();
    // nats.c puts the source location in front: "(conn.c:1905): Authorization Violation".
    if (text.startsWith(QLatin1Char('('))) {
        const qsizetype close = text.indexOf(QLatin1String("): "));
        if (close > 0 && close < 64 && text.left(close).contains(QLatin1String(".c:")))
            text = text.mid(close + 3).trimmed();
    }
    return text.isEmpty() ? statusText(natsStatus) : text;
}

namespace {

// What a failed call means, by its status; `what` is the call ("no reply on X" needs the subject).
Error classify(int status, const QString &lastErrorText, const QString &what, const QString &subject, int timeoutMs)
{
    const QString nats = QStringLiteral(" (nats.c: ") + detail(status, lastErrorText) + QLatin1Char(')');
    switch (status) {
    case NATS_TIMEOUT:
        if (!subject.isEmpty())
            return Error(Error::Kind::Timeout, QStringLiteral("no reply on %1 within %2 ms").arg(subject).arg(timeoutMs),
                         QStringLiteral("the server did not answer in time: it may be overloaded, or what serves this subject "
                                        "is not answering; retry, or raise the timeout"));
        return Error(Error::Kind::Timeout, what + QStringLiteral(": the server did not answer in time"),
                     QStringLiteral("the server may be overloaded; retry, or raise the timeout"));
    case NATS_NO_RESPONDERS:
        return Error(Error::Kind::NoResponders,
                     subject.isEmpty() ? what + QStringLiteral(": nobody answers (no responders)")
                                       : QStringLiteral("nobody answers on %1 (no responders)").arg(subject),
                     QStringLiteral("nothing in the user's account serves this subject"));
    case NATS_CONNECTION_CLOSED:
    case NATS_CONNECTION_DISCONNECTED:
    case NATS_STALE_CONNECTION:
    case NATS_IO_ERROR:
        return Error(Error::Kind::ConnectionRefused, what + QStringLiteral(": the connection to the server was lost"),
                     QStringLiteral("check that the server is running; the connection reconnects by itself, then retry"));
    case NATS_NOT_PERMITTED:
        return Error(Error::Kind::PermissionDenied, what + QStringLiteral(": the server does not permit it") + nats,
                     QStringLiteral("the user's permissions in the server's configuration must allow it"));
    case NATS_MAX_PAYLOAD:
        return Error(Error::Kind::InvalidInput, what + QStringLiteral(": the message is larger than the server accepts (its max_payload)"),
                     QStringLiteral("raise max_payload in the server's configuration, or send less"));
    case NATS_SLOW_CONSUMER:
        return Error(Error::Kind::Io, what + QStringLiteral(": messages arrived faster than they were read, and some were dropped"),
                     QStringLiteral("retry; if it persists, the machine is too busy to keep up"));
    case NATS_CONNECTION_AUTH_FAILED:
        return Error(Error::Kind::AuthFailed, what + QStringLiteral(": the server no longer accepts the credentials") + nats,
                     QStringLiteral("check the credentials (expired or revoked?) and connect again"));
    case NATS_NO_MEMORY:
        return Error(Error::Kind::Internal, what + QStringLiteral(": out of memory"), QStringLiteral("free memory, then retry"));
    default:
        return Error(Error::Kind::Protocol, what + QStringLiteral(": nats.c reported \"%1\"").arg(statusText(status)) + nats,
                     QStringLiteral("retry; if it persists, the server's log may say why"));
    }
}

} // namespace

Error fromRequest(int status, const QString &lastErrorText, const QString &subject, int timeoutMs)
{
    return classify(status, lastErrorText, QStringLiteral("request on %1").arg(subject), subject, timeoutMs).withNatsStatus(status);
}

Error fromStatus(int status, const QString &lastErrorText, const QString &what)
{
    return classify(status, lastErrorText, what, {}, 0).withNatsStatus(status);
}

bool violationNames(const QString &violation, const QString &subject)
{
    // `Permissions Violation for Publish to "<subject>"` or `... for Subscription to "<inbox>"`.
    return !subject.isEmpty() && violation.contains(QLatin1Char('"') + subject + QLatin1Char('"'));
}

Error permissionDenied(const QString &violation, const QString &subject, bool inbox, int status)
{
    const QString what = inbox ? QStringLiteral("the server refused the subscription for the reply to %1 (%2)").arg(subject, violation)
                               : QStringLiteral("the server refused the request on %1: %2").arg(subject, violation);
    return Error(Error::Kind::PermissionDenied, what,
                 inbox ? QStringLiteral("the user needs permission to subscribe to its reply inbox (_INBOX.>)")
                       : QStringLiteral("the user's permissions deny publishing to %1; use a user allowed to, or "
                                        "change its permissions in the server configuration")
                             .arg(subject))
        .withNatsStatus(status);
}

} // namespace MqttDoctor::NatsErrors
