#pragma once

#include <QString>
#include <QTextStream>

#include "repair/repairexecutor.h"
#include "repair/repairplan.h"

namespace MqttDoctor::Cli {

/** How `repair` and the operator actions print a plan's step and ask for consent (text mode). */
namespace PlanText {

/**
 * The lines under a step's description: its exact requests (the first `requestsShown`, then how many more; -1:
 * all), its backups, what it checks first, how it is verified and undone, indented by five spaces.
 */
void printStepDetails(QTextStream &out, const RepairStep &step, int requestsShown = -1);
/** How many steps of a dry run's report would change something (their state is `not_run`). */
int stepsThatWouldRun(const RepairExecutor::Report &report);
/** Prints `question` with " [y/N] " and reads a line from standard input: true for y or yes. */
bool confirm(QTextStream &out, const QString &question);

} // namespace PlanText
} // namespace MqttDoctor::Cli
