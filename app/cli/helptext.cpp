#include "helptext.h"

#include <algorithm>

namespace MqttDoctor::Cli {

namespace {

constexpr qsizetype kIndent = 2; ///< before a row's term
constexpr qsizetype kGap = 2; ///< between the term and its text
constexpr qsizetype kMaxTermWidth = 28; ///< a longer term puts its text on the next line
constexpr qsizetype kMinTextWidth = 30;

QString globalHeading()
{
    return QStringLiteral("Global options (connection and output; before or after the command):");
}

} // namespace

HelpText::HelpText(QList<QCommandLineOption> globalOptions, int width) : m_global(std::move(globalOptions)), m_width(width) {}

QString HelpText::overview(const QList<Command> &commands, const QString &description, const QString &footer) const
{
    QString text = QStringLiteral("Usage: ") + usageLines().join(QStringLiteral("\n       ")) + QLatin1Char('\n');
    if (!description.isEmpty())
        text += QLatin1Char('\n') + description + QLatin1Char('\n');
    QList<Row> rows;
    for (const Command &c : commands)
        rows.append({c.synopsis(), c.summary});
    text += QLatin1Char('\n') + table(QStringLiteral("Commands:"), rows);
    text += QLatin1Char('\n') + table(globalHeading(), optionRows(m_global));
    if (!footer.isEmpty())
        text += QLatin1Char('\n') + footer + (footer.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"));
    return text;
}

QStringList HelpText::usageLines()
{
    return {programName() + QStringLiteral(" [global options] COMMAND [options]"), programName() + QStringLiteral(" COMMAND --help")};
}

QString HelpText::command(const Command &command) const
{
    QString text = QStringLiteral("Usage: ") + command.usageLine() + QLatin1Char('\n');
    if (!command.summary.isEmpty())
        text += QLatin1Char('\n') + wrap(command.summary, m_width).join(QLatin1Char('\n')) + QLatin1Char('\n');
    if (!command.arguments.isEmpty()) {
        QList<Row> rows;
        for (const CommandArgument &a : command.arguments)
            rows.append({a.repeated ? a.name + QStringLiteral(" ...") : a.name, a.description});
        text += QLatin1Char('\n') + table(QStringLiteral("Arguments:"), rows);
    }
    const QList<Row> own = optionRows(command.options);
    if (!own.isEmpty())
        text += QLatin1Char('\n') + table(QStringLiteral("Options:"), own);
    text += QLatin1Char('\n') + table(globalHeading(), optionRows(m_global));
    return text;
}

QString HelpText::table(const QString &heading, const QList<Row> &rows) const
{
    qsizetype termWidth = 0;
    for (const Row &r : rows)
        if (r.term.size() <= kMaxTermWidth)
            termWidth = std::max(termWidth, r.term.size());
    const qsizetype textColumn = kIndent + termWidth + kGap;
    const qsizetype textWidth = std::max(kMinTextWidth, qsizetype(m_width) - textColumn);
    const QString pad(textColumn, QLatin1Char(' '));

    QString out = heading + QLatin1Char('\n');
    for (const Row &r : rows) {
        QString line = QString(kIndent, QLatin1Char(' ')) + r.term;
        const QStringList lines = wrap(r.text, textWidth);
        qsizetype first = 0;
        if (r.term.size() > termWidth) {
            out += line + QLatin1Char('\n'); // the text starts on the next line, in its column
        } else if (!lines.isEmpty()) {
            out += line.leftJustified(textColumn) + lines.first() + QLatin1Char('\n');
            first = 1;
        } else {
            out += line + QLatin1Char('\n');
        }
        for (qsizetype i = first; i < lines.size(); ++i)
            out += pad + lines.at(i) + QLatin1Char('\n');
    }
    return out;
}

QList<HelpText::Row> HelpText::optionRows(const QList<QCommandLineOption> &options)
{
    QList<Row> rows;
    for (const QCommandLineOption &o : options)
        if (!o.flags().testFlag(QCommandLineOption::HiddenFromHelp))
            rows.append({optionTerm(o), optionText(o)});
    return rows;
}

QString HelpText::optionTerm(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &n : option.names())
        names << (n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n;
    QString term = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        term += QStringLiteral(" <") + option.valueName() + QLatin1Char('>');
    return term;
}

QString HelpText::optionText(const QCommandLineOption &option)
{
    const QStringList defaults = option.defaultValues();
    if (defaults.isEmpty())
        return option.description();
    QString text = option.description();
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text + QStringLiteral(" (default: ") + defaults.join(QStringLiteral(", ")) + QStringLiteral(").");
}

QStringList HelpText::wrap(const QString &text, qsizetype width)
{
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
                lines << line;
                line.clear();
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        lines << line;
    }
    return lines;
}

} // namespace MqttDoctor::Cli
