#include "explaincommand.h"

#include <cstdio>
#include <unistd.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#include "common/error.h"
#include "diagnosis/logcatalogue.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

using namespace Qt::StringLiterals;

/** More lines than this is a whole log, not what explain is for: refuse instead of printing pages. */
constexpr qsizetype kMaxLines = 10000;

struct InputLine
{
    qsizetype number = 0;  ///< 1-based line number in the input (the arguments' lines, or standard input)
    QString text;
};

/** Reads standard input up to the cap (plus one, to notice it was exceeded). Blank lines are skipped. */
QList<InputLine> readStdin(bool &tooMany)
{
    QList<InputLine> lines;
    tooMany = false;
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return lines;
    qsizetype number = 0;
    while (!in.atEnd()) {
        const QByteArray raw = in.readLine();
        ++number;
        const QString text = QString::fromUtf8(raw);
        if (text.trimmed().isEmpty())
            continue;
        if (lines.size() == kMaxLines) {
            tooMany = true;
            break;
        }
        lines.append({number, text});
    }
    return lines;
}

/**
 * Word-wraps `text` to `width` columns, every line after the first indented by `indent`. A `command` in backticks is
 * never broken, so it can be copied from the terminal in one piece.
 */
QString wrap(const QString &text, qsizetype indent, qsizetype width = 100)
{
    QStringList words;
    bool inCommand = false;
    for (const QString &w : text.split(u' ', Qt::SkipEmptyParts)) {
        if (inCommand)
            words.last() += u' ' + w;
        else
            words.append(w);
        if (w.count(u'`') % 2 == 1)
            inCommand = !inCommand;
    }
    QString out;
    qsizetype column = indent;
    for (const QString &w : std::as_const(words)) {
        if (column > indent && column + 1 + w.size() > width) {
            out += u'\n' + QString(indent, u' ');
            column = indent;
        } else if (column > indent) {
            out += u' ';
            ++column;
        }
        out += w;
        column += w.size();
    }
    return out;
}

void printMatch(QTextStream &out, const InputLine &input, const LogLineMatch &m)
{
    if (!m.matched) {
        out << "[" << input.number << "] NOT RECOGNISED: " << m.line << '\n'
            << "    No template of the catalogue matches this line (run \"explain --templates\" for the list).\n\n";
        return;
    }
    out << "[" << input.number << "] " << m.line << '\n';
    auto row = [&](const char *label, const QString &value) {
        if (value.isEmpty())
            return;
        const QString head = u"    "_s + QString::fromLatin1(label).leftJustified(11);
        out << head << wrap(value, head.size()) << '\n';
    };
    row("template", m.templateText + u"   ("_s + m.templateId + u"; "_s + m.versions.join(u", "_s) + u')');
    QString severity = m.severity;
    if (m.connectRefused)
        severity += u": the MQTT CONNECT failed, the client got no CONNACK"_s;
    row("severity", severity);
    row("account", m.account);
    row("client ID", m.clientId);
    row("stream", m.stream);
    row("subject", m.subject);
    if (m.sequence > 0)
        row("sequence", QString::number(m.sequence));
    QString error = m.errorText;
    if (m.errorCode > 0)
        error += u"   [JetStream error "_s + QString::number(m.errorCode) + u']';
    row("error", error);
    row("findings", m.codes.isEmpty() ? u"none (no finding of the catalogue applies)"_s : m.codes.join(u", "_s));
    row("meaning", m.meaning);
    row("advice", m.advice);
    out << '\n';
}

