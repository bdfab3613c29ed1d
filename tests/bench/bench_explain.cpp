// `explain` on a whole server log (issue: explain reads whole logs): a log of N lines (1,000,000 by default) made of the
// real lines captured from nats-server 2.9.10, 2.10.27 and 2.15.1 (tests/unit/data/logs), repeated with advancing
// timestamps, in two forms:
//   repeated   the lines as captured: repeated messages, as a server that refuses the same clients again and again
//   unique     every MQTT client line with a client ID of its own, so that no line is explained from the cache
// Whole processes, several runs each, side by side:
//   grep       grep -c MQTT FILE: the filter the README used to give, reading the same file (the baseline)
//   explain    nats-mqtt-doctor-cli explain --file FILE --json
// Prints each one's median wall time, its ratio to grep's, peak RSS (wait4 in fleet_launch) and what explain made
// of the log. Asserts nothing.
//
//   bench_explain [--lines N (1000000)] [--runs N (3)] [--process-timeout S (300)]
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

#include "processrounds.h"
#include "timedprocess.h"

using namespace MqttDoctor::BenchData;

namespace {

/** The source tree: MQTTDOCTOR_SOURCE_DIR when set, else the one this bench was configured from. */
QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR");
    return !fromEnv.isEmpty() ? fromEnv : QStringLiteral(MQTTDOCTOR_BENCH_SOURCE_DIR);
}

/** Every non-blank line of the captured logs, in file order. */
QList<QByteArray> capturedLines()
{
    QList<QByteArray> lines;
    QDir logs(sourceDir() + QStringLiteral("/tests/unit/data/logs"));
    for (const QString &version : logs.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QDir dir(logs.filePath(version));
        for (const QString &name : dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name)) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &line : f.readAll().split('\n'))
                if (!line.trimmed().isEmpty())
                    lines.append(line);
        }
    }
    return lines;
}

/**
 * Writes `count` lines: the captured ones over and over, each with the next timestamp (37 ms apart); `unique` gives
 * every MQTT client's quoted client ID the line's number. False when nothing could be written.
 */
bool writeLog(const QString &path, qint64 count, bool unique)
{
    const QList<QByteArray> lines = capturedLines();
    QFile out(path);
    if (lines.isEmpty() || !out.open(QIODevice::WriteOnly))
        return false;
    static const QRegularExpression stamp(QStringLiteral("^\\[(\\d+)\\] \\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d+ "));
    static const QRegularExpression client(QStringLiteral("( - mid:\\d+ - \")([^\"]*)(\")"));
    const QDateTime start(QDate(2026, 12, 2), QTime(0, 0), Qt::UTC);
    QByteArray block;
    for (qint64 n = 0; n < count; ++n) {
        QString line = QString::fromUtf8(lines.at(n % lines.size()));
        if (const auto m = stamp.match(line); m.hasMatch()) {
            const QString time = start.addMSecs(n * 37).toString(QStringLiteral("yyyy/MM/dd HH:mm:ss.zzz000"));
            line = QStringLiteral("[%1] %2 ").arg(m.captured(1), time) + line.mid(m.capturedEnd(0));
        }
        if (unique)
            if (const auto c = client.match(line); c.hasMatch())
                line.replace(c.capturedStart(2), c.capturedLength(2), c.captured(2) + QStringLiteral("-%1").arg(n));
        block += line.toUtf8() + '\n';
        if (block.size() > (1 << 20)) {
            out.write(block);
            block.clear();
        }
    }
    out.write(block);
    return out.error() == QFile::NoError;
}

