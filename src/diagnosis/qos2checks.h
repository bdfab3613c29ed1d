#pragma once

#include <QList>

#include "diagnosis/finding.h"
#include "diagnosis/sessionchecks.h"

namespace MqttDoctor::Checks {

/**
 * QOS2_ORPHANED (docs/findings.md): one finding per stream and gone session for the records of
 * `$MQTT_qos2in` and `$MQTT_out` whose client-ID hash has no record in `$MQTT_sess`. Nothing when the
 * QoS 2 records were not read or the session records are incomplete. Pure; any thread.
 */
QList<Finding> checkQos2Orphans(const SessionCheckInput &input);

} // namespace MqttDoctor::Checks
