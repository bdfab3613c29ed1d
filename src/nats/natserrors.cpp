#include "natserrors.h"

#include <nats/nats.h>

namespace MqttDoctor::NatsErrors {

QString statusText(int natsStatus)
{
    return QString::fromUtf8(natsStatus_GetText(static_cast<::natsStatus>(natsStatus)));
}

namespace {

QString detail(int natsStatus, const QString &lastErrorText)
{
    const QString text = lastErrorText.trimmed();
    return text.isEmpty() ? statusText(natsStatus) : text;
}

} // namespace

Error fromConnect(int status, const QString &lastErrorText, const QString &urls, bool tlsConfigured,
                  const QString &role)
{
    const QString who = role.isEmpty() ? QString() : QStringLiteral(" (") + role + QLatin1Char(')');
    const QString what = QStringLiteral("cannot connect to ") + urls + who;
    const QString why = detail(status, lastErrorText);
    Error e;
    switch (status) {
    case NATS_NO_SERVER:
        if (why.contains(QLatin1String("SSL"), Qt::CaseInsensitive) || why.contains(QLatin1String("TLS")))
            e = Error(Error::Kind::Tls, what + QStringLiteral(": TLS handshake failed: ") + why,
                      QStringLiteral("check the CA (--tlsca) and the client certificate (--tlscert/--tlskey)"));
        else
            e = Error(Error::Kind::ConnectionRefused, what + QStringLiteral(": no server is reachable (connection refused)"),
                      QStringLiteral("check the URL and port, and that nats-server is running"));
        break;
    case NATS_CONNECTION_AUTH_FAILED:
        e = Error(Error::Kind::AuthFailed, what + QStringLiteral(": authorization violation (wrong user, password, token, NKey or credentials)"),
                  QStringLiteral("check the credentials given for this connection"));
        break;
    case NATS_SSL_ERROR:
    case NATS_SECURE_CONNECTION_WANTED:
    case NATS_SECURE_CONNECTION_REQUIRED:
        e = Error(Error::Kind::Tls, what + QStringLiteral(": TLS failure: ") + why,
                  status == NATS_SECURE_CONNECTION_REQUIRED
                      ? QStringLiteral("the server requires TLS: use a tls:// URL and give its CA with --tlsca")
                      : QStringLiteral("check the CA (--tlsca) and the client certificate (--tlscert/--tlskey)"));
        break;
    case NATS_PROTOCOL_ERROR:
        // nats.c reports a TLS server that rejects a missing client certificate as "Expected 'PONG'".
        if (tlsConfigured)
            e = Error(Error::Kind::Tls, what + QStringLiteral(": the server closed the TLS connection during the handshake (") + why + QLatin1Char(')'),
                      QStringLiteral("the server probably requires a client certificate: give --tlscert and --tlskey"));
        else
            e = Error(Error::Kind::Protocol, what + QStringLiteral(": protocol error: ") + why);
        break;
    case NATS_TIMEOUT:
        e = Error(Error::Kind::Timeout, what + QStringLiteral(": timed out"),
                  QStringLiteral("the server did not answer in time; check the address or raise --timeout"));
        break;
    case NATS_ADDRESS_MISSING:
    case NATS_INVALID_ARG:
        e = Error(Error::Kind::InvalidInput, what + QStringLiteral(": invalid server URL or option: ") + why);
        break;
    default:
        e = Error(Error::Kind::ConnectionRefused, what + QStringLiteral(": ") + why);
        break;
    }
    e.withNatsStatus(status);
    return e;
}

Error fromRequest(int status, const QString &lastErrorText, const QString &subject, int timeoutMs)
{
    Error e;
    if (status == NATS_TIMEOUT) {
        e = Error(Error::Kind::Timeout,
                  QStringLiteral("no reply on %1 within %2 ms").arg(subject).arg(timeoutMs),
                  QStringLiteral("the server may be overloaded or the user may lack permission for this subject"));
    } else if (status == NATS_NO_RESPONDERS) {
        e = Error(Error::Kind::NoResponders, QStringLiteral("nobody answers on %1 (no responders)").arg(subject));
    } else if (status == NATS_CONNECTION_CLOSED || status == NATS_CONNECTION_DISCONNECTED) {
        e = Error(Error::Kind::ConnectionRefused, QStringLiteral("the connection was lost while requesting %1").arg(subject),
                  QStringLiteral("check that the server is running; the connection reconnects by itself"));
    } else if (status == NATS_NOT_PERMITTED) {
        e = Error(Error::Kind::PermissionDenied, QStringLiteral("not permitted to request %1: %2").arg(subject, detail(status, lastErrorText)));
    } else {
        e = Error(Error::Kind::Protocol, QStringLiteral("request on %1 failed: %2").arg(subject, detail(status, lastErrorText)));
    }
    e.withNatsStatus(status);
    return e;
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
                                        "change its permissions in the server configuration").arg(subject))
        .withNatsStatus(status);
}

} // namespace MqttDoctor::NatsErrors
