#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `record --interval 1m`: checks and records on an interval, and the client events between checks. */
QList<Command> recorderCommands();

} // namespace MqttDoctor::Cli
