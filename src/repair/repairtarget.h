#pragma once

#include <memory>

#include <QString>

#include <optional>

#include "common/result.h"
#include "diagnosis/mqttprobe.h"
#include "nats/profile.h"

namespace MqttDoctor {

class ConnectionSet;
class NatsConnection;

/**
 * The account a backup, restore or repair step works on: its connection (the account's own
 * credentials: only they can read messages and change streams), its JetStream API domain, and the
 * profile it came from. The profile decides whether writes are allowed (`allowChanges`, safety
 * rule 1) and which secrets the audit log must never contain (rule 9).
 */
struct RepairTarget
{
    std::shared_ptr<NatsConnection> connection;
    QString account; ///< may be empty when the server does not say
    QString apiDomain; ///< JetStream API domain (the profile's), empty for none
    Profile profile; ///< where the connection came from: name, allowChanges, secrets to redact
    /** The system account's connection, when the profile has one (a server's kick request needs it); null: none. */
    std::shared_ptr<NatsConnection> system;
    /**
     * The account's MQTT listener and user (the profile's `mqtt_probe` entry): actions that go through MQTT itself
     * (clearing a retained message, making a server forget a session). nullopt: none. Holds a secret: never printed.
     */
    std::optional<MqttProbeRequest> mqtt;

    /**
     * The connection for `account` (empty: the connected user's account): the account's credentials
     * from the profile, else the profile's own connection when it belongs to that account. A clear
     * InvalidInput error when there is none (e.g. only a system connection). Blocking: worker thread.
     */
    static Result<RepairTarget> resolve(ConnectionSet &connections, const QString &account);
    /** A target on an existing connection; allowChanges, domain and name come from `profile`. */
    static RepairTarget fromConnection(const Profile &profile, std::shared_ptr<NatsConnection> connection, const QString &account);

    /** Ok when the profile allows changes; else a ReadOnly error naming `action`. Any thread. */
    Result<void> checkWritable(const QString &action) const;
};

} // namespace MqttDoctor
