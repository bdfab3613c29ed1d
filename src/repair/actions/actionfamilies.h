#pragma once
// The repair actions, by family. Each action is a RepairAction subclass private to the .cpp file that
// holds it; a file holds one action, or the few small actions of one family and is named for that family
// (streamactions.cpp, retainedactions.cpp, sessionactions.cpp, sessionconsumeractions.cpp), so that an
// action is found by its family. The family functions below list a family's actions in the order the
// registry (repairaction.h) shows them; every instance is static and stateless.
//
// What the actions of a family share lives in files named for what it is: StreamConfigEdit (stream
// configs: the expected spec, what differs, the diff text), RetainedStore and RetainedStepBackup (reads
// and writes of $MQTT_rmsgs, and the backup files of its steps), RetainedActionBase (the step skeleton of
// the retained actions), SessionLiveState and GatheredSessions (a session's live and gathered state).

#include <QList>

namespace MqttDoctor {

class RepairAction;

namespace RepairActionFamilies {

/** create_stream, update_stream, recreate_stream, resolve_overlap (streamactions.cpp). */
QList<const RepairAction *> streamActions();
/** migrate_retained, republish, revert_retained, restore_retained_consumer (retainedactions.cpp). */
QList<const RepairAction *> retainedActions();
/** purge_session, create_consumer, delete_consumer, delete_session, migrate_legacy_sessions, adopt_durable (sessionactions.cpp). */
QList<const RepairAction *> sessionActions();
/** delete_qos2_records (qos2actions.cpp). */
QList<const RepairAction *> qos2Actions();
/** The operator actions: delete_sessions, disconnect_client, clear_retained, drop_backlog (operator*.cpp). */
QList<const RepairAction *> operatorActions();

// The actions in files of their own, which the family functions above add to their lists.

/** recreate_stream (streamrecreate.cpp). */
const RepairAction *recreateStreamAction();
/** revert_retained (retainedrevert.cpp). */
const RepairAction *revertRetainedAction();
/** restore_retained_consumer (retainedconsumerrestore.cpp). */
const RepairAction *restoreRetainedConsumerAction();
/** create_consumer (sessionconsumeractions.cpp). */
const RepairAction *createConsumerAction();
/** delete_consumer (sessionconsumeractions.cpp). */
const RepairAction *deleteConsumerAction();
/** migrate_legacy_sessions (sessionmigrate.cpp). */
const RepairAction *migrateLegacySessionsAction();
/** adopt_durable (sessionadopt.cpp). */
const RepairAction *adoptDurableAction();
/** delete_sessions (operatorsessiondelete.cpp). */
const RepairAction *deleteSessionsAction();
/** disconnect_client (operatordisconnect.cpp). */
const RepairAction *disconnectClientAction();
/** clear_retained (operatorretainedclear.cpp). */
const RepairAction *clearRetainedAction();
/** drop_backlog (operatorbacklogdrop.cpp). */
const RepairAction *dropBacklogAction();

} // namespace RepairActionFamilies

} // namespace MqttDoctor
