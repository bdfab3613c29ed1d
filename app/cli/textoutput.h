#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QJsonObject;
class QTextStream;

namespace MqttDoctor {
class Error;
}

namespace MqttDoctor::Cli {

/** A plain-text table with a header row, columns padded to their widest cell. */
class TextTable final
{
public:
    explicit TextTable(QStringList header) : m_header(std::move(header)) {}
    void addRow(QStringList row) { m_rows.append(std::move(row)); }
    bool isEmpty() const { return m_rows.isEmpty(); }
    void print(QTextStream &out, int indent = 0) const;

private:
    QStringList m_header;
    QList<QStringList> m_rows;
};

/** Prints a JSON object, indented. */
void printJson(QTextStream &out, const QJsonObject &object);
/** An error, as text ("error: ..." plus hint) or as {"error": {...}} with --json. */
void printError(QTextStream &out, const Error &error, bool json);
/** "12.3 MiB" */
QString humanBytes(qint64 bytes);

} // namespace MqttDoctor::Cli
