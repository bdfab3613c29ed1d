#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "nats/profile.h"
#include "nats/serverprobe.h"

namespace MqttDoctor {

/** What a connect attempt was set up with: what explaining its failure may rely on. */
struct ConnectAttempt
{
    QStringList urls; ///< normalised (normalizeServerUrl), never holding credentials
    QString role; ///< "connection", "system connection", "account ACME", ...
    int timeoutMs = 5000;
    bool tlsUrl = false; ///< a tls:// URL
    bool caGiven = false; ///< a CA certificate to verify the server with
    bool clientCertGiven = false; ///< a client certificate and key
    Credentials::Kind credentials = Credentials::Kind::None;
    qint64 elapsedMs = -1; ///< how long natsConnection_Connect took (-1: not known)

    bool tlsWanted() const { return tlsUrl || caGiven || clientCertGiven; }
    /**
     * The attempt ran into its timeout. nats.c 3.4.1 reads the handshake's PONG past its deadline and
     * then fails as if the server had closed the connection ("Expected 'PONG', got ''"): only the time
     * it took tells a late answer from a closed connection. Only with one URL: with several, the time is
     * spread over them and does not say how the last one ended.
     */
    bool ranOutOfTime() const { return urls.size() == 1 && elapsedMs >= 0 && elapsedMs >= timeoutMs; }
};

/**
 * Explains a failed natsConnection_Connect by its cause, from nats.c's status and facts the tool
 * establishes itself, never from nats.c's error text:
 *
 * - the status alone where it tells the cause: NATS_CONNECTION_AUTH_FAILED (the credentials),
 *   NATS_SECURE_CONNECTION_WANTED (TLS wanted, the server offers none), a server's -ERR (NATS_ERR)...
 * - for NATS_NO_SERVER, NATS_TIMEOUT, a closed connection, a protocol or TLS error, what
 *   ServerProbe finds at each URL: the host does not resolve (Dns), nothing listens (refused),
 *   something that is not a NATS client port answers (NotNatsServer), the server's INFO says it
 *   requires TLS or client certificates (Tls), it stays silent (Timeout).
 *
 * The message names the URL, the role and the cause; nats.c's text follows only as a detail where
 * it adds something (the TLS library's reason, the server's own words). Hints speak of settings
 * ("the user and password", "the CA certificate"), never of command-line options.
 */
class ConnectFailure final
{
public:
    /** Probes the URLs when the status needs it (blocking, bounded by the attempt's timeout). */
    static Error explain(int natsStatus, const QString &natsText, const ConnectAttempt &attempt);
    /** True when the status alone does not tell the cause and the URLs are probed. */
    static bool needsProbe(int natsStatus);
    /** explain() with the facts already established (one per URL, in the attempt's order; may be fewer). */
    static Error classify(int natsStatus, const QString &natsText, const ConnectAttempt &attempt, const QList<ServerProbeFacts> &facts);

private:
    struct Cause
    {
        Error::Kind kind = Error::Kind::Internal;
        QString sentence; ///< what happened, naming the host where it is about one URL
        QString hint;
    };
    static Cause fromStatus(int natsStatus, const QString &natsText, const ConnectAttempt &attempt);
    static Cause fromFacts(int natsStatus, const QString &natsText, const ConnectAttempt &attempt, const ServerProbeFacts &facts);
    static Cause fromNatsServer(int natsStatus, const QString &natsText, const ConnectAttempt &attempt, const ServerProbeFacts &facts);
    static Cause tlsHandshake(const QString &natsText, const ConnectAttempt &attempt, const ServerProbeFacts &facts);
    static int priority(Error::Kind kind);
};

} // namespace MqttDoctor
