#pragma once

#include <QList>

namespace MqttDoctor {

class RepairAction;

/**
 * The repair actions, by family (each family in its own files under repair/actions/). The
 * registry (repairaction.h) lists them all; every instance is static and stateless.
 */
namespace RepairActionFamilies {
/** create_stream, update_stream, recreate_stream, resolve_overlap. */
QList<const RepairAction *> streamActions();
/** migrate_retained, republish, revert_retained. */
QList<const RepairAction *> retainedActions();
/** purge_session, create_consumer, delete_consumer, delete_session, migrate_legacy_sessions. */
QList<const RepairAction *> sessionActions();
/** delete_qos2_records. */
QList<const RepairAction *> qos2Actions();
} // namespace RepairActionFamilies

} // namespace MqttDoctor
