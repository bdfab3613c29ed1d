#pragma once

#include <optional>

#include "diagnosis/checkoptions.h"

namespace MqttDoctor::Cli {

struct CliContext;

/**
 * The check thresholds every command that checks takes, parsed once for all of them: --stale-after
 * (SESSION_STALE), --client-id (SESSION_HASH_COLLISION), --pinned-warn-at (INTEREST_PINNED) and, where the
 * command has it, --api-errors-per-minute (JETSTREAM_API_ERRORS). Options the command does not have are
 * left at their defaults. nullopt when all were valid; else the exit code of the usage error already printed.
 */
std::optional<int> parseThresholdOptions(CliContext &ctx, CheckOptions &options);

} // namespace MqttDoctor::Cli
