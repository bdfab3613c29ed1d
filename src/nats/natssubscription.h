#pragma once

#include <memory>
#include <optional>

#include <QByteArray>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * A plain NATS subscription read by the caller at its own pace (the system advisories `events`
 * follows, for one). Messages queue on nats.c's side until next() takes them; a subscription whose
 * reader falls behind by more than the queue holds loses messages, which next() reports once
 * (droppedSinceLast). Blocking: next() waits on the calling thread. Not thread-safe (one reader).
 */
class NatsSubscription
{
public:
    struct Message
    {
        QString subject;
        QByteArray data;
    };

    /** Subscribes and makes sure the server has the interest before returning (a flush). */
    static Result<std::unique_ptr<NatsSubscription>> subscribe(std::shared_ptr<NatsConnection> connection, const QString &subject);
    ~NatsSubscription();
    NatsSubscription(const NatsSubscription &) = delete;
    NatsSubscription &operator=(const NatsSubscription &) = delete;

    /** The next message; nullopt after `timeoutMs` without one; an error when the connection is closed. */
    Result<std::optional<Message>> next(int timeoutMs);
    /** Messages nats.c dropped (the reader was too slow) since the last call. */
    qint64 droppedSinceLast();
    QString subject() const;

private:
    struct Private;
    explicit NatsSubscription(std::unique_ptr<Private> p);
    std::unique_ptr<Private> d;
};

} // namespace MqttDoctor
