#include "textoutput.h"
#include "jsoncontract.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include "common/error.h"

namespace MqttDoctor::Cli {

void TextTable::sizeColumns()
{
    m_widths.clear();
    for (const QString &h : m_header)
        m_widths.append(h.size());
    for (const QStringList &row : m_rows)
        for (qsizetype i = 0; i < row.size() && i < m_widths.size(); ++i)
            m_widths[i] = std::max(m_widths[i], row[i].size());
}

void TextTable::printRow(QTextStream &out, const QStringList &row, const QString &pad) const
{
    // Cells padded to their column's width and two spaces, the last one as it is; no trailing blanks.
    QString line = pad;
    qsizetype length = pad.size();
    for (qsizetype i = 0; i < row.size(); ++i)
        length += std::max(row[i].size(), i < m_widths.size() ? m_widths[i] : 0) + 2;
    line.reserve(length);
    for (qsizetype i = 0; i < row.size(); ++i) {
        line += row[i];
        if (i + 1 < row.size())
            line.resize(line.size() + std::max<qsizetype>(0, (i < m_widths.size() ? m_widths[i] : 0) - row[i].size()) + 2, u' ');
    }
    qsizetype end = line.size();
    while (end > pad.size() && line.at(end - 1) == u' ')
        --end;
    line.truncate(end);
    out << line << '\n';
}

void TextTable::print(QTextStream &out, int indent) const
{
    TextTable sized = *this;
    sized.sizeColumns();
    const QString pad(indent, QLatin1Char(' '));
    sized.printRow(out, m_header, pad);
    for (const QStringList &row : m_rows)
        sized.printRow(out, row, pad);
}

void TextTable::printAdded(QTextStream &out)
{
    if (m_rows.isEmpty())
        return;
    if (!m_headerPrinted) {
        sizeColumns();
        printRow(out, m_header, {});
        m_headerPrinted = true;
    }
    for (const QStringList &row : std::as_const(m_rows))
        printRow(out, row, {});
    m_rows.clear();
}

void printJson(QTextStream &out, const QJsonObject &object)
{
    out << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

void printJsonLine(QTextStream &out, const QJsonObject &object)
{
    out << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) << '\n';
    out.flush();
}

QString cliHint(const Error &error)
{
    QString how;
    switch (error.setting()) {
    case Error::Setting::AccountCredentials:
        how = QStringLiteral("--user/--password, --creds, --nkey or --token of a user of the account, or the account's entry "
                             "under \"accounts\" in the profile");
        break;
    case Error::Setting::AllowChanges: how = QStringLiteral("--allow-changes, or \"allow_changes\": true in the profile"); break;
    case Error::Setting::SystemCredentials:
        how = QStringLiteral("--system-user/--system-password or --system-creds, or \"system\" in the profile");
        break;
    case Error::Setting::None: break;
    }
    if (how.isEmpty())
        return error.hint();
    return error.hint().isEmpty() ? how : error.hint() + QStringLiteral(" (") + how + QLatin1Char(')');
}

QJsonObject errorJson(const Error &error)
{
    return QJsonObject{{QStringLiteral("kind"), Error::kindName(error.kind())},
                       {QStringLiteral("message"), error.message()},
                       {QStringLiteral("hint"), cliHint(error)},
                       {QStringLiteral("nats_status"), error.natsStatus()},
                       {QStringLiteral("js_err_code"), error.jsErrCode()}};
}

void printError(QTextStream &out, const Error &error, bool json)
{
    if (json) {
        printJson(out, JsonContract::stamped(QStringLiteral("error"), QJsonObject{{QStringLiteral("error"), errorJson(error)}}));
        return;
    }
    out << "error: " << error.message() << '\n';
    const QString hint = cliHint(error);
    if (!hint.isEmpty())
        out << "hint: " << hint << '\n';
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
