#include "connectfailure.h"

#include <nats/nats.h>

#include <QSet>

#include "nats/natserrors.h"

namespace MqttDoctor {

namespace {

// After a question, and after a colon.
const QString kGiveClientPort = QStringLiteral("Give the NATS client port, 4222 by default");
const QString kClientPortHint = QStringLiteral("give the NATS client port, 4222 by default");

QString serverAt(const ServerProbeFacts &f)
{
    return f.serverName.isEmpty() ? QStringLiteral("the NATS server at ") + f.hostPort()
                                  : QStringLiteral("the NATS server %1 at %2").arg(f.serverName, f.hostPort());
}

// nats.c's text as a detail after an explanation: "(nats.c: ...)".
QString withNatsText(int status, const QString &natsText)
{
    return QStringLiteral(" (nats.c: ") + NatsErrors::detail(status, natsText) + QLatin1Char(')');
}

// The printable start of what a port sent, for a message.
QString printableStart(const QByteArray &bytes)
{
    QString out;
    for (const char c : bytes.left(40)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f)
            out += QLatin1Char(c);
        else if (c == '\r' || c == '\n')
            break;
        else
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    return out;
}

QString tlsReasons(const ConnectAttempt &a)
{
    QStringList why;
    if (a.tlsUrl)
        why << QStringLiteral("a tls:// URL");
    if (a.caGiven)
        why << QStringLiteral("a CA certificate");
    if (a.clientCertGiven)
        why << QStringLiteral("a client certificate");
    return why.join(QStringLiteral(", "));
}

QString credentialsHintFor(Credentials::Kind kind)
{
    switch (kind) {
    case Credentials::Kind::None:
        return QStringLiteral("the server requires authentication: give a user and password, a token, an NKey seed or a "
                              "credentials file of one of its users");
    case Credentials::Kind::UserPassword: return QStringLiteral("check the credentials: the user and password");
    case Credentials::Kind::Token: return QStringLiteral("check the credentials: the token");
    case Credentials::Kind::NKey:
        return QStringLiteral("check the credentials: the NKey seed, whose public key must be one of the server's users");
    case Credentials::Kind::Creds:
    case Credentials::Kind::UserJwt:
        return QStringLiteral("check the credentials: the user JWT and seed; the user must belong to an account the server "
                              "knows, and be neither expired nor revoked");
    }
    return {};
}

} // namespace

bool ConnectFailure::needsProbe(int status)
{
    switch (status) {
    case NATS_NO_SERVER:
    case NATS_TIMEOUT:
    case NATS_CONNECTION_CLOSED:
    case NATS_CONNECTION_DISCONNECTED:
    case NATS_IO_ERROR:
    case NATS_PROTOCOL_ERROR:
    case NATS_LINE_TOO_LONG:
    case NATS_STALE_CONNECTION:
    case NATS_SSL_ERROR: return true;
    default: return false;
    }
}

Error ConnectFailure::explain(int status, const QString &natsText, const ConnectAttempt &attempt)
{
    QList<ServerProbeFacts> facts;
    if (needsProbe(status))
        facts = ServerProbe::probeAll(attempt.urls, attempt.timeoutMs);
    return classify(status, natsText, attempt, facts);
}

int ConnectFailure::priority(Error::Kind kind)
{
    // With several URLs, the cause reported first is the one of the URL that got furthest.
    switch (kind) {
    case Error::Kind::AuthFailed: return 9;
    case Error::Kind::Tls: return 8;
    case Error::Kind::PermissionDenied: return 7;
    case Error::Kind::NotNatsServer: return 6;
    case Error::Kind::Timeout: return 5;
    case Error::Kind::ConnectionRefused: return 4;
    case Error::Kind::Dns: return 3;
    default: return 1;
    }
}

Error ConnectFailure::classify(int status, const QString &natsText, const ConnectAttempt &attempt, const QList<ServerProbeFacts> &facts)
{
    const QString who = attempt.role.isEmpty() ? QString() : QStringLiteral(" (") + attempt.role + QLatin1Char(')');
    const QString what = QStringLiteral("cannot connect to ") + attempt.urls.join(QStringLiteral(", ")) + who + QStringLiteral(": ");

    QList<Cause> causes;
    if (needsProbe(status) && !facts.isEmpty()) {
        for (const ServerProbeFacts &f : facts)
            causes.append(fromFacts(status, natsText, attempt, f));
        if (facts.size() < attempt.urls.size())
            causes.last().sentence += QStringLiteral("; %1 more URL(s) not examined").arg(attempt.urls.size() - facts.size());
    } else {
        causes.append(fromStatus(status, natsText, attempt));
    }

    qsizetype main = 0;
    for (qsizetype i = 1; i < causes.size(); ++i)
        if (priority(causes[i].kind) > priority(causes[main].kind))
            main = i;
    QStringList sentences;
    QSet<QString> seen;
    for (const Cause &c : std::as_const(causes))
        if (!seen.contains(c.sentence)) {
            seen.insert(c.sentence);
            sentences << c.sentence;
        }
    return Error(causes[main].kind, what + sentences.join(QStringLiteral("; ")), causes[main].hint).withNatsStatus(status);
}

ConnectFailure::Cause ConnectFailure::fromStatus(int status, const QString &natsText, const ConnectAttempt &attempt)
{
    const QString ms = QString::number(attempt.timeoutMs);
    switch (status) {
    case NATS_CONNECTION_AUTH_FAILED:
        return {Error::Kind::AuthFailed,
                (attempt.credentials == Credentials::Kind::None
                     ? QStringLiteral("authorization violation: the server requires credentials and none were given")
                     : QStringLiteral("authorization violation: the server refused the credentials"))
                    + QStringLiteral(" (the server said: ") + NatsErrors::detail(status, natsText) + QLatin1Char(')'),
                credentialsHintFor(attempt.credentials)};
    case NATS_SECURE_CONNECTION_WANTED:
        return {Error::Kind::Tls,
                QStringLiteral("the connection is set up for TLS (%1), but the server does not offer TLS").arg(tlsReasons(attempt)),
                QStringLiteral("connect without TLS (a nats:// URL, no CA certificate and no client certificate), or turn TLS "
                               "on in the server's configuration (a tls block)")};
    case NATS_SECURE_CONNECTION_REQUIRED:
        return {Error::Kind::Tls, QStringLiteral("the server requires TLS"),
                QStringLiteral("connect with TLS and give the CA certificate that signed the server's certificate")};
    case NATS_ERR:
        return {Error::Kind::ConnectionRefused,
                QStringLiteral("the server refused the connection (the server said: %1)").arg(NatsErrors::detail(status, natsText)),
                QStringLiteral("the server's log says why (for example its connection limit); retry once that is fixed")};
    case NATS_NOT_PERMITTED:
        return {Error::Kind::PermissionDenied,
                QStringLiteral("the server does not permit this connection") + withNatsText(status, natsText),
                QStringLiteral("check the user's permissions in the server's configuration")};
    case NATS_ADDRESS_MISSING:
    case NATS_INVALID_ARG:
        return {Error::Kind::InvalidInput,
                QStringLiteral("the server URL or a connection setting is not valid") + withNatsText(status, natsText),
                QStringLiteral("check the server URL (nats://host:4222 or tls://host:4222)")};
    case NATS_NO_SERVER:
        return {Error::Kind::ConnectionRefused, QStringLiteral("no server could be reached"),
                QStringLiteral("check the server URL, and that nats-server is running there")};
    case NATS_TIMEOUT:
        return {Error::Kind::Timeout, QStringLiteral("the server did not complete the connection within %1 ms").arg(ms),
                QStringLiteral("check the server URL and that the server is healthy; on a slow network raise the timeout")};
    case NATS_SSL_ERROR:
        return {Error::Kind::Tls, QStringLiteral("the TLS handshake failed") + withNatsText(status, natsText),
                QStringLiteral("check the CA certificate and the client certificate")};
    default:
        return {Error::Kind::Internal,
                QStringLiteral("nats.c could not set up the connection: %1").arg(NatsErrors::statusText(status))
                    + withNatsText(status, natsText),
                QStringLiteral("retry; if it persists, report it with this message")};
    }
}

ConnectFailure::Cause ConnectFailure::fromFacts(int status, const QString &natsText, const ConnectAttempt &attempt,
                                                const ServerProbeFacts &f)
{
    using R = ServerProbeFacts::Resolution;
    using C = ServerProbeFacts::Reach;
    using G = ServerProbeFacts::Greeting;
    switch (f.resolution) {
    case R::Resolved: break;
    case R::NoSuchHost:
        return {Error::Kind::Dns, QStringLiteral("%1 does not resolve (DNS: no such host)").arg(f.host),
                QStringLiteral("check the host name in the server URL")};
    case R::TemporaryFailure:
        return {Error::Kind::Dns,
                f.waitedMs > 0
                    ? QStringLiteral("%1 could not be resolved: the DNS lookup did not end within %2 ms").arg(f.host).arg(f.waitedMs)
                    : QStringLiteral("%1 could not be resolved: the name servers did not answer (temporary DNS failure)").arg(f.host),
                QStringLiteral("check this machine's DNS settings and network, then retry")};
    case R::Failed:
        return {Error::Kind::Dns, QStringLiteral("%1 could not be resolved (DNS: %2)").arg(f.host, f.detail),
                QStringLiteral("check the host name in the server URL and this machine's DNS settings")};
    }

    switch (f.reach) {
    case C::Connected: break;
    case C::Refused:
        return {Error::Kind::ConnectionRefused, QStringLiteral("nothing listens on %1 (connection refused)").arg(f.hostPort()),
                QStringLiteral("check the port in the server URL (NATS clients connect to 4222 by default) and that nats-server "
                               "is running there")};
    case C::Unreachable:
        return {Error::Kind::ConnectionRefused, QStringLiteral("%1 cannot be reached (%2)").arg(f.hostPort(), f.detail),
                QStringLiteral("check the host in the server URL and the network between this machine and the server")};
    case C::TimedOut:
        return {Error::Kind::Timeout,
                QStringLiteral("%1 did not accept a TCP connection within %2 ms (the host is down, or a firewall drops the "
                               "connection)")
                    .arg(f.hostPort())
                    .arg(f.waitedMs),
                QStringLiteral("check the address in the server URL, that the server is up, and the firewalls on the way; on a "
                               "slow network raise the timeout")};
    case C::Failed:
    case C::NotTried:
        return {Error::Kind::ConnectionRefused, QStringLiteral("cannot open a connection to %1 (%2)").arg(f.hostPort(), f.detail),
                QStringLiteral("check the server URL, then retry")};
    }

    switch (f.greeting) {
    case G::Info: return fromNatsServer(status, natsText, attempt, f);
    case G::Closed:
        return {Error::Kind::NotNatsServer,
                QStringLiteral("%1 is not a NATS server (it did not answer the NATS handshake: it closed the connection without "
                               "sending the NATS greeting)")
                    .arg(f.hostPort()),
                QStringLiteral("is it the MQTT port? ") + kGiveClientPort};
    case G::Http:
        return {Error::Kind::NotNatsServer,
                QStringLiteral("%1 is not a NATS server (it answered as an HTTP server, not with the NATS greeting)").arg(f.hostPort()),
                QStringLiteral("is it the HTTP monitoring port (8222 by default) or a WebSocket port? ") + kGiveClientPort};
    case G::OtherProtocol:
        return {Error::Kind::NotNatsServer,
                QStringLiteral("%1 is not a NATS server (it sent \"%2\" instead of the NATS greeting)")
                    .arg(f.hostPort(), printableStart(f.firstBytes)),
                QStringLiteral("the port belongs to another service: ") + kClientPortHint};
    case G::Silent:
        return {Error::Kind::Timeout,
                QStringLiteral("%1 accepted the connection but sent no NATS greeting within %2 ms (a NATS server sends one at "
                               "once), and did not answer a line sent to it either")
                    .arg(f.hostPort())
                    .arg(f.waitedMs),
                QStringLiteral("the server is hung or overloaded, or the port is not a NATS client port: check that nats-server "
                               "runs normally there, and that the URL gives its client port (4222 by default)")};
    case G::NotTried: break;
    }
    return fromStatus(status, natsText, attempt);
}

ConnectFailure::Cause ConnectFailure::fromNatsServer(int status, const QString &natsText, const ConnectAttempt &attempt,
                                                     const ServerProbeFacts &f)
{
    switch (status) {
    case NATS_SSL_ERROR: return tlsHandshake(natsText, attempt, f);
    case NATS_TIMEOUT:
        return {
            Error::Kind::Timeout,
            QStringLiteral("%1 sent its greeting but did not complete the %2handshake within %3 ms")
                .arg(serverAt(f), f.tlsRequired || attempt.tlsWanted() ? QStringLiteral("TLS and connect ") : QStringLiteral("connect "))
                .arg(attempt.timeoutMs),
            QStringLiteral("the server may be overloaded: retry, or on a slow network raise the timeout")};
    case NATS_NO_SERVER:
        return {Error::Kind::ConnectionRefused,
                QStringLiteral("the connection failed, although %1 answers now (it may have just started)").arg(serverAt(f)),
                QStringLiteral("retry")};
    case NATS_PROTOCOL_ERROR:
    case NATS_CONNECTION_CLOSED:
    case NATS_CONNECTION_DISCONNECTED:
    case NATS_IO_ERROR:
    case NATS_STALE_CONNECTION:
        // The server closed the connection after its greeting, during TLS or before its PONG; or its PONG came
        // after the deadline, which nats.c reports the same way.
        if (attempt.ranOutOfTime())
            return fromNatsServer(NATS_TIMEOUT, natsText, attempt, f);
        if (f.tlsVerify && !attempt.clientCertGiven)
            return {Error::Kind::Tls,
                    QStringLiteral("%1 requires a client certificate (its greeting says so) and closed the connection, as none "
                                   "was given")
                        .arg(serverAt(f)),
                    QStringLiteral("give a client certificate and its key, signed by a CA the server trusts")};
        if (f.tlsVerify)
            return {Error::Kind::Tls,
                    QStringLiteral("%1 requires a client certificate (its greeting says so) and closed the connection during the "
                                   "handshake: it did not accept the one given")
                        .arg(serverAt(f)),
                    QStringLiteral("check that the client certificate is signed by a CA the server trusts (its tls ca_file) and "
                                   "has not expired")};
        return {Error::Kind::ConnectionRefused,
                QStringLiteral("%1 closed the connection during the connect handshake").arg(serverAt(f)) + withNatsText(status, natsText),
                QStringLiteral("the server's log says why (for example its connection limit, or an authentication timeout); "
                               "retry once that is fixed")};
    default: return fromStatus(status, natsText, attempt);
    }
}

ConnectFailure::Cause ConnectFailure::tlsHandshake(const QString &natsText, const ConnectAttempt &attempt, const ServerProbeFacts &f)
{
    QStringList todo;
    QString sentence;
    if (f.tlsRequired && !attempt.tlsWanted()) {
        // nats.c switches to TLS by itself when the server requires it; without a CA it cannot verify the server.
        sentence = QStringLiteral("%1 requires TLS (its greeting says so), and the TLS handshake failed: no CA certificate "
                                  "was given to verify the server's certificate")
                       .arg(serverAt(f));
        todo << QStringLiteral("connect with TLS and give the CA certificate that signed the server's certificate");
    } else {
        sentence = QStringLiteral("the TLS handshake with %1 failed").arg(serverAt(f));
        if (!attempt.caGiven)
            todo << QStringLiteral("give the CA certificate that signed the server's certificate (without one, only CAs this "
                                   "machine trusts are accepted)");
        else
            todo << QStringLiteral("check that the CA certificate is the one that signed the server's certificate, and that the "
                                   "certificate names %1")
                        .arg(f.host);
    }
    if (f.tlsVerify)
        todo << (attempt.clientCertGiven ? QStringLiteral("check that the client certificate is signed by a CA the server trusts")
                                         : QStringLiteral("the server also requires a client certificate: give one with its key"));
    return {Error::Kind::Tls, sentence + withNatsText(NATS_SSL_ERROR, natsText), todo.join(QStringLiteral("; "))};
}

} // namespace MqttDoctor
