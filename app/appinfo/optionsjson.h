#pragma once

#include <QCommandLineOption>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace MqttDoctor {

/**
 * Command-line options as JSON, for the documents made from a program's own option tables at build
 * time (man pages, bash completion; `--help-json`): `{"names": ["s", "server"], "value": "urls",
 * "description": "...", "defaults": [...]}` ("value" empty for a flag). Options hidden from --help
 * are left out.
 */
class OptionsJson final
{
public:
    static QJsonObject option(const QCommandLineOption &option);
    static QJsonArray options(const QList<QCommandLineOption> &options);
    /** The option that makes a program print its `--help-json` document (hidden from --help). */
    static QCommandLineOption helpJsonOption();
};

} // namespace MqttDoctor
