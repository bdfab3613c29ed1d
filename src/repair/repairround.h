#pragma once

#include <optional>

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

#include "common/error.h"
#include "diagnosis/coveragegap.h"
#include "diagnosis/finding.h"
#include "repair/repairexecutor.h"
#include "repair/repairplan.h"

namespace MqttDoctor {

/**
 * One round of a repair run (RepairSession): the plan it ran, how each step ended, and the check made
 * right after it (what the round fixed, what the account still shows).
 */
struct RepairRound
{
    int number = 1;
    RepairPlan plan;
    RepairExecutor::Report report;
    /** The account's findings after the round (empty when the check failed or did not run). */
    QList<Finding> after;
    /** Findings of `plan` that the check after the round no longer shows. */
    QList<Finding> fixed;
    /** What the check after the round could not look at. */
    QList<CoverageGap> gaps;
    /** Why the check after the round could not be made. */
    std::optional<Error> recheckError;
    bool checked = false; ///< the check after the round ran (not for a dry run or a stopped round)

    /** docs/cli.md, `repair` JSON: `{round, plan, applied, backups, fixed, remaining}`. */
    QJsonObject toJson() const;
    /** Findings as the JSON array of `check` (Finding::toJson each). */
    static QJsonArray findingsJson(const QList<Finding> &findings);
};

} // namespace MqttDoctor
