#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace MqttDoctor {

/**
 * What the tool itself finds at one server URL: whether its host resolves, whether something accepts
 * a TCP connection on its port, and what that something says first. A NATS client port sends its
 * INFO line at once; a port that stays silent is sent one line ("PING") to learn what it speaks (an
 * HTTP server answers it, an MQTT listener closes the connection). Nothing else is sent: no CONNECT,
 * no credentials, no TLS.
 *
 * Used after nats.c failed to connect, to tell the causes nats.c reports with one status apart
 * (NATS_NO_SERVER: the host does not resolve, or nothing listens; NATS_TIMEOUT or a closed
 * connection: not a NATS port, or a hung server).
 */
struct ServerProbeFacts
{
    enum class Resolution {
        Resolved,
        NoSuchHost, ///< the name servers say the name does not exist (or has no address)
        TemporaryFailure, ///< the name servers did not answer (EAI_AGAIN), or not in time
        Failed, ///< another resolver error (see detail)
    };
    enum class Reach {
        NotTried,
        Connected,
        Refused, ///< every address refused the connection: nothing listens
        Unreachable, ///< no route to the host or its network
        TimedOut, ///< no answer to the TCP connect in time
        Failed, ///< another socket error (see detail)
    };
    enum class Greeting {
        NotTried,
        Info, ///< the NATS greeting: an INFO line (see the info fields)
        Http, ///< it answered as an HTTP server
        OtherProtocol, ///< it sent something else first (see firstBytes)
        Closed, ///< it closed the connection without sending anything
        Silent, ///< it sent nothing in time, not even after a line was sent to it
    };

    QString url; ///< the normalised URL probed
    QString host; ///< without brackets for IPv6
    quint16 port = 0;
    Resolution resolution = Resolution::Resolved;
    Reach reach = Reach::NotTried;
    Greeting greeting = Greeting::NotTried;
    QString detail; ///< the resolver's or the socket's own text for Failed/Unreachable, else empty
    QByteArray firstBytes; ///< the first bytes it sent (at most 64), for OtherProtocol and Http
    int waitedMs = 0; ///< how long the step that timed out was waited for

    // From the INFO line (Greeting::Info).
    bool infoParsed = false;
    bool tlsRequired = false;
    bool tlsAvailable = false;
    bool tlsVerify = false; ///< the server requires client certificates
    bool authRequired = false;
    QString serverName;
    QString version;

    /** "host:port" as written in messages ("[::1]:4222" for IPv6). */
    QString hostPort() const;
};

/** Probes server URLs. Blocking, bounded: call on a worker thread. */
class ServerProbe final
{
public:
    /**
     * Probes one URL normalised by normalizeServerUrl() ("scheme://host:port"). Each step waits at
     * most `timeoutMs`: the resolver and the TCP connect at most 3 s, the greeting a quarter of it
     * (0.1 to 0.5 s), twice when the port stays silent.
     */
    static ServerProbeFacts probe(const QString &url, int timeoutMs);
    /** Probes several URLs at once (at most 8; the rest are not probed). Same order as `urls`. */
    static QList<ServerProbeFacts> probeAll(const QStringList &urls, int timeoutMs);
    /** The host and port of a normalised URL; false when it has none. */
    static bool splitUrl(const QString &url, QString *host, quint16 *port);
};

} // namespace MqttDoctor
