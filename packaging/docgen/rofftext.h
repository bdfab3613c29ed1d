#pragma once

#include <QString>

namespace MqttDoctor::Docgen {

/** Text for roff (man(7)): escaping and the inline Markdown of the docs (code, bold, italics, links). */
class RoffText final
{
public:
    /** Plain text escaped: backslashes, and a leading '.' or '\'' that roff would read as a request. */
    static QString escape(const QString &text);
    /** As escape(), with hyphens as minus signs ("\-"): option names and commands, which are copied. */
    static QString literal(const QString &text);
    /** One line of Markdown: `code` and **bold** in bold, *x* in italics, [text](link) as its text. */
    static QString fromMarkdown(const QString &markdown);
    /** Starts a line safely: "\&" before a leading '.' or '\''. */
    static QString lineStart(const QString &line);
};

} // namespace MqttDoctor::Docgen
