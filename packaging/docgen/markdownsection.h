#pragma once

#include <QString>
#include <QStringList>

namespace MqttDoctor::Docgen {

/**
 * A section of a Markdown document (docs/cli.md) and its text as man(7) roff: the part under one
 * heading, up to the next heading of the same or a higher level, or the introduction (before the
 * first "##"). Paragraphs, code blocks, tables (each row a tagged paragraph: the first cell as the
 * tag), "- " lists and sub-headings (as .SS) are converted.
 */
class MarkdownSection final
{
public:
    /**
     * The section under `heading` (the heading's text without '#' and backticks, e.g. "Exit codes"),
     * or the introduction when `heading` is empty. Empty `lines` when there is no such heading.
     */
    static MarkdownSection find(const QString &markdown, const QString &heading);

    bool isEmpty() const { return m_lines.isEmpty(); }
    QStringList lines() const { return m_lines; }
    /** The section's body as roff, without a heading of its own. */
    QString toRoff() const;

    /** A heading line's level (count of leading '#') and text without backticks; level 0 for other lines. */
    static int headingLevel(const QString &line);
    static QString headingText(const QString &line);

private:
    QStringList m_lines;
};

} // namespace MqttDoctor::Docgen
