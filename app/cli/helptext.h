#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/**
 * The CLI's --help texts, made from the commands, their arguments and options (names, value names,
 * descriptions, defaults). QCommandLineParser::helpText() knows one flat list of options and no
 * commands, so it cannot show a command's arguments or keep its options apart from the global ones.
 *
 * - overview() (`nats-mqtt-doctor-cli --help`): the usage, what the tool does, the commands with their
 *   arguments, and the global options once;
 * - command() (`nats-mqtt-doctor-cli COMMAND --help`): the command's usage line with its arguments,
 *   what it does, its arguments, its own options, then the global options under their own heading.
 *
 * Descriptions are wrapped to 80 columns beside a column of names. Options flagged HiddenFromHelp
 * are left out.
 */
class HelpText final
{
public:
    /** `globalOptions`: the options every command takes (connection, --json, --help, --version). */
    explicit HelpText(QList<QCommandLineOption> globalOptions, int width = 80);

    QString overview(const QList<Command> &commands, const QString &description, const QString &footer) const;
    /** The overview's usage lines: "nats-mqtt-doctor-cli [global options] COMMAND [options]", "... COMMAND --help". */
    static QStringList usageLines();
    QString command(const Command &command) const;

private:
    struct Row
    {
        QString term; ///< left column: "-s, --server <urls>", "CLIENT_ID", "session CLIENT_ID"
        QString text; ///< right column, wrapped
    };

    QString table(const QString &heading, const QList<Row> &rows) const;
    static QList<Row> optionRows(const QList<QCommandLineOption> &options);
    static QString optionTerm(const QCommandLineOption &option);
    static QString optionText(const QCommandLineOption &option);
    /** `text` in lines of at most `width` characters (a longer word stays whole on its own line). */
    static QStringList wrap(const QString &text, qsizetype width);

    QList<QCommandLineOption> m_global;
    int m_width;
};

} // namespace MqttDoctor::Cli
