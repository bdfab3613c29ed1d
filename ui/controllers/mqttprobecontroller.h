#pragma once

#include <QString>

#include <memory>

#include "controllers/accounttaskcontroller.h"
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
class MqttProbeController final : public AccountTaskController
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MqttProbeController)

public:
    MqttProbeController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent = nullptr);

    /** The probe settings the profile has for the account (empty members when it has none). */
    MqttProbeSettings profileSettings() const;
    /**
     * Starts a probe with `settings` (listener, MQTT user and password; an empty listener: the first one the
     * servers announce). False, nothing started, without connections.
     */
    bool probe(const MqttProbeSettings &settings);

Q_SIGNALS:
    /** What the probe saw, every step (a probe that could not start says why in its result). */
    void finished(const MqttDoctor::MqttProbeResult &result);
};

} // namespace MqttDoctor
