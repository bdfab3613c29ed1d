#pragma once

#include <QList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `sessions`, `session CLIENT_ID` and `retained` (docs/cli.md). */
QList<Command> recordCommands();

} // namespace MqttDoctor::Cli
