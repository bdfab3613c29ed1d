#pragma once

#include <memory>

#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>

#include "nats/natsconnection.h"

namespace MqttDoctor {

class ClusterController;

/**
 * Carries nats.c connection events (disconnected, reconnected, closed) from nats.c's threads to a
 * ClusterController on the GUI thread. One bridge per ConnectionSet; shared with the handlers so it
 * outlives every callback. The handler only copies the event and posts a queued call while holding
 * the mutex that detach() takes, so nothing is posted once detach() has returned, and Qt drops
 * calls already posted when the controller is destroyed.
 */
class ConnectionEventBridge final : public std::enable_shared_from_this<ConnectionEventBridge>
{
public:
    ConnectionEventBridge(ClusterController *target, quint64 epoch);
    ~ConnectionEventBridge();
    ConnectionEventBridge(const ConnectionEventBridge &) = delete;
    ConnectionEventBridge &operator=(const ConnectionEventBridge &) = delete;

    /** Installs the event handler on connections not seen before. Any thread. */
    void attach(const QList<std::shared_ptr<NatsConnection>> &connections);
    /** Stops posting (GUI thread). */
    void detach();
    /** Removes the handlers from the connections that still exist. Call after detach(). */
    void clearHandlers();

private:
    void post(const QString &role, const ConnectionEvent &event);

    QMutex m_mutex;
    ClusterController *m_target;
    const quint64 m_epoch;
    QSet<const NatsConnection *> m_seen;
    QList<std::weak_ptr<NatsConnection>> m_connections;
};

} // namespace MqttDoctor
