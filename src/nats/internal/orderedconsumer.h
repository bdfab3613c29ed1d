#pragma once

// Internal to the nats layer (includes nats.c): never from a public header.

#include <nats/nats.h>

#include <memory>

#include <QJsonObject>
#include <QString>

#include "common/result.h"
#include "nats/jsackreply.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * A read-only ordered push consumer on one stream, made and torn down by us rather than by nats.c.
 *
 * nats.c's own ordered consumer (js_SubscribeSync) subscribes its delivery inbox before it asks for the
 * consumer, and when that request times out it destroys the subscription at once. The server may well
 * have made the consumer and be delivering to the inbox already; nats.c 3.4.1's reader thread then
 * locks the freed subscription and the process crashes. A slow server is what this tool is for, so
 * every subscription here goes through closeSubscription() (unsubscribe, flush, then destroy).
 *
 * The consumer is ephemeral, acknowledges nothing (`ack_policy` none, one delivery), keeps its state
 * in memory with one replica, is flow controlled and sends idle heartbeats. It answers the server's
 * flow-control requests and stalled-consumer heartbeats. When a consumer sequence is skipped (a
 * message lost on the way), a heartbeat names a later consumer sequence than the last one seen, or the
 * connection reconnected and nothing arrives, it drops the consumer and makes a new one from the stream
 * sequence after the last message handed out; after 100 such restarts the read fails instead.
 *
 * Blocking (network I/O): worker threads only, one thread at a time.
 */
class OrderedConsumer final
{
public:
    /** Whether the first consumer starts at every message or at the last one of each subject. */
    enum class Start { All, LastPerSubject };

    /** `filterSubject` ">" or empty: the whole stream. `domain`: the JetStream domain (empty: none). */
    OrderedConsumer(std::shared_ptr<NatsConnection> connection, QString domain, QString stream, QString filterSubject, Start start);
    /** Unsubscribes and deletes the consumer (its `CONSUMER.DELETE`; a failure there is left to the server's cleanup). */
    ~OrderedConsumer();
    OrderedConsumer(const OrderedConsumer &) = delete;
    OrderedConsumer &operator=(const OrderedConsumer &) = delete;

    /** Subscribes the delivery inbox and asks the server for the consumer (`CONSUMER.CREATE.<stream>`). */
    Result<void> start();

    /**
     * The next stream message, waiting at most `waitMs`; null when none came in that time. The message
     * is the caller's to destroy; `meta` gets its stream sequence, time and pending count. Control
     * messages are handled here and never returned.
     */
    Result<natsMsg *> next(int waitMs, JsAckReply &meta);

    /** The current consumer's `CONSUMER.INFO`. */
    Result<QJsonObject> info();

private:
    Result<void> create(quint64 startSequence);
    void drop();
    Result<void> reset();
    /** A flow-control request or an idle heartbeat (status 100, no data). */
    void handleControl(natsMsg *m);

    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
    QString m_stream;
    QString m_filter;
    Start m_start;
    natsSubscription *m_sub = nullptr;
    QString m_name; ///< the consumer the server made; empty until it answered
    quint64 m_lastStreamSequence = 0; ///< of the last message handed out
    quint64 m_lastConsumerSequence = 0; ///< of the current consumer, 0 before its first message
    quint64 m_reconnects = 0; ///< the connection's reconnect count when the consumer was made
    bool m_needsReset = false;
    int m_resets = 0; ///< new consumers made after the first (kMaxResets at most)
};

} // namespace MqttDoctor
