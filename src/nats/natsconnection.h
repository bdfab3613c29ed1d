#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/profile.h"
#include "nats/requestcounter.h"

typedef struct __natsConnection natsConnection; // NOLINT: nats.c's own name, kept opaque here

namespace MqttDoctor {

/** What one connection needs: where, who, TLS, how long to wait. */
struct ConnectionSettings
{
    QStringList servers;
    Credentials credentials;
    TlsSettings tls;
    int timeoutMs = 5000;
    QString role; ///< for messages: "system connection", "account ACME", ...
    /** Also counts this connection's requests (the connection set's counter); may be null. */
    std::shared_ptr<RequestCounter> counter;
};

/** A reply to a request, as Qt values. */
struct NatsReply
{
    QString subject;
    QByteArray data;
};

/** A connection state change, reported from a nats.c thread. */
struct ConnectionEvent
{
    enum class Type { Disconnected, Reconnected, Closed, AsyncError };
    Type type = Type::Disconnected;
    QString url;
    QString text;
};

/**
 * One nats.c connection. Every member function that talks to the server blocks and must be called
 * on a worker thread (AsyncRunner), never on the GUI thread; all of them are safe to call from
 * several threads at once (nats.c locks internally). C objects never leave this class.
 */
class NatsConnection final
{
public:
    using EventHandler = std::function<void(const ConnectionEvent &)>;

    /** Connects (blocking, bounded by settings.timeoutMs per server). */
    static Result<std::shared_ptr<NatsConnection>> connect(const ConnectionSettings &settings);

    ~NatsConnection();
    NatsConnection(const NatsConnection &) = delete;
    NatsConnection &operator=(const NatsConnection &) = delete;

    /** One request, one reply. timeoutMs < 0 uses the connection's timeout. */
    Result<NatsReply> request(const QString &subject, const QByteArray &payload, int timeoutMs = -1);
    /**
     * One request answered by several responders (the `$SYS.REQ.SERVER.PING.*` subjects: one reply
     * per server). Collects replies until `quietMs` passes without one, `expected` replies arrived
     * (0: no count), or the overall timeout ends. No reply at all is an error (Timeout/NoResponders).
     */
    Result<QList<NatsReply>> gather(const QString &subject, const QByteArray &payload, int quietMs, int expected = 0, int timeoutMs = -1);
    /**
     * Permission violations the server reported asynchronously: a mark taken before an operation,
     * then the text of the first violation after it that names `subject` (any subject when empty),
     * or an empty string. Any thread.
     */
    quint64 asyncErrorMark() const;
    QString permissionViolationSince(quint64 mark, const QString &subject = {}) const;

    /** Core publish (no reply). */
    Result<void> publish(const QString &subject, const QByteArray &payload);

    QString connectedUrl() const;
    /**
     * How many servers the client knows of: the URLs given plus those the cluster advertised (INFO
     * connect_urls). An estimate of how many servers answer a request that every server answers.
     */
    int knownServerCount() const;
    QString connectedServerId() const;
    quint64 clientId() const;
    int timeoutMs() const { return m_settings.timeoutMs; }
    const ConnectionSettings &settings() const { return m_settings; }
    /**
     * The requests this connection sent (request(), gather(), ReplyGatherer, the stream readers);
     * they count in settings().counter too. Any thread.
     */
    RequestCounter &requests() const { return *m_requests; }
    bool isConnected() const;

    /**
     * Called from nats.c threads on disconnect/reconnect/close/async errors: the handler must copy
     * what it needs and post to its own thread (QMetaObject::invokeMethod, queued), never touch a
     * QObject directly. Pass an empty handler before the receiver dies; a call already under way
     * on a nats.c thread may still finish after that, so the handler must guard its target itself
     * (e.g. a mutex-protected pointer cleared before the receiver dies).
     */
    void setEventHandler(EventHandler handler);

    /** Waits for nats.c's threads to end; call once at exit after every connection is gone. */
    static void shutdownLibrary(int timeoutMs = 2000);

    struct Private;

private:
    friend natsConnection *natsHandle(NatsConnection &connection);
    explicit NatsConnection(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
    ConnectionSettings m_settings;
    std::unique_ptr<RequestCounter> m_requests;
};

} // namespace MqttDoctor
