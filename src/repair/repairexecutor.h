#pragma once

#include <atomic>
#include <functional>

#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "diagnosis/finding.h"
#include "repair/repairevent.h"
#include "repair/repairplan.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {

/**
 * Runs a plan step by step (docs/safety.md), on the calling (worker) thread. Read-only profiles are
 * refused before anything runs. Per step: the action's precondition (AlreadyDone skips it, Changed
 * stops the plan), the backups of a destructive step (a failed backup stops the plan before anything
 * is destroyed), apply, verify, and an audit-log entry. Stops at the first failure; the report says
 * what was done, what was not, and which backups restore what. Rerunning the same plan after a crash
 * or a lost connection continues without harm (preconditions see what is already done).
 */
namespace RepairExecutor {

struct Options
{
    QString backupDir; ///< required when the plan has destructive steps
    bool dryRun = false; ///< run preconditions only; change nothing, write no backups
    const std::atomic<bool> *cancel = nullptr; ///< checked between steps
    QString auditPath; ///< empty: AuditLog::defaultPath()
    /** StepStarted, BackupWritten and StepFinished of every step, as they happen (calling thread). */
    std::function<void(const RepairEvent &event)> events;
    /** The round of a RepairSession the plan is (in the events and the audit log); 0: not part of one. */
    int round = 0;
    /** Called after a step's backups are written and right before it changes anything (UIs, fault tests). */
    std::function<void(const RepairStep &step, const QStringList &backupFiles)> beforeApply;
};

/**
 * Where a step's backup goes: "<stamp>-<account>-step<id>-<action>-<stream>[-<subject>][-<index>].jsonl" in
 * `dir`, the stamp the UTC time in milliseconds, so names sort by time. Never the name of a file already
 * there: a plan rerun at once (after a failure right behind its backup) waits for the clock to move on.
 */
QString backupPath(const QString &dir, const RepairStep &step, const RepairBackupSpec &spec, int index);

struct Report
{
    QList<StepOutcome> outcomes; ///< one per plan step, in plan order
    QStringList backups; ///< every backup file written
    bool complete = false; ///< every step applied or already done
    QString stoppedBecause; ///< when not complete: why, and how to restore

    QJsonObject toJson() const;
};

Result<Report> run(const RepairTarget &target, const RepairPlan &plan, const Options &options);

} // namespace RepairExecutor
} // namespace MqttDoctor
