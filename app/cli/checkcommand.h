#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `check [--account A | --all-accounts] [--stream-replicas N] [--upgrade-planned] [--target-version V]` */
QList<Command> checkCommands();

} // namespace MqttDoctor::Cli
