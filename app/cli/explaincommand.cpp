#include "explaincommand.h"
#include "jsoncontract.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <vector>
#include <sys/ioctl.h>
#include <unistd.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include "common/error.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/logcatalogue.h"
#include "diagnosis/loggrouper.h"
#include "diagnosis/loglinereader.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

using namespace Qt::StringLiterals;

/** Without a terminal, the grouped text is printed in full up to this many lines; longer, the summary is. */
constexpr qsizetype kScreenLines = 40;
/** The summary's meaning column: the first sentence of the meaning, cut to this length. */
constexpr qsizetype kShortMeaning = 64;

const QString kStdinName = u"-"_s;
const QString kArgumentsName = u"argument"_s;

/** Where lines come from: the arguments, a file or standard input. */
struct Input
{
    QString name; ///< the file as given, "-" for standard input, "argument" for the arguments
    std::unique_ptr<QFile> file; ///< open, unless the lines are the arguments'
};

int usageError(CliContext &ctx, const QString &message, const QString &hint)
{
    return ctx.usage(message, hint);
}

QString thousands(qint64 n)
{
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, u',');
    return n < 0 ? u'-' + digits : digits;
}

QString plural(qint64 n, const char *one, const char *many)
{
    return thousands(n) + u' ' + QString::fromLatin1(n == 1 ? one : many);
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

/** "    label      value", the value wrapped under itself. */
void row(QTextStream &out, const char *label, const QString &value)
{
    if (value.isEmpty())
        return;
    const QString head = u"    "_s + QString::fromLatin1(label).leftJustified(11);
    out << head << wrap(value, head.size()) << '\n';
}

/** The rows a match shares with its group: template, severity, account, stream, error, findings. */
void matchRows(QTextStream &out, const LogLineMatch &m)
{
    row(out, "template", m.templateText + u"   ("_s + m.templateId + u"; "_s + m.versions.join(u", "_s) + u')');
    QString severity = m.severity;
    if (m.connectRefused)
        severity += u": the MQTT CONNECT failed, the client got no CONNACK"_s;
    row(out, "severity", severity);
    row(out, "account", m.account);
}

void causeRows(QTextStream &out, const LogLineMatch &m)
{
    QString error = m.errorText;
    if (m.errorCode > 0)
        error += u"   [JetStream error "_s + QString::number(m.errorCode) + u']';
    row(out, "error", error);
    row(out, "findings", m.codes.isEmpty() ? u"none (no finding of the catalogue applies)"_s : m.codes.join(u", "_s));
}

const char *const kNotRecognisedNote = "    No template of the catalogue matches this line (run \"explain --templates\" for the list).\n";

/** `explain --per-line`: one line, as every version before grouping printed it. */
void printLine(QTextStream &out, const QString &where, const LogLineMatch &m)
{
    if (!m.matched) {
        out << "[" << where << "] NOT RECOGNISED: " << m.line << '\n' << kNotRecognisedNote << '\n';
        return;
    }
    out << "[" << where << "] " << m.line << '\n';
    matchRows(out, m);
    row(out, "client ID", m.clientId);
    row(out, "stream", m.stream);
    row(out, "subject", m.subject);
    if (m.sequence > 0)
        row(out, "sequence", QString::number(m.sequence));
    causeRows(out, m);
    row(out, "meaning", m.meaning);
    row(out, "advice", m.advice);
    out << '\n';
}

QString sourceLabel(const QString &source)
{
    if (source == kStdinName)
        return u"standard input"_s;
    if (source == kArgumentsName)
        return u"the arguments"_s;
    return source;
}

/** "line 12 of nats.log" or "lines 12 to 2990 of nats.log" (or "nats.log line 12 to old.log line 7"). */
QString linesText(const LogGroup &g)
{
    if (g.firstLine.source != g.lastLine.source)
        return u"%1 line %2 to %3 line %4"_s.arg(sourceLabel(g.firstLine.source))
            .arg(g.firstLine.line)
            .arg(sourceLabel(g.lastLine.source))
            .arg(g.lastLine.line);
    if (g.count == 1)
        return u"line %1 of %2"_s.arg(g.firstLine.line).arg(sourceLabel(g.firstLine.source));
    return u"lines %1 to %2 of %3"_s.arg(g.firstLine.line).arg(g.lastLine.line).arg(sourceLabel(g.firstLine.source));
}

/** "2026/12/02 15:50:37.344798 to 2026/12/02 16:10:01.000001", "no timestamp"... */
QString timesText(const LogGroup &g)
{
    if (g.firstTime.isEmpty())
        return u"no timestamp"_s;
    QString text = g.firstTime == g.lastTime ? g.firstTime : g.firstTime + u" to "_s + g.lastTime;
    if (g.untimedLines > 0)
        text += u" (%1 without a timestamp)"_s.arg(g.untimedLines);
    return text;
}

/** Whether the group's lines name more than one client ID. */
bool severalClients(const LogGroup &g)
{
    return g.clientIds.values().size() > 1 || g.clientIds.otherLines() > 0;
}

/**
 * The group's meaning: the first line's, where "client "<its ID>"" reads "each client" when the group's lines name
 * several client IDs (they are listed beside it).
 */
QString groupMeaning(const LogGroup &g)
{
    QString meaning = g.match.meaning;
    if (severalClients(g) && !g.match.clientId.isEmpty())
        meaning.replace(u"client \""_s + g.match.clientId + u'"', u"each client"_s);
    return meaning;
}

/** The first sentence of the group's meaning, at most kShortMeaning characters. */
QString shortMeaning(const LogGroup &g)
{
    if (!g.match.matched) {
        const QString message = LogLine::parse(g.match.line).message;
        const QString text = (g.otherShapes ? u"NOT RECOGNISED (of many shapes): "_s : u"NOT RECOGNISED: "_s) + message;
        return text.size() > kShortMeaning ? text.left(kShortMeaning - 3) + u"..."_s : text;
    }
    QString meaning = groupMeaning(g);
    const qsizetype end = meaning.indexOf(u". "_s);
    if (end > 0)
        meaning.truncate(end + 1);
    return meaning.size() > kShortMeaning ? meaning.left(kShortMeaning - 3) + u"..."_s : meaning;
}

/** The full explanation of one group. */
void printGroup(QTextStream &out, qsizetype number, const LogGroup &g)
{
    const LogLineMatch &m = g.match;
    out << "[" << number << "] " << plural(g.count, "line", "lines")
        << (m.matched           ? ""
                : g.otherShapes ? " NOT RECOGNISED (of many shapes)"
                                : " NOT RECOGNISED")
        << ", " << timesText(g) << " (" << linesText(g) << ")\n";
    if (!m.matched) {
        row(out, "first line", m.line);
        out << kNotRecognisedNote << '\n';
        return;
    }
    // One value on every line of the group: as for one line; else the values with their counts.
    auto values = [&](const char *one, const char *many, const LogValueTally &tally) {
        if (tally.values().size() == 1 && tally.otherLines() == 0 && tally.values().first().second == g.count)
            row(out, one, tally.values().first().first);
        else
            row(out, many, tally.toText());
    };
    matchRows(out, m);
    values("client ID", "client IDs", g.clientIds);
    row(out, "stream", m.stream);
    values("subject", "subjects", g.subjects);
    causeRows(out, m);
    row(out, "meaning", groupMeaning(g));
    row(out, "advice", m.advice);
    row(out, "first line", m.line);
    out << '\n';
}

/** `--summary`: one row per group. */
void printSummary(QTextStream &out, const QList<LogGroup> &groups)
{
    // To the second; the last time without its date when it is the first one's.
    auto shortTime = [](const QString &t) -> QString { return t.isEmpty() ? u"-"_s : t.section(u'.', 0, 0).section(u'Z', 0, 0); };
    auto lastTime = [&](const LogGroup &g) -> QString {
        const QString first = shortTime(g.firstTime), last = shortTime(g.lastTime);
        const QString date = first.section(u' ', 0, 0);
        return last.startsWith(date + u' ') ? last.section(u' ', 1).trimmed() : last;
    };
    // The first finding code, and how many more the line points to (all of them: --details, --json).
    auto findings = [](const QStringList &codes) -> QString {
        if (codes.size() <= 1)
            return codes.isEmpty() ? u"-"_s : codes.first();
        return u"%1 +%2"_s.arg(codes.first()).arg(codes.size() - 1);
    };
    TextTable table({u"COUNT"_s, u"FIRST SEEN"_s, u"LAST SEEN"_s, u"SEVERITY"_s, u"FINDING"_s, u"ACCOUNT"_s, u"MEANING"_s});
    for (const LogGroup &g : groups) {
        const LogLineMatch &m = g.match;
        table.addRow({thousands(g.count), shortTime(g.firstTime), lastTime(g), m.matched ? m.severity : u"-"_s, findings(m.codes),
                      m.account.isEmpty() ? u"-"_s : m.account, shortMeaning(g)});
    }
    table.print(out);
}

/** The last line of every output: what was read and what became of it. */
QString countsText(const LogGrouper::Counts &c)
{
    QString text = plural(c.lines, "line", "lines") + u" read: "_s + thousands(c.explained) + u" explained"_s;
    if (c.explained > 0)
        text += u" ("_s + plural(c.explainedGroups, "group", "groups") + u')';
    text += u", "_s + thousands(c.notRecognised) + u" not recognised"_s;
    if (c.notRecognised > 0)
        text += u" ("_s + plural(c.unrecognisedGroups, "group", "groups") + u')';
    text += u", "_s + thousands(c.skipped) + u" skipped (not about MQTT state)"_s;
    if (c.blank > 0)
        text += u", "_s + thousands(c.blank) + u" blank"_s;
    text += u".\n"_s;
    if (c.longLines > 0)
        text += u"%1 longer than %2 KiB: only their start was read.\n"_s.arg(plural(c.longLines, "line was", "lines were"))
                    .arg(LogLineReader::kDefaultMaxLineBytes / 1024);
    if (c.serverLines == 0 && c.explained == 0 && c.lines > c.blank)
        text += u"No line has a nats-server level token ([ERR], [WRN], [INF]...): is this a nats-server log?\n"_s;
    return text;
}

QJsonObject summaryJson(const LogGrouper::Counts &c, const QStringList &sources)
{
    return QJsonObject{
        {u"lines"_s, c.lines},
        {u"blank"_s, c.blank},
        {u"explained"_s, c.explained},
        {u"not_recognised"_s, c.notRecognised},
        {u"skipped"_s, c.skipped},
        {u"long_lines"_s, c.longLines},
        {u"server_lines"_s, c.serverLines},
        {u"groups"_s, c.explainedGroups + c.unrecognisedGroups},
        {u"sources"_s, QJsonArray::fromStringList(sources)},
        // The names of the per-line output before grouping, kept for what reads them.
        {u"matched"_s, c.explained},
        {u"unmatched"_s, c.notRecognised},
    };
}

/** How many lines fit on the screen: the terminal's height when standard output is one, else kScreenLines. */
qsizetype screenLines()
{
    if (isatty(STDOUT_FILENO) == 1) {
        winsize size{};
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0)
            return size.ws_row;
    }
    return kScreenLines;
}

