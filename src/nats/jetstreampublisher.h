#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;
class NatsHeaders;

/**
 * Publishes messages into one JetStream stream with publish acknowledgements, many in flight at once
 * over one wildcard inbox subscription (the publishing twin of MessageGetter::getBySequences). The
 * server stores them in the order they were sent. Each message gets exactly one outcome through the
 * ack handler: its stored sequence, or an Error (JetStream error reply, stored in another stream, no
 * stream for the subject, or no ack within the idle timeout). Reply subjects are plain inboxes, never
 * `$MQTT.JSA.*` (docs/safety.md). Blocking: one worker thread per publisher.
 */
class JetStreamPublisher final
{
public:
    /** tag: the caller's id of the message; result: the stored stream sequence, or why not. */
    using AckHandler = std::function<void(quint64 tag, const Result<quint64> &result)>;

    JetStreamPublisher(std::shared_ptr<NatsConnection> connection, QString stream, AckHandler onAck, int inFlight = 256,
                       int idleTimeoutMs = 10000);
    ~JetStreamPublisher();
    JetStreamPublisher(const JetStreamPublisher &) = delete;
    JetStreamPublisher &operator=(const JetStreamPublisher &) = delete;

    /** Sends one message (waiting for acks while `inFlight` are outstanding). An error here is fatal for the run. */
    Result<void> publish(quint64 tag, const QString &subject, const NatsHeaders &headers, const QByteArray &data);
    /** Waits for every outstanding ack; those still missing after the idle timeout get an error outcome. */
    Result<void> finish();

    quint64 outstanding() const;

private:
    Result<void> start();
    Result<void> receive(int waitMs);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace MqttDoctor
