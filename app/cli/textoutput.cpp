#include "textoutput.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include "common/error.h"

namespace MqttDoctor::Cli {

void TextTable::print(QTextStream &out, int indent) const
{
    QList<qsizetype> widths;
    for (const QString &h : m_header)
        widths.append(h.size());
    for (const QStringList &row : m_rows)
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    const QString pad(indent, QLatin1Char(' '));
    auto printRow = [&](const QStringList &row) {
        QString line = pad;
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (i + 1 == row.size())
                line += row[i];
            else
                line += row[i].leftJustified(widths[i]) + QStringLiteral("  ");
        }
        out << line.trimmed().prepend(pad) << '\n';
    };
    printRow(m_header);
    for (const QStringList &row : m_rows)
        printRow(row);
}

void printJson(QTextStream &out, const QJsonObject &object)
{
    out << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

void printError(QTextStream &out, const Error &error, bool json)
{
    if (json) {
        QJsonObject e{{QStringLiteral("kind"), Error::kindName(error.kind())},
                      {QStringLiteral("message"), error.message()},
                      {QStringLiteral("hint"), error.hint()},
                      {QStringLiteral("nats_status"), error.natsStatus()},
                      {QStringLiteral("js_err_code"), error.jsErrCode()}};
        printJson(out, QJsonObject{{QStringLiteral("error"), e}});
        return;
    }
    out << "error: " << error.message() << '\n';
    if (!error.hint().isEmpty())
        out << "hint: " << error.hint() << '\n';
}

QString humanBytes(qint64 bytes)
{
    if (bytes < 0)
        return QStringLiteral("unlimited");
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes) : QStringLiteral("%1 %2").arg(v, 0, 'f', 1).arg(QLatin1String(units[u]));
}

} // namespace MqttDoctor::Cli