int listTemplates(CliContext &ctx)
{
    const QList<LogCatalogueEntry> &entries = LogCatalogue::entries();
    if (ctx.json) {
        QJsonArray arr;
        for (const LogCatalogueEntry &e : entries)
            arr.append(e.toJson());
        printJson(ctx.out, JsonContract::stamped(u"explain-templates"_s, QJsonObject{{u"templates"_s, arr}}));
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

/** Opens every input before anything is read, so that a path that cannot be read fails the command at once. */
std::optional<Error> openInputs(const QStringList &files, bool haveArguments, std::vector<Input> &inputs)
{
    if (haveArguments)
        inputs.push_back({kArgumentsName, nullptr});
    QStringList paths = files;
    if (paths.isEmpty() && !haveArguments)
        paths.append(kStdinName);
    for (const QString &path : std::as_const(paths)) {
        auto file = std::make_unique<QFile>();
        bool opened = false;
        if (path == kStdinName) {
            opened = file->open(STDIN_FILENO, QIODevice::ReadOnly | QIODevice::Unbuffered);
        } else if (QFileInfo(path).isDir()) {
            return Error(Error::Kind::Io, u"cannot read %1: it is a directory"_s.arg(path),
                         u"give the server's log file, e.g. --file /var/log/nats-server.log"_s);
        } else {
            file->setFileName(path);
            opened = file->open(QIODevice::ReadOnly | QIODevice::Unbuffered);
        }
        if (!opened)
            return Error(Error::Kind::Io, u"cannot read %1: %2"_s.arg(path == kStdinName ? u"standard input"_s : path, file->errorString()),
                         u"check the path and that this user may read it"_s);
        inputs.push_back({path, std::move(file)});
    }
    return std::nullopt;
}

/** What runExplain prints as lines come (`--per-line`), text or streamed JSON. */
class LinePrinter
{
public:
    explicit LinePrinter(CliContext &ctx) : m_ctx(ctx) {}

    void print(const LogGroup::Position &position, const LogLineMatch &m)
    {
        if (!m_ctx.json) {
            const QString where = position.source == kStdinName || position.source == kArgumentsName
                ? QString::number(position.line)
                : position.source + u':' + QString::number(position.line);
            printLine(m_ctx.out, where, m);
            return;
        }
        begin();
        QJsonObject o = m.toJson();
        o.insert(u"input_line"_s, position.line);
        o.insert(u"source"_s, position.source);
        m_json->value(QString(), o);
    }

    /** Ends the output with the counts. */
    void finish(const LogGrouper::Counts &counts, const QStringList &sources)
    {
        if (!m_ctx.json) {
            m_ctx.out << countsText(counts);
            return;
        }
        begin();
        m_json->endArray();
        m_json->value(u"summary"_s, summaryJson(counts, sources));
        m_json->finish();
    }

    /** A read that failed half-way: the JSON printed so far still ends as one valid object, with `error` last. */
    void fail(const Error &error)
    {
        if (!m_ctx.json || !m_json) {
            printError(m_ctx.json ? m_ctx.out : m_ctx.err, error, m_ctx.json);
            return;
        }
        m_json->endArray();
        m_json->value(u"error"_s, errorJson(error));
        m_json->finish();
    }

private:
    void begin()
    {
        if (m_json)
            return;
        m_json = std::make_unique<JsonStreamWriter>(m_ctx.out);
        m_json->beginObject();
        m_json->string(u"schema"_s, JsonContract::id(u"explain-per-line"_s));
        m_json->beginArray(u"matches"_s);
    }

    CliContext &m_ctx;
    std::unique_ptr<JsonStreamWriter> m_json;
};

/**
 * Every line of the inputs (the argument lines, files, standard input) into the grouper; with `perLine`,
 * each explained by the printer as it is read. nullopt; or the exit code of a read that failed, reported.
 */
std::optional<int> readInputs(CliContext &ctx, const std::vector<Input> &inputs, const QStringList &argumentLines, bool perLine,
                              LogGrouper &grouper, LinePrinter &printer, QStringList &sources)
{
    auto take = [&](const QString &line, const LogGroup::Position &position, bool truncated) {
        if (!perLine) {
            grouper.add(line, position, truncated);
            return;
        }
        LogLineMatch m;
        const LogGrouper::LineKind kind = grouper.add(line, position, truncated, &m);
        if (kind == LogGrouper::LineKind::Explained || kind == LogGrouper::LineKind::NotRecognised)
            printer.print(position, m);
    };
    for (const Input &input : inputs) {
        sources.append(input.name);
        if (!input.file) {
            qint64 number = 0;
            for (const QString &line : argumentLines)
                take(line, {input.name, ++number}, false);
            continue;
        }
        if (input.name == kStdinName && isatty(STDIN_FILENO))
            ctx.err << "Reading nats-server log lines from standard input (end with Ctrl-D)...\n" << Qt::flush;
        LogLineReader reader(input.file.get());
        QByteArrayView raw;
        bool truncated = false;
        while (reader.next(raw, truncated))
            take(QString::fromUtf8(raw), {input.name, reader.lineNumber()}, truncated);
        if (reader.failed()) {
            const Error error(
                Error::Kind::Io,
                u"reading %1 failed after line %2: %3"_s.arg(sourceLabel(input.name)).arg(reader.lineNumber()).arg(reader.errorString()));
            if (perLine)
                printer.fail(error);
            else
                printError(ctx.json ? ctx.out : ctx.err, error, ctx.json);
            return ExitCouldNotCheck;
        }
    }
    return std::nullopt;
}

/**
 * The groups, JSON or text. Text: every group in full with --details or when they fit the screen, else
 * (or with --summary) one line per group.
 */
void printGroups(CliContext &ctx, const LogGrouper &grouper, const QStringList &sources, bool summary, bool details)
{
    const LogGrouper::Counts &counts = grouper.counts();
    const QList<LogGroup> groups = grouper.sortedGroups();
    if (ctx.json) {
        QJsonArray array;
        for (const LogGroup &g : groups)
            array.append(g.toJson());
        printJson(ctx.out,
                  JsonContract::stamped(u"explain"_s, QJsonObject{{u"groups"_s, array}, {u"summary"_s, summaryJson(counts, sources)}}));
        return;
    }
    QString full;
    QTextStream fullOut(&full);
    for (qsizetype i = 0; i < groups.size(); ++i)
        printGroup(fullOut, i + 1, groups.at(i));
    fullOut.flush();
    const QString last = countsText(counts);
    const bool fits = full.count(u'\n') + last.count(u'\n') <= screenLines();
    if (details || (!summary && fits)) {
        ctx.out << full << last;
        return;
    }
    if (!groups.isEmpty()) {
        printSummary(ctx.out, groups);
        ctx.out << '\n';
    }
    ctx.out << last;
    if (!summary && !groups.isEmpty())
        ctx.out << "One line per group: the full explanation of every group takes " << thousands(full.count(u'\n'))
                << " lines (--details prints it).\n";
}

int runExplain(CliContext &ctx)
{
    if (ctx.parser.isSet(u"templates"_s))
        return listTemplates(ctx);
    const bool perLine = ctx.parser.isSet(u"per-line"_s);
    const bool summary = ctx.parser.isSet(u"summary"_s);
    const bool details = ctx.parser.isSet(u"details"_s);
    if (summary && details)
        return usageError(ctx, u"--summary and --details exclude each other"_s,
                          u"--summary prints one line per group, --details every group in full"_s);
    if (perLine && (summary || details))
        return usageError(ctx, u"--per-line prints every line on its own; it has no --summary or --details"_s, {});

    // An argument may hold several lines ("$(grep ERR nats.log)"): each is explained on its own.
    QStringList argumentLines;
    for (const QString &arg : ctx.parser.positionalArguments().mid(1)) // [0] is the command name
        argumentLines += arg.split(u'\n');
    std::vector<Input> inputs;
    if (const std::optional<Error> error = openInputs(ctx.parser.values(u"file"_s), !argumentLines.isEmpty(), inputs)) {
        printError(ctx.json ? ctx.out : ctx.err, *error, ctx.json);
        return ExitCouldNotCheck;
    }

    LogGrouper grouper;
    LinePrinter printer(ctx);
    QStringList sources;
    if (const auto failed = readInputs(ctx, inputs, argumentLines, perLine, grouper, printer, sources))
        return *failed;
    const LogGrouper::Counts &counts = grouper.counts();
    if (counts.lines == counts.blank) // nothing was printed either
        return usageError(ctx, u"no log lines to explain"_s,
                          u"give a log file (--file PATH), lines as arguments (quoted) or lines on standard input"_s);
    if (perLine)
        printer.finish(counts, sources);
    else
        printGroups(ctx, grouper, sources, summary, details);
    return counts.notRecognised == 0 ? ExitOk : ExitWarnings;
}

} // namespace

QList<Command> explainCommands()
{
    Command explain{
        u"explain"_s,
        u"Explain nats-server log lines: a whole log (--file PATH, or standard input), or lines as arguments; "
        u"repeated lines are counted once."_s,
        {QCommandLineOption(u"file"_s, u"Read the nats-server log PATH (repeat for several; - is standard input)."_s, u"PATH"_s),
         QCommandLineOption(u"summary"_s,
                            u"One line per group of lines (the default when the full text would not "
                            u"fit on the screen)."_s),
         QCommandLineOption(u"details"_s, u"The full explanation of every group, however long."_s),
         QCommandLineOption(u"per-line"_s, u"Every MQTT line on its own, in input order, not grouped."_s),
         QCommandLineOption(u"templates"_s, u"List every log template the explainer knows."_s)},
        runExplain,
        /*needsConnection=*/false};
    explain.arguments = {{u"LINE"_s,
                          u"A nats-server log line (quote it); without lines or --file, the log is read from "
                          u"standard input."_s,
                          /*optional=*/true, /*repeated=*/true}};
    return {explain};
}

} // namespace MqttDoctor::Cli
