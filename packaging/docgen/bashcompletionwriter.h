#pragma once

#include <QJsonObject>
#include <QString>

namespace MqttDoctor::Docgen {

/**
 * The bash completion of a program with commands, made from its `--help-json` table: the commands
 * (as the first word that is not an option or an option's value), the global options and each
 * command's own options after a "-", files for options and arguments whose value name says FILE or
 * PATH, directories for DIR. Self-contained: it needs nothing from the bash-completion package.
 */
class BashCompletionWriter final
{
public:
    explicit BashCompletionWriter(QJsonObject table) : m_table(std::move(table)) {}

    /** The script, or an empty string with `error` set when a name is not a plain word (never quoted into the script). */
    QString script(QString *error) const;

private:
    QJsonObject m_table;
};

} // namespace MqttDoctor::Docgen
