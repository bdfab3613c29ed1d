#pragma once

#include <QCommandLineOption>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/**
 * The CLI's command table as JSON (`nats-mqtt-doctor-cli --help-json`, hidden from --help): the
 * program, its description and usage lines, each command with its synopsis, summary, arguments and
 * own options, and the global options. The man page and the bash completion are made from it at build
 * time, so a new command or option appears in them without being written twice.
 *
 * {"program", "description", "usage": [...],
 *  "commands": [{"name", "synopsis", "usage", "summary",
 *                "arguments": [{"name", "description", "optional", "repeated"}], "options": [...]}],
 *  "options": [...]}   (options as OptionsJson writes them)
 */
class CommandTableJson final
{
public:
    static QJsonObject describe(const QString &description, const QStringList &usage, const QList<Command> &commands,
                                const QList<QCommandLineOption> &globalOptions);
};

} // namespace MqttDoctor::Cli
