#pragma once

#include <functional>

#include <QByteArray>
#include <QList>
#include <QString>

#include "common/result.h"
#include "nats/natsconnection.h"

namespace MqttDoctor {

/**
 * Requests that any number of responders answer (the `$SYS.REQ.SERVER.PING.*` subjects: one reply
 * per server), several at once on one connection through one wildcard reply inbox.
 *
 * A request ends as soon as its handler says it has every reply it waits for (the caller knows how
 * many servers to expect), else when `quietMs` pass after its last reply without another one (a
 * server that does not answer), or at its timeout, counted from when it was sent. Requests are sent
 * `window` at a time; the next goes out when an earlier one ends, so a long list of requests never
 * has all its replies queued at once. A reply that arrives for a request that already ended is
 * dropped unread.
 *
 * Blocking: call on a worker thread. The handler runs on the calling thread, in arrival order.
 */
class ReplyGatherer final
{
public:
    struct Request
    {
        QString subject;
        QByteArray payload;
    };
    enum class Verdict { More, Enough };
    /** One reply of request `index`; an error ends the whole gathering with it. */
    using Handler = std::function<Result<Verdict>(int index, NatsReply &&reply)>;
    /** How each request ended. */
    struct Outcome
    {
        int replies = 0;
        bool enough = false; ///< the handler said Enough (false: the quiet period ended it)
        qint64 bytes = 0;
    };

    /** timeoutMs < 0: the connection's timeout, per request. */
    ReplyGatherer(NatsConnection &connection, int quietMs, int timeoutMs = -1);

    /** How many requests are in flight at most (default 8). */
    void setWindow(int window) { m_window = std::max(1, window); }

    /**
     * Sends the requests and hands every reply to `handler`. Fails when a request got no reply at
     * all (Timeout, NoResponders, PermissionDenied, as NatsConnection::request reports them), when a
     * request is answered by more replies or bytes than any cluster sends (a flood), or with the
     * handler's error.
     */
    Result<QList<Outcome>> run(const QList<Request> &requests, const Handler &handler);

private:
    NatsConnection &m_connection;
    int m_quietMs;
    int m_timeoutMs;
    int m_window = 8;
};

} // namespace MqttDoctor