int listTemplates(CliContext &ctx)
{
    const QList<LogCatalogueEntry> &entries = LogCatalogue::entries();
    if (ctx.json) {
        QJsonArray arr;
        for (const LogCatalogueEntry &e : entries)
            arr.append(e.toJson());
        printJson(ctx.out, QJsonObject{{u"templates"_s, arr}});
        return ExitOk;
    }
    TextTable table({u"ID"_s, u"VERSIONS"_s, u"FINDINGS"_s, u"TEMPLATE"_s});
    for (const LogCatalogueEntry &e : entries)
        table.addRow({e.id, e.versions.join(u", "_s), e.codes.isEmpty() ? u"-"_s : e.codes.join(u","_s), e.text});
    table.print(ctx.out);
    ctx.out << "\nFindings may also come from the JetStream error inside a line (e.g. 10059 -> STREAM_MISSING); "
               "docs/findings.md explains every template.\n";
    return ExitOk;
}

int runExplain(CliContext &ctx)
{
    if (ctx.parser.isSet(u"templates"_s))
        return listTemplates(ctx);

    QList<InputLine> lines;
    const QStringList args = ctx.parser.positionalArguments().mid(1);  // [0] is the command name
    if (!args.isEmpty()) {
        // An argument may hold several lines ("$(grep ERR nats.log)"): each is explained on its own.
        qsizetype number = 0;
        for (const QString &arg : args) {
            for (const QString &line : arg.split(u'\n')) {
                ++number;
                if (!line.trimmed().isEmpty())
                    lines.append({number, line});
            }
        }
        if (lines.size() > kMaxLines)
            return ctx.usage(u"too many log lines: explain takes at most %1"_s.arg(kMaxLines),
                             u"pass them on standard input after filtering the log, e.g. "
                             u"grep -E '\\[(ERR|WRN)\\]' nats.log | tail -n 1000 | nats-mqtt-doctor-cli explain"_s);
    } else {
        if (isatty(STDIN_FILENO))
            ctx.err << "Reading nats-server log lines from standard input (end with Ctrl-D)...\n" << Qt::flush;
        bool tooMany = false;
        lines = readStdin(tooMany);
        if (tooMany)
            return ctx.usage(u"more than %1 log lines on standard input: explain reads at most %1"_s.arg(kMaxLines),
                             u"filter the log first, e.g. grep -E '\\[(ERR|WRN)\\]' nats.log | tail -n 1000 | "
                             u"nats-mqtt-doctor-cli explain"_s);
    }
    if (lines.isEmpty())
        return ctx.usage(u"no log lines to explain"_s,
                         u"give lines as arguments (quoted) or on standard input, one per line"_s);

    qsizetype unmatched = 0;
    QJsonArray matches;
    for (const InputLine &input : std::as_const(lines)) {
        const LogLineMatch m = LogCatalogue::explain(input.text);
        if (!m.matched)
            ++unmatched;
        if (ctx.json) {
            QJsonObject o = m.toJson();
            o.insert(u"input_line"_s, input.number);
            matches.append(o);
        } else {
            printMatch(ctx.out, input, m);
        }
    }
    const qsizetype matched = lines.size() - unmatched;
    if (ctx.json) {
        printJson(ctx.out, QJsonObject{{u"matches"_s, matches},
                                       {u"summary"_s, QJsonObject{{u"lines"_s, lines.size()},
                                                                  {u"matched"_s, matched},
                                                                  {u"unmatched"_s, unmatched}}}});
    } else {
        ctx.out << lines.size() << (lines.size() == 1 ? " line: " : " lines: ") << matched << " matched, " << unmatched
                << " not recognised.\n";
    }
    return unmatched == 0 ? ExitOk : ExitWarnings;
}

} // namespace

QList<Command> explainCommands()
{
    Command explain{u"explain"_s,
                    u"Explain nats-server log lines: the arguments, or one line each on standard input."_s,
                    {QCommandLineOption(u"templates"_s, u"List every log template the explainer knows."_s)},
                    runExplain,
                    /*needsConnection=*/false};
    explain.arguments = {{u"LINE"_s, u"A nats-server log line (quote it); without any, lines are read from standard input."_s,
                          /*optional=*/true, /*repeated=*/true}};
    return {explain};
}

} // namespace MqttDoctor::Cli
