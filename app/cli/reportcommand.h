#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `report --out FILE.html [--pdf FILE.pdf]`: an incident report from the local history. */
QList<Command> reportCommands();

/** The command line runs `report` with `--pdf`: the program needs a QGuiApplication (offscreen) for it. */
bool reportNeedsGui(int argc, char *argv[]);

} // namespace MqttDoctor::Cli
