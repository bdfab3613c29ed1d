#include "markdownsection.h"

#include "rofftext.h"

namespace MqttDoctor::Docgen {

namespace {

bool isTableRow(const QString &line)
{
    return line.startsWith(QLatin1Char('|'));
}

QStringList cells(const QString &row)
{
    QString inner = row.trimmed();
    if (inner.startsWith(QLatin1Char('|')))
        inner.remove(0, 1);
    if (inner.endsWith(QLatin1Char('|')))
        inner.chop(1);
    // A '|' inside `code` is not a cell boundary.
    QStringList out;
    QString cell;
    bool code = false;
    for (const QChar c : inner) {
        if (c == QLatin1Char('`'))
            code = !code;
        if (c == QLatin1Char('|') && !code) {
            out << cell.trimmed();
            cell.clear();
        } else {
            cell += c;
        }
    }
    out << cell.trimmed();
    return out;
}

bool isSeparatorRow(const QString &row)
{
    for (const QString &cell : cells(row))
        if (!cell.isEmpty() && cell.count(QLatin1Char('-')) + cell.count(QLatin1Char(':')) != cell.size())
            return false;
    return true;
}

} // namespace

int MarkdownSection::headingLevel(const QString &line)
{
    qsizetype level = 0;
    while (level < line.size() && line.at(level) == QLatin1Char('#'))
        ++level;
    return level > 0 && level < line.size() && line.at(level) == QLatin1Char(' ') ? int(level) : 0;
}

QString MarkdownSection::headingText(const QString &line)
{
    QString text = line.mid(headingLevel(line)).trimmed();
    text.remove(QLatin1Char('`'));
    return text;
}

MarkdownSection MarkdownSection::find(const QString &markdown, const QString &heading)
{
    const QStringList all = markdown.split(QLatin1Char('\n'));
    MarkdownSection section;
    qsizetype start = -1;
    int level = 1;
    bool fenced = false;
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString &line = all.at(i);
        if (line.startsWith(QStringLiteral("```")))
            fenced = !fenced;
        const int l = fenced ? 0 : headingLevel(line);
        if (start < 0) {
            if (heading.isEmpty() ? l == 1 : (l > 0 && headingText(line) == heading)) {
                start = i + 1;
                level = heading.isEmpty() ? 1 : l;
            }
            continue;
        }
        if (l > 0 && (l <= level || (heading.isEmpty() && l == 2)))
            break;
        section.m_lines << line;
    }
    while (!section.m_lines.isEmpty() && section.m_lines.first().trimmed().isEmpty())
        section.m_lines.removeFirst();
    while (!section.m_lines.isEmpty() && section.m_lines.last().trimmed().isEmpty())
        section.m_lines.removeLast();
    return section;
}

QString MarkdownSection::toRoff() const
{
    QString out;
    QStringList paragraph;
    bool first = true;
    const auto startBlock = [&](const QString &macro) {
        out += (first && macro == QStringLiteral(".PP")) ? QString() : macro + QLatin1Char('\n');
        first = false;
    };
    const auto flushParagraph = [&] {
        if (paragraph.isEmpty())
            return;
        startBlock(QStringLiteral(".PP"));
        out += RoffText::lineStart(RoffText::fromMarkdown(paragraph.join(QLatin1Char(' ')))) + QLatin1Char('\n');
        paragraph.clear();
    };
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        const QString line = m_lines.at(i);
        const QString trimmed = line.trimmed();
        if (line.startsWith(QStringLiteral("```"))) {
            flushParagraph();
            startBlock(QStringLiteral(".PP"));
            out += QStringLiteral(".RS 4\n.nf\n");
            for (++i; i < m_lines.size() && !m_lines.at(i).startsWith(QStringLiteral("```")); ++i)
                out += RoffText::lineStart(RoffText::escape(m_lines.at(i))) + QLatin1Char('\n');
            out += QStringLiteral(".fi\n.RE\n");
        } else if (trimmed.isEmpty()) {
            flushParagraph();
        } else if (headingLevel(line) > 0) {
            flushParagraph();
            out += QStringLiteral(".SS \"") + RoffText::escape(headingText(line)).replace(QLatin1Char('"'), QStringLiteral("\\(dq"))
                + QStringLiteral("\"\n");
            first = true;
        } else if (isTableRow(line)) {
            flushParagraph();
            // The header row names the columns; rows after the separator are the entries.
            const bool header = i + 1 < m_lines.size() && isTableRow(m_lines.at(i + 1)) && isSeparatorRow(m_lines.at(i + 1));
            if (header) {
                ++i;
                continue;
            }
            const QStringList row = cells(line);
            startBlock(QStringLiteral(".TP"));
            out += RoffText::lineStart(RoffText::fromMarkdown(row.value(0))) + QLatin1Char('\n');
            QStringList rest;
            for (const QString &cell : row.mid(1))
                rest << RoffText::fromMarkdown(cell);
            out += RoffText::lineStart(rest.join(QStringLiteral(" \\(em "))) + QLatin1Char('\n');
        } else if (trimmed.startsWith(QStringLiteral("- "))) {
            flushParagraph();
            QStringList item{trimmed.mid(2)};
            while (i + 1 < m_lines.size() && m_lines.at(i + 1).startsWith(QStringLiteral("  ")) && !m_lines.at(i + 1).trimmed().isEmpty())
                item << m_lines.at(++i).trimmed();
            startBlock(QStringLiteral(".IP \\(bu 2"));
            out += RoffText::lineStart(RoffText::fromMarkdown(item.join(QLatin1Char(' ')))) + QLatin1Char('\n');
        } else {
            paragraph << trimmed;
        }
    }
    flushParagraph();
    return out;
}

} // namespace MqttDoctor::Docgen
