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
    bool isEmpty() const { return m_rows.isEmpty() && !m_headerPrinted; }
    void print(QTextStream &out, int indent = 0) const;
    /**
     * For a table of a million rows: prints the rows added since the last call and forgets them. The
     * first call sizes the columns from the header and its rows and prints the header; later rows keep
     * those widths (a wider cell pushes the rest of its line to the right). Nothing when no row came.
     */
    void printAdded(QTextStream &out);

private:
    void printRow(QTextStream &out, const QStringList &row, const QString &pad) const;
    void sizeColumns();

    QStringList m_header;
    QList<QStringList> m_rows;
    QList<qsizetype> m_widths;
    bool m_headerPrinted = false;
};

/** An error as the JSON object `{"kind", "message", "hint", "nats_status", "js_err_code"}`. */
/** The error's hint with the CLI's way to change the setting it names (a flag or the profile key). */
QString cliHint(const Error &error);
QJsonObject errorJson(const Error &error);
/** Prints a JSON object, indented. */
void printJson(QTextStream &out, const QJsonObject &object);
/** Prints a JSON object as one compact line and flushes it: a line of JSON Lines (the streaming commands). */
void printJsonLine(QTextStream &out, const QJsonObject &object);
/** An error, as text ("error: ..." plus hint) or as {"error": {...}} with --json. */
void printError(QTextStream &out, const Error &error, bool json);
/** "12.3 MiB" */
QString humanBytes(qint64 bytes);

} // namespace MqttDoctor::Cli
