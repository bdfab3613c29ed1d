#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "repair/repairplan.h"

namespace MqttDoctor {

/**
 * From findings to an ordered plan for one account (docs/findings.md, each code's repair). Pure; any thread.
 *
 * Each finding with a repair action is handed to that action (RepairActionRegistry), which returns
 * its steps; findings without one go to RepairPlan::unrepairable. Steps are ordered by phase so
 * that blockers go first: (1) resolve_overlap (free the subjects), (2) create_stream, (3) the stream
 * config changes (update_stream, recreate_stream, migrate_retained, republish, revert_retained),
 * (4) legacy session migration, (5) record-level steps (purge_session, delete_session,
 * create_consumer, delete_consumer). A record-level step depends on the stream steps of the streams
 * it touches. Duplicate steps (same action and object) are planned once; two steps that would undo
 * each other are a conflict and both are left out with a note.
 */
namespace RepairPlanner {

struct Options
{
    QString account; ///< the account to repair (its findings only)
    QStringList onlyCodes; ///< `--finding CODE ...`: only these codes (empty: every code)
    QString apiDomain; ///< JetStream API domain of the request subjects
};

RepairPlan plan(const DiagnosisInput &input, const QList<Finding> &findings, const Options &options);

/** The phase a step's action runs in (lower first). */
int phaseOf(const QString &action);

} // namespace RepairPlanner
} // namespace MqttDoctor
