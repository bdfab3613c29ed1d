#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `history [--client CLIENT_ID]` and `changes`: what the local history holds (no server needed). */
QList<Command> historyCommands();

} // namespace MqttDoctor::Cli
