#pragma once

#include <optional>

#include <QList>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "diagnosis/finding.h"
#include "repair/repairexecutor.h"
#include "repair/repairplan.h"

namespace MqttDoctor {

/**
 * How the repair wizard shows plans, step outcomes and the verification: rich text for
 * QTextBrowser, the same content the CLI's `repair` prints (description, -old +new diff, exact
 * requests, backups, precondition, verification, undo). Pure; GUI thread or any.
 */
namespace RepairWizardFormat {

/**
 * Why a repair (or an operator action) may not change anything, and how to turn changes on, in the GUI's terms:
 * a read-only profile names the "Allow changes" switch and the CLI's --allow-changes, missing credentials the
 * account's own. Empty when `blocked` is nullopt.
 */
QString blockedText(const std::optional<Error> &blocked);
/** "Applied", "Already done", ... */
QString stateText(StepOutcome::State state);
/** The whole plan, step by step, then the findings it leaves to the operator and its notes. */
QString planHtml(const RepairPlan &plan);
/** Where a repair run stands after a round. */
struct RoundState
{
    int ran = 1; ///< rounds run so far
    int next = 0; ///< the number of the round planned next, 0 when none
    QString stopText; ///< why the run stopped, when it did
    /** What the last check could not look at that leaves its verdict open (CoverageGap::text): never "clean" then. */
    QStringList openGaps;
    /** What a real MQTT client saw after the last round (MqttProbeResult::summary), and whether it worked. */
    QStringList probes;
    bool probeFailed = false;
};
/** What the run did: why it stopped (if it did), the next round, the backups written, fixed and remaining findings. */
QString outcomeHtml(const QStringList &accounts, const RepairExecutor::Report &report, const QList<Finding> &fixed,
                    const QList<Finding> &remaining, const QString &recheckError, const RoundState &rounds);

} // namespace RepairWizardFormat
} // namespace MqttDoctor
