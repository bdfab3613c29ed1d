#include "manpagewriter.h"

#include <QJsonArray>
#include <QRegularExpression>

#include "rofftext.h"

namespace MqttDoctor::Docgen {

namespace {

QString quoted(const QString &text)
{
    return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QStringLiteral("\\(dq")) + QLatin1Char('"');
}

/** A one-line summary for NAME: the first sentence, without its full stop. */
QString whatis(const QString &description)
{
    QString first = description.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (first.endsWith(QLatin1Char('.')))
        first.chop(1);
    if (!first.isEmpty())
        first[0] = first.at(0).toLower();
    return first;
}

/** "nats-mqtt-doctor-cli [global options] COMMAND": the program in bold, the rest as it is. */
QString usage(const QString &line, const QString &program)
{
    QString rest = line.startsWith(program) ? line.mid(program.size()).trimmed() : line;
    return QStringLiteral(".B ") + RoffText::literal(program) + QLatin1Char('\n') + RoffText::lineStart(RoffText::literal(rest))
        + QLatin1Char('\n');
}

} // namespace

ManPageWriter::ManPageWriter(QJsonObject table, QString date, QString source)
    : m_table(std::move(table)), m_date(std::move(date)), m_source(std::move(source))
{}

void ManPageWriter::addSection(const Section &section)
{
    m_sections.append(section);
}

QString ManPageWriter::options(const QJsonArray &options) const
{
    QString out;
    for (const QJsonValue &v : options) {
        const QJsonObject o = v.toObject();
        QStringList names;
        for (const QJsonValue &n : o.value(QStringLiteral("names")).toArray()) {
            const QString name = n.toString();
            names << QStringLiteral("\\fB") + RoffText::literal((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name)
                    + QStringLiteral("\\fR");
        }
        QString term = names.join(QStringLiteral(", "));
        const QString value = o.value(QStringLiteral("value")).toString();
        if (!value.isEmpty())
            term += QStringLiteral(" \\fI") + RoffText::literal(value) + QStringLiteral("\\fR");
        QString text = o.value(QStringLiteral("description")).toString().simplified();
        const QJsonArray defaults = o.value(QStringLiteral("defaults")).toArray();
        if (!defaults.isEmpty()) {
            QStringList d;
            for (const QJsonValue &x : defaults)
                d << x.toString();
            if (text.endsWith(QLatin1Char('.')))
                text.chop(1);
            text += QStringLiteral(" (default: ") + d.join(QStringLiteral(", ")) + QStringLiteral(").");
        }
        out += QStringLiteral(".TP\n") + term + QLatin1Char('\n') + RoffText::lineStart(RoffText::escape(text)) + QLatin1Char('\n');
    }
    return out;
}

QString ManPageWriter::commands() const
{
    QString out;
    const QString program = m_table.value(QStringLiteral("program")).toString();
    for (const QJsonValue &v : m_table.value(QStringLiteral("commands")).toArray()) {
        const QJsonObject c = v.toObject();
        out += QStringLiteral(".SS ") + quoted(RoffText::literal(c.value(QStringLiteral("synopsis")).toString())) + QLatin1Char('\n');
        out += usage(c.value(QStringLiteral("usage")).toString(), program);
        out += QStringLiteral(".PP\n") + RoffText::lineStart(RoffText::escape(c.value(QStringLiteral("summary")).toString().simplified()))
            + QLatin1Char('\n');
        const QJsonArray arguments = c.value(QStringLiteral("arguments")).toArray();
        if (!arguments.isEmpty()) {
            out += QStringLiteral(".PP\nArguments:\n.RS 4\n");
            for (const QJsonValue &a : arguments) {
                const QJsonObject arg = a.toObject();
                QString name =
                    QStringLiteral("\\fI") + RoffText::literal(arg.value(QStringLiteral("name")).toString()) + QStringLiteral("\\fR");
                if (arg.value(QStringLiteral("repeated")).toBool())
                    name += QStringLiteral(" ...");
                out += QStringLiteral(".TP\n") + name + QLatin1Char('\n')
                    + RoffText::lineStart(RoffText::escape(arg.value(QStringLiteral("description")).toString().simplified()))
                    + QLatin1Char('\n');
            }
            out += QStringLiteral(".RE\n");
        }
        const QJsonArray own = c.value(QStringLiteral("options")).toArray();
        if (!own.isEmpty())
            out += QStringLiteral(".PP\nOptions:\n.RS 4\n") + options(own) + QStringLiteral(".RE\n");
    }
    return out;
}

QString ManPageWriter::page() const
{
    const QString program = m_table.value(QStringLiteral("program")).toString();
    QString out = QStringLiteral(".\\\" Made by the build from %1; do not edit.\n").arg(m_source);
    out += QStringLiteral(".TH %1 1 %2 %3 \"User Commands\"\n")
               .arg(program.toUpper().replace(QLatin1Char('-'), QStringLiteral("\\-")), quoted(m_date),
                    quoted(QStringLiteral("NATS MQTT Doctor ") + m_table.value(QStringLiteral("version")).toString()));
    out += QStringLiteral(".SH NAME\n") + RoffText::literal(program) + QStringLiteral(" \\- ")
        + RoffText::escape(whatis(m_table.value(QStringLiteral("description")).toString())) + QLatin1Char('\n');
    out += QStringLiteral(".SH SYNOPSIS\n");
    bool firstUsage = true;
    for (const QJsonValue &u : m_table.value(QStringLiteral("usage")).toArray()) {
        out += (firstUsage ? QString() : QStringLiteral(".br\n")) + usage(u.toString(), program);
        firstUsage = false;
    }
    for (const Section &s : m_sections)
        if (s.title == QStringLiteral("DESCRIPTION"))
            out += QStringLiteral(".SH DESCRIPTION\n") + s.roff;
    if (!m_table.value(QStringLiteral("commands")).toArray().isEmpty())
        out += QStringLiteral(".SH COMMANDS\n") + commands();
    const bool hasCommands = !m_table.value(QStringLiteral("commands")).toArray().isEmpty();
    out += QStringLiteral(".SH ") + (hasCommands ? QStringLiteral("\"GLOBAL OPTIONS\"") : QStringLiteral("OPTIONS")) + QLatin1Char('\n');
    if (hasCommands)
        out += QStringLiteral("Before or after the command.\n");
    out += options(m_table.value(QStringLiteral("options")).toArray());
    for (const Section &s : m_sections)
        if (s.title != QStringLiteral("DESCRIPTION"))
            out += QStringLiteral(".SH ") + quoted(s.title) + QLatin1Char('\n') + s.roff;
    if (!m_seeAlso.isEmpty()) {
        out += QStringLiteral(".SH \"SEE ALSO\"\n");
        QStringList refs;
        static const QRegularExpression page(QStringLiteral("^(.+)\\((\\d)\\)$"));
        for (const QString &p : m_seeAlso) {
            const auto m = page.match(p);
            refs << (m.hasMatch() ? QStringLiteral(".BR %1 (%2)").arg(RoffText::literal(m.captured(1)), m.captured(2))
                                  : RoffText::lineStart(RoffText::escape(p)));
        }
        out += refs.join(QStringLiteral(",\n")) + QLatin1Char('\n');
    }
    return out;
}

} // namespace MqttDoctor::Docgen
