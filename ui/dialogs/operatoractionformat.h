#pragma once

#include <optional>

#include <QList>
#include <QSet>
#include <QString>

#include "common/error.h"
#include "repair/operator/operatorplan.h"
#include "repair/operator/operatorrequest.h"
#include "repair/repairexecutor.h"

namespace MqttDoctor {

/**
 * How the operator action dialog words an action, its plan and its outcome: titles, the selection (what is
 * acted on, what is left alone and why), the notes, and what a run did (steps, backups, clients that came
 * back, the journal to resume from). Rich text for QTextBrowser; long lists are cut at `maxRows` with how
 * many more there are. Pure; any thread.
 */
namespace OperatorActionFormat {

/** "Delete Sessions", "Disconnect Clients", "Clear Retained Messages", "Drop Queued Messages". */
QString title(OperatorRequest::Verb verb);
/** The commit button: "&Delete Sessions", ... */
QString commitText(OperatorRequest::Verb verb);
/** One sentence: what the action does to each object and what a client sees afterwards. */
QString intro(OperatorRequest::Verb verb);
/** A row of the selection: the client ID or topic, and the subject when it has one. */
QString itemText(const ActionSelection::Item &item);
/** Steps shown in full before the rest are counted (a link shows them). */
inline constexpr int kStepsShown = 20;
/** Requests of a step shown before the rest are counted (a link shows them, up to kRequestsMax). */
inline constexpr int kRequestsShown = 4;
inline constexpr int kRequestsMax = 1000;
/**
 * The plan's steps as the repair wizard shows them (description, destructive or not, backups, what is checked
 * first, verification, undo, the exact requests), collapsed when there are many: after kStepsShown steps (unless
 * `allSteps`) and after kRequestsShown requests of a step (unless its id is in `expanded`) the rest are counted,
 * with a link ("steps:all", "step:<id>") that shows them.
 */
QString stepsHtml(const RepairPlan &plan, const QSet<QString> &expanded = {}, bool allSteps = false);
/** What the plan acts on and what it leaves alone (with why), then how the change reaches the clients and the notes. */
QString selectionHtml(const OperatorPlan &plan, int maxRows = 200);

/** What a run did, for the run page. */
struct Outcome
{
    OperatorRequest::Verb verb = OperatorRequest::Verb::DeleteSessions;
    std::optional<RepairExecutor::Report> report;
    std::optional<Error> runError;
    QList<ClientReturn> returns;
    QString journalPath;
    bool stopped = false; ///< the operator asked to stop
    QList<ActionSelection::Item> left; ///< what the plan left alone
    QList<RepairStep> steps; ///< the plan's, for the descriptions
};
/** Done, stopped or failed; the steps' outcomes, backups, returning clients, what was left alone, the journal. */
QString outcomeHtml(const Outcome &outcome, int maxRows = 200);

} // namespace OperatorActionFormat
} // namespace MqttDoctor
