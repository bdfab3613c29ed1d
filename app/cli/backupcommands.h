#pragma once

#include <QList>
#include <QString>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `backup --stream NAME --out FILE` and `restore FILE` (docs/cli.md). */
QList<Command> backupCommands();

/** One line for the --help overview: where the audit log of applied changes is. */
QString auditLogHelpLine();

} // namespace MqttDoctor::Cli
