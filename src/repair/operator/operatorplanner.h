#pragma once

#include "repair/operator/operatorinput.h"
#include "repair/operator/operatorplan.h"
#include "repair/operator/operatorrequest.h"

namespace MqttDoctor {

/**
 * From an operator's request to a plan of the repair engine's steps (docs/safety.md). Pure; any thread.
 *
 * - DeleteSessions: the selected records in `delete_sessions` steps of Request::batchSize sessions each (a step
 *   backs up, deletes and verifies its batch: the records by sequence, the durables they name that no record left
 *   behind references, their PUBREL consumer and QoS 2 records); a connected client is left out unless
 *   `disconnectFirst`, which plans `disconnect_client` steps before.
 * - Disconnect: one `disconnect_client` step per open connection of the client (the server's kick request, or a
 *   takeover through the account's MQTT listener where the server has none or no system connection exists).
 * - ClearRetained: `clear_retained` steps of up to 200 topics: through the MQTT listener (an empty retained
 *   PUBLISH, as a device clears it) where the profile has one, else by sequence on `$MQTT_rmsgs`, where the
 *   servers' versions let that reach clients.
 * - DropBacklog: one `drop_backlog` step per durable of the session: delete and recreate it as the server would.
 */
namespace OperatorPlanner {

OperatorPlan plan(const OperatorInput &input, const OperatorRequest &request);

/** How many topics one clear_retained step clears. */
inline constexpr int kRetainedPerStep = 200;

} // namespace OperatorPlanner
} // namespace MqttDoctor
