#pragma once

#include <QObject>
#include <QString>

#include <memory>

#include "diagnosis/mqttprobe.h"
#include "nats/profile.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * The MQTT probe of one account for the GUI (Tools > Probe MQTT): a real MQTT client connects through a
 * server's listener, publishes and receives (MqttProbe), on the worker pool, and the result comes back.
 * A newer probe, cancel() or the controller's end drops an older result. No widgets; GUI thread only.
 */
class MqttProbeController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MqttProbeController)

public:
    /**
     * `runner` (the ClusterController's pool) must outlive the controller's running probes; `connections`
     * is the cluster's connection set (null: not connected), kept until the controller goes.
     */
    MqttProbeController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent = nullptr);
    ~MqttProbeController() override;

    /** The probe settings the profile has for the account (empty members when it has none). */
    MqttProbeSettings profileSettings() const;
    /**
     * Starts a probe with `settings` (listener, MQTT user and password; an empty listener: the first one the
     * servers announce). False, nothing started, without connections.
     */
    bool probe(const MqttProbeSettings &settings);
    void cancel();
    bool isRunning() const { return m_running; }
    const QString &account() const { return m_account; }

Q_SIGNALS:
    void runningChanged(bool running);
    /** What the probe saw, every step (a probe that could not start says why in its result). */
    void finished(const MqttDoctor::MqttProbeResult &result);

private:
    void setRunning(bool running);

    AsyncRunner &m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    QString m_account;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace MqttDoctor
