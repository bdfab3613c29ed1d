#pragma once

#include "clicontext.h"
#include "diagnosis/diagnosisgatherer.h"

namespace MqttDoctor::Cli {

/**
 * `check --watch INTERVAL`: checks as `check` does, every interval, and prints only what changed (new
 * and resolved findings, what could or could no longer be looked at, a check that failed), text or
 * JSON Lines. Ends on Ctrl-C with the last check's exit code.
 */
int runCheckWatch(CliContext &ctx, const DiagnosisGatherer::Request &request, qint64 intervalMs);

} // namespace MqttDoctor::Cli