/** "1,000,000 lines read: 154,441 explained in 95 groups, 0 not recognised" from explain's JSON. */
QString explainContent(const TimedProcess::Outcome &o)
{
    const QJsonObject summary = QJsonDocument::fromJson(o.standardOutput).object().value(QLatin1String("summary")).toObject();
    if (summary.isEmpty())
        return QStringLiteral("no JSON summary: %1").arg(o.describe());
    return QStringLiteral("%1 lines read: %2 explained in %3 groups, %4 not recognised, %5 skipped")
        .arg(number(summary.value(QLatin1String("lines")).toInteger()), number(summary.value(QLatin1String("explained")).toInteger()),
             number(summary.value(QLatin1String("groups")).toInteger()), number(summary.value(QLatin1String("not_recognised")).toInteger()),
             number(summary.value(QLatin1String("skipped")).toInteger()));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto option = [&](const char *name, const QString &fallback) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    const qint64 lines = std::max<qint64>(1, option("--lines", QStringLiteral("1000000")).toLongLong());
    const int runs = std::max(1, option("--runs", QStringLiteral("3")).toInt());
    const int timeoutMs = std::max(1, option("--process-timeout", QStringLiteral("300")).toInt()) * 1000;
    const QString grep = QStandardPaths::findExecutable(QStringLiteral("grep"));
    for (const QString &program : {binary(QStringLiteral("bench/fleet_launch")), binary(QStringLiteral("bin/nats-mqtt-doctor-cli")), grep})
        if (program.isEmpty() || !QFileInfo(program).isExecutable()) {
            std::fprintf(stderr, "missing %s: build the benchmarks target of this tree (and have grep)\n", qPrintable(program));
            return 1;
        }
    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    std::printf("bench_explain: explain --file of a generated log of %s lines (the captured server logs repeated), whole "
                "processes, medians of %d runs; peak RSS from wait4 in a small launcher\n",
                qPrintable(number(lines)), runs);
    int rc = 0;
    for (const bool unique : {false, true}) {
        const QString path = dir.filePath(unique ? QStringLiteral("unique.log") : QStringLiteral("repeated.log"));
        if (!writeLog(path, lines, unique)) {
            std::fprintf(stderr, "cannot write %s from %s\n", qPrintable(path), qPrintable(sourceDir()));
            return 1;
        }
        std::printf("%s log: %.1f MiB\n", unique ? "unique client IDs" : "repeated", double(QFileInfo(path).size()) / (1024 * 1024));
        std::fflush(stdout);
        ProcessRounds::Hooks hooks;
        hooks.run = [&](const QString &command) {
            if (command == QLatin1String("grep"))
                return TimedProcess::run(grep, {QStringLiteral("-c"), QStringLiteral("MQTT"), path}, {}, timeoutMs, launcher());
            return TimedProcess::run(binary(QStringLiteral("bin/nats-mqtt-doctor-cli")),
                                     {QStringLiteral("explain"), QStringLiteral("--file"), path, QStringLiteral("--json")}, {}, timeoutMs,
                                     launcher());
        };
        // grep exits 1 when no line matched, explain when some line was not recognised: both still did the work.
        hooks.completed = [](const QString &, const TimedProcess::Outcome &o) {
            return o.started && !o.timedOut && o.error.isEmpty() && o.signal == 0 && (o.exitCode == 0 || o.exitCode == 1);
        };
        hooks.describe = [](const QString &command, const TimedProcess::Outcome &o, ProcessSeries &s) {
            s.content = command == QLatin1String("grep")
                ? QStringLiteral("%1 lines with MQTT").arg(QString::fromUtf8(o.standardOutput).trimmed())
                : explainContent(o);
        };
        hooks.baselineOf = [](const QString &command) { return command == QLatin1String("grep") ? QString() : QStringLiteral("grep"); };
        const QStringList commands{QStringLiteral("grep"), QStringLiteral("explain")};
        const QMap<QString, ProcessSeries> series = ProcessRounds::run(commands, runs, hooks);
        for (const QString &command : commands) {
            const ProcessSeries s = series.value(command);
            const QString title =
                command == QLatin1String("grep") ? QStringLiteral("grep -c MQTT") : QStringLiteral("explain --file --json");
            if (s.ms.isEmpty()) {
                std::printf("  %s no figure: %s\n", qPrintable(title.leftJustified(24)), qPrintable(s.failure));
                rc = 1;
                continue;
            }
            QString figures;
            if (!s.ratios.isEmpty())
                figures += QStringLiteral("  x%1 grep").arg(ProcessRounds::median(s.ratios), 0, 'f', 1);
            figures += QStringLiteral("  peak RSS %1 MiB  CPU %2 s")
                           .arg(ProcessRounds::median(s.rssMiB), 0, 'f', 1)
                           .arg(ProcessRounds::median(s.cpuSeconds), 0, 'f', 2);
            ProcessRounds::print(title, 24, s, figures);
        }
        std::fflush(stdout);
    }
    return rc;
}
