#include "connectioneventbridge.h"

#include "controllers/clustercontroller.h"
#include "controllers/guidelivery.h"

namespace MqttDoctor {

ConnectionEventBridge::ConnectionEventBridge(ClusterController *target, quint64 epoch) : m_target(target), m_epoch(epoch) {}

ConnectionEventBridge::~ConnectionEventBridge() = default;

void ConnectionEventBridge::attach(const QList<std::shared_ptr<NatsConnection>> &connections)
{
    QList<std::shared_ptr<NatsConnection>> fresh;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_target)
            return;
        for (const auto &c : connections) {
            if (!c || m_seen.contains(c.get()))
                continue;
            m_seen.insert(c.get());
            m_connections.append(c);
            fresh.append(c);
        }
    }
    // Installing a handler takes the connection's own lock: not under ours (no lock ordering).
    for (const auto &c : std::as_const(fresh)) {
        const QString role = c->settings().role;
        std::weak_ptr<ConnectionEventBridge> weak = weak_from_this();
        c->setEventHandler([weak, role](const ConnectionEvent &event) {
            if (auto self = weak.lock())
                self->post(role, event);
        });
    }
}

void ConnectionEventBridge::detach()
{
    QMutexLocker lock(&m_mutex);
    m_target = nullptr;
}

void ConnectionEventBridge::clearHandlers()
{
    QList<std::weak_ptr<NatsConnection>> connections;
    {
        QMutexLocker lock(&m_mutex);
        connections.swap(m_connections);
        m_seen.clear();
    }
    for (const auto &weak : std::as_const(connections))
        if (auto c = weak.lock())
            c->setEventHandler({});
}

void ConnectionEventBridge::post(const QString &role, const ConnectionEvent &event)
{
    QMutexLocker lock(&m_mutex);
    if (!m_target)
        return;
    ClusterController *target = m_target;
    const quint64 epoch = m_epoch;
    // The controller drops events of an older epoch (connections it no longer uses).
    GuiDelivery::post(target, [target, epoch, role, event] { target->handleConnectionEvent(epoch, role, event); });
}

} // namespace MqttDoctor
