#pragma once

#include <QList>
#include <QString>
#include <QStringList>

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

/** "$MQTT_msgs · consumer X · client c1": what a finding is about, empty when only the account. */
QString findingObject(const Finding &finding);
/** "Applied", "Already done", ... */
QString stateText(StepOutcome::State state);
/** The whole plan, step by step, then the findings it leaves to the operator and its notes. */
QString planHtml(const RepairPlan &plan);
/** What the run did: why it stopped (if it did), the backups written, fixed and remaining findings. */
QString outcomeHtml(const RepairPlan &plan, const RepairExecutor::Report &report, const QList<Finding> &fixed,
                    const QList<Finding> &remaining, const QString &recheckError);
/** A finding's identity across two checks (before and after a repair): Finding::identity(), as the CLI compares them. */
QString findingKey(const Finding &finding);

} // namespace RepairWizardFormat
} // namespace MqttDoctor
