#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Docgen {

/**
 * Whether docs/cli.md and the CLI's command table (`--help-json`) say the same: every command has
 * its "### `name ...`" section, every option of a command is named (`--option`) in its section,
 * every global option is named in the document, and every command section and every option in a
 * section's heading exists in the table. The man page and the completion are made from the table,
 * so this keeps the hand-written reference from drifting from them.
 */
class DocsCoverage final
{
public:
    /** What differs, one sentence each; empty when the document and the table agree. */
    static QStringList differences(const QJsonObject &table, const QString &markdown);
};

} // namespace MqttDoctor::Docgen
