#pragma once
// The backup file of a retained repair step (the executor writes it before the step runs): finding it,
// reading the records it holds, and checking it holds every message the step is about to delete. Shared
// by retainedactions.cpp and retainedrevert.cpp; private to repair/actions.

#include <QList>
#include <QString>

#include "common/result.h"
#include "mqtt/retainedrecord.h"
#include "repair/repairaction.h"

namespace MqttDoctor::RetainedStepBackup {

/** The newest backup file the executor wrote for `step` in ctx.backupDir; empty when there is none. */
QString stepBackupFile(const ExecContext &ctx, const RepairStep &step);
/** The decodable, non-marker records of a backup file: those on `$MQTT.rmsgs.<subject>` subjects when `perSubject`, else the others. */
Result<QList<RetainedRecord>> backupRecords(const QString &path, bool perSubject);

/**
 * docs/safety.md, "Nothing is lost", checked by the action itself: the step's backup file holds every one of `sequences`
 * (the messages the step is about to delete). An error naming what is missing otherwise.
 */
Result<void> requireBackedUp(const ExecContext &ctx, const RepairStep &step, const QList<quint64> &sequences);

} // namespace MqttDoctor::RetainedStepBackup
