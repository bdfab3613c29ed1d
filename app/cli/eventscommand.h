#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `events [--account A] [--client ID] [--duration D]`: MQTT clients connecting and disconnecting, live. */
QList<Command> eventsCommands();

} // namespace MqttDoctor::Cli
