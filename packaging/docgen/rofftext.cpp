#include "rofftext.h"

namespace MqttDoctor::Docgen {

QString RoffText::escape(const QString &text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    return out;
}

QString RoffText::literal(const QString &text)
{
    return escape(text).replace(QLatin1Char('-'), QStringLiteral("\\-"));
}

QString RoffText::lineStart(const QString &line)
{
    if (line.startsWith(QLatin1Char('.')) || line.startsWith(QLatin1Char('\'')))
        return QStringLiteral("\\&") + line;
    return line;
}

QString RoffText::fromMarkdown(const QString &markdown)
{
    QString out;
    qsizetype i = 0;
    const qsizetype n = markdown.size();
    QString plain;
    const auto flush = [&] {
        out += escape(plain);
        plain.clear();
    };
    while (i < n) {
        const QChar c = markdown.at(i);
        if (c == QLatin1Char('`')) {
            const qsizetype end = markdown.indexOf(QLatin1Char('`'), i + 1);
            if (end > i) {
                flush();
                out +=
                    QStringLiteral("\\fB\\%") + literal(markdown.mid(i + 1, end - i - 1)) + QStringLiteral("\\fR"); // \% : never hyphenated
                i = end + 1;
                continue;
            }
        } else if (markdown.mid(i, 2) == QStringLiteral("**")) {
            const qsizetype end = markdown.indexOf(QStringLiteral("**"), i + 2);
            if (end > i) {
                flush();
                out += QStringLiteral("\\fB") + fromMarkdown(markdown.mid(i + 2, end - i - 2)) + QStringLiteral("\\fR");
                i = end + 2;
                continue;
            }
        } else if (c == QLatin1Char('*') && i + 1 < n && !markdown.at(i + 1).isSpace()) {
            const qsizetype end = markdown.indexOf(QLatin1Char('*'), i + 1);
            if (end > i + 1 && !markdown.at(end - 1).isSpace()) {
                flush();
                out += QStringLiteral("\\fI") + fromMarkdown(markdown.mid(i + 1, end - i - 1)) + QStringLiteral("\\fR");
                i = end + 1;
                continue;
            }
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = markdown.indexOf(QStringLiteral("]("), i + 1);
            const qsizetype end = close > i ? markdown.indexOf(QLatin1Char(')'), close + 2) : -1;
            if (close > i && end > close && !markdown.mid(i + 1, close - i - 1).contains(QLatin1Char('['))) {
                flush();
                out += fromMarkdown(markdown.mid(i + 1, close - i - 1));
                i = end + 1;
                continue;
            }
        }
        plain += c;
        ++i;
    }
    flush();
    return out;
}

} // namespace MqttDoctor::Docgen
