#include "recordercommand.h"

#include <optional>

#include <QDateTime>
#include <QElapsedTimer>

#include "activity/clienteventfeed.h"
#include "checkhistory.h"
#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "history/historylocation.h"
#include "interruptguard.h"
#include "nats/connectionset.h"

namespace MqttDoctor::Cli {

namespace {

constexpr int kPollMs = 200; // how quickly a stop (Ctrl-C, SIGTERM) and the next round are noticed
constexpr qint64 kEventFlushMs = 10000; // client events are written at least this often

struct RecorderLine
{
    DiagnosisGatherer::Request request;
    qint64 intervalMs = 60000;
    qint64 durationMs = 0; ///< 0: until stopped
    bool events = true;
};

std::optional<int> parseRecorderOptions(CliContext &ctx, RecorderLine &line)
{
    if (ctx.json)
        return ctx.usage(QStringLiteral("record prints a line per check; what it records is read with history --json and changes --json"));
    line.request.account = ctx.parser.value(QStringLiteral("account"));
    line.request.allAccounts = ctx.parser.isSet(QStringLiteral("all-accounts"));
    if (line.request.allAccounts && !line.request.account.isEmpty())
        return ctx.usage(QStringLiteral("give either --account or --all-accounts, not both"));
    const QString interval = ctx.parser.value(QStringLiteral("interval"));
    const auto ms = parseAgeMs(interval);
    if (!ms || *ms < 10000 || *ms > 24.0 * 3600 * 1000)
        return ctx.usage(QStringLiteral("--interval must be from 10s to 24h, not \"%1\"").arg(interval), QStringLiteral("for example 1m"));
    line.intervalMs = qint64(*ms);
    if (ctx.parser.isSet(QStringLiteral("duration"))) {
        const QString text = ctx.parser.value(QStringLiteral("duration"));
        const auto d = parseAgeMs(text);
        if (!d || *d < 1000)
            return ctx.usage(QStringLiteral("--duration must be at least 1s, not \"%1\"").arg(text));
        line.durationMs = qint64(*d);
    }
    const QString retention = ctx.parser.value(QStringLiteral("retention"));
    const auto keep = parseAgeMs(retention);
    if (!keep || *keep < 86400000.0)
        return ctx.usage(QStringLiteral("--retention must be at least 1d, not \"%1\"").arg(retention));
    const QString maxSize = ctx.parser.value(QStringLiteral("max-size"));
    const auto bytes = CheckHistory::parseSize(maxSize);
    if (!bytes || *bytes < 1024 * 1024)
        return ctx.usage(QStringLiteral("--max-size must be a size of at least 1MiB (e.g. 500MiB, 2GiB), not \"%1\"").arg(maxSize));
    line.events = !ctx.parser.isSet(QStringLiteral("no-events"));
    return std::nullopt;
}

QString stamp()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

int runRecord(CliContext &ctx)
{
    RecorderLine line;
    if (const auto rc = parseRecorderOptions(ctx, line))
        return *rc;
    const InterruptGuard interrupt(true);
    QElapsedTimer running;
    running.start();
    const auto stopped = [&] { return interrupt.raised() || (line.durationMs > 0 && running.elapsed() >= line.durationMs); };

    std::optional<ClientEventFeed> feed;
    if (line.events) {
        auto opened = ClientEventFeed::open(*ctx.connections, ClientEventFeed::Filter{line.request.account, {}});
        if (opened)
            feed.emplace(std::move(*opened));
        else
            ctx.err << stamp() << "  client events are not followed: " << opened.error().toString() << '\n';
    }
    ctx.err << "Recording every " << formatAge(line.intervalMs / 1000) << " into " << CheckHistory::folder(ctx)
            << "; Ctrl-C or SIGTERM ends.\n";
    ctx.err.flush();

    DiagnosisGatherer::Request round = line.request;
    QString cluster;
    QList<MqttClientEvent> pending;
    QElapsedTimer sinceFlush;
    sinceFlush.start();
    int checks = 0, failed = 0;
    while (!stopped()) {
        QElapsedTimer took;
        took.start();
        auto input = DiagnosisGatherer::gather(*ctx.connections, round);
        if (!input) {
            ++failed;
            ctx.out << stamp() << "  check failed, nothing recorded: " << input.error().toString() << '\n';
        } else {
            round.previousSamples = DiagnosisGatherer::samplesOf(*input);
            const QList<Finding> findings = Checks::diagnose(*input);
            int exitCode = Checks::exitCodeFor(findings);
            if (CoverageGap::anyLeavesVerdictOpen(input->gaps) && exitCode != ExitErrors)
                exitCode = ExitCouldNotCheck;
            cluster = HistoryLocation::clusterName(input->servers);
            if (const auto outcome = CheckHistory::record(ctx, *input, findings, exitCode, QStringLiteral("recorder"))) {
                ++checks;
                ctx.out << stamp() << "  recorded: " << findings.size() << (findings.size() == 1 ? " finding" : " findings") << " ("
                        << outcome->opened << " new, " << outcome->closed << " closed), " << outcome->changes
                        << (outcome->changes == 1 ? " change" : " changes")
                        << (exitCode == ExitCouldNotCheck ? "; not everything could be read" : "") << '\n';
            } else {
                ++failed;
            }
        }
        ctx.out.flush();
        // Until the next round: the client events, written every few seconds.
        while (!stopped() && took.elapsed() < line.intervalMs) {
            if (!feed) {
                QThread::msleep(kPollMs);
                continue;
            }
            auto event = feed->next(kPollMs);
            if (!event) {
                ctx.out << stamp() << "  client events are not followed any more: " << event.error().toString() << '\n';
                feed.reset();
                continue;
            }
            if (*event)
                pending.append(**event);
            if (!cluster.isEmpty() && (sinceFlush.elapsed() >= kEventFlushMs || pending.size() >= 1000)) {
                if (CheckHistory::recordEvents(ctx, cluster, pending))
                    pending.clear();
                sinceFlush.restart();
            }
        }
    }
    if (!cluster.isEmpty())
        CheckHistory::recordEvents(ctx, cluster, pending);
    ctx.err << "Recorded " << checks << (checks == 1 ? " check" : " checks");
    if (failed > 0)
        ctx.err << "; " << failed << " could not be checked or written";
    ctx.err << ".\n";
    return failed > 0 && checks == 0 ? ExitCouldNotCheck : ExitOk;
}

} // namespace

QList<Command> recorderCommands()
{
    Command record{
        QStringLiteral("record"),
        QStringLiteral("Check and record into the local history on an interval, and the client connects, disconnects and "
                       "takeovers between checks, until Ctrl-C or SIGTERM (a service: see the systemd user unit)."),
        {QCommandLineOption(QStringLiteral("interval"), QStringLiteral("Time between checks, 10s to 24h."), QStringLiteral("duration"),
                            QStringLiteral("1m")),
         QCommandLineOption(QStringLiteral("account"), QStringLiteral("One account (default: the connected user's account)."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("all-accounts"), QStringLiteral("Every account (needs a system connection).")),
         QCommandLineOption(QStringLiteral("duration"), QStringLiteral("Stop after this long (default: until stopped)."),
                            QStringLiteral("duration")),
         QCommandLineOption(QStringLiteral("retention"), QStringLiteral("Remove what is older than this from the history (at least 1d)."),
                            QStringLiteral("duration"), QStringLiteral("30d")),
         QCommandLineOption(QStringLiteral("max-size"),
                            QStringLiteral("The most the history database may hold; past it the oldest checks and changes go first."),
                            QStringLiteral("size"), QStringLiteral("1GiB")),
         QCommandLineOption(QStringLiteral("no-events"),
                            QStringLiteral("Do not follow the client events between checks (no system connection needed for them).")),
         CheckHistory::folderOption()},
        runRecord};
    record.followsUntilStopped = true;
    record.account = AccountUse::Optional;
    return {record};
}

} // namespace MqttDoctor::Cli
