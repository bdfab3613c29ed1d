#include "docscoverage.h"

#include <QJsonArray>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include "markdownsection.h"

namespace MqttDoctor::Docgen {

namespace {

QStringList longNames(const QJsonArray &options)
{
    QStringList out;
    for (const QJsonValue &v : options)
        for (const QJsonValue &n : v.toObject().value(QStringLiteral("names")).toArray())
            if (n.toString().size() > 1)
                out << QStringLiteral("--") + n.toString();
    return out;
}

bool names(const QString &text, const QString &option)
{
    // "--account" must not match inside "--all-accounts" or "--account-x".
    const QRegularExpression re(QStringLiteral("(^|[^A-Za-z0-9-])") + QRegularExpression::escape(option)
                                + QStringLiteral("($|[^A-Za-z0-9-])"));
    return re.match(text).hasMatch();
}

} // namespace

QStringList DocsCoverage::differences(const QJsonObject &table, const QString &markdown)
{
    QStringList out;
    const QStringList globals = longNames(table.value(QStringLiteral("options")).toArray());
    for (const QString &o : globals)
        if (!names(markdown, o))
            out << QStringLiteral("the global option %1 is not named in the document").arg(o);

    // The command sections: "### `check [--account A | --all-accounts] ...`".
    QMap<QString, QString> headings; // command -> heading text
    static const QRegularExpression commandHeading(QStringLiteral("^### `([a-z][a-z0-9-]*)([^`]*)`"));
    for (const QString &line : markdown.split(QLatin1Char('\n'))) {
        const auto m = commandHeading.match(line);
        if (m.hasMatch())
            headings.insert(m.captured(1), m.captured(1) + m.captured(2));
    }
    QSet<QString> known;
    for (const QJsonValue &v : table.value(QStringLiteral("commands")).toArray()) {
        const QJsonObject c = v.toObject();
        const QString name = c.value(QStringLiteral("name")).toString();
        known.insert(name);
        if (!headings.contains(name)) {
            out << QStringLiteral("the command %1 has no \"### `%1 ...`\" section").arg(name);
            continue;
        }
        const QString heading = headings.value(name);
        const QString section = MarkdownSection::find(markdown, heading).lines().join(QLatin1Char('\n'));
        const QStringList own = longNames(c.value(QStringLiteral("options")).toArray());
        for (const QString &o : own)
            if (!names(heading, o) && !names(section, o))
                out << QStringLiteral("%1's option %2 is not named in its section").arg(name, o);
        static const QRegularExpression option(QStringLiteral("--[a-z][a-z0-9-]*"));
        for (auto it = option.globalMatch(heading); it.hasNext();) {
            const QString o = it.next().captured(0);
            if (!own.contains(o) && !globals.contains(o))
                out << QStringLiteral("the section of %1 names %2, which %1 does not take").arg(name, o);
        }
    }
    for (auto it = headings.cbegin(); it != headings.cend(); ++it)
        if (!known.contains(it.key()))
            out << QStringLiteral("the document has a section for %1, which is not a command").arg(it.key());
    return out;
}

} // namespace MqttDoctor::Docgen
