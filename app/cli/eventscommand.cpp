#include "eventscommand.h"
#include "jsoncontract.h"

#include <optional>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QScopeGuard>

#include "activity/clienteventfeed.h"
#include "activity/takeoverwatch.h"
#include "checkhistory.h"
#include "common/duration.h"
#include "history/historylocation.h"
#include "nats/discovery.h"
#include "interruptguard.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

constexpr int kPollMs = 200; // how quickly Ctrl-C and the end of --duration are noticed
constexpr qint64 kRecordEveryMs = 5000; // --record: how often the events go into the history

QJsonObject stormJson(const TakeoverWatch::Storm &s, const TakeoverWatch::Options &o)
{
    return QJsonObject{{QStringLiteral("account"), s.account},
                       {QStringLiteral("client_id"), s.clientId},
                       {QStringLiteral("takeovers"), s.takeovers},
                       {QStringLiteral("window_seconds"), double(o.windowMs) / 1000.0},
                       {QStringLiteral("addresses"), QJsonArray::fromStringList(s.addresses)},
                       {QStringLiteral("first"), s.first.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("last"), s.last.toString(Qt::ISODateWithMs)}};
}

QString stormText(const TakeoverWatch::Storm &s, const TakeoverWatch::Options &o)
{
    return QStringLiteral("TAKEOVER: client ID \"%1\" of account %2 was replaced by a new connection with the same ID %3 times within %4 "
                          "(from %5): two devices (or two instances of one app) share this client ID and close each other's "
                          "connection at every CONNECT. Give each device its own client ID.")
        .arg(s.clientId, s.account)
        .arg(s.takeovers)
        .arg(formatAge(o.windowMs / 1000),
             s.addresses.isEmpty() ? QStringLiteral("unknown addresses") : s.addresses.join(QStringLiteral(", ")));
}

/** What the command line asks `events` to follow, its values checked. */
struct EventsCommandLine
{
    ClientEventFeed::Filter filter;
    qint64 durationMs = 0; ///< 0: until Ctrl-C
    TakeoverWatch::Options watchOptions;
    QString historyCluster; ///< --record: the cluster whose history the events go into (empty: not recorded)
};

/** nullopt when every option was valid (into `line`); else the exit code of the usage error already printed. */
std::optional<int> parseEventsOptions(CliContext &ctx, EventsCommandLine &line)
{
    line.filter.account = ctx.parser.value(QStringLiteral("account"));
    line.filter.clientId = ctx.parser.value(QStringLiteral("client"));
    if (ctx.parser.isSet(QStringLiteral("duration"))) {
        const QString text = ctx.parser.value(QStringLiteral("duration"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1)
            return ctx.usage(QStringLiteral("--duration must be a duration such as 30s, 10m or 2h, not \"%1\"").arg(text),
                             QStringLiteral("leave it out to follow until Ctrl-C"));
        line.durationMs = qint64(*ms);
    }
    if (ctx.parser.isSet(QStringLiteral("takeover-threshold"))) {
        bool ok = false;
        line.watchOptions.threshold = ctx.parser.value(QStringLiteral("takeover-threshold")).toInt(&ok);
        if (!ok || line.watchOptions.threshold < 1)
            return ctx.usage(QStringLiteral("--takeover-threshold must be a whole number of at least 1"), {});
    }
    if (ctx.parser.isSet(QStringLiteral("takeover-window"))) {
        const auto ms = parseAgeMs(ctx.parser.value(QStringLiteral("takeover-window")));
        if (!ms || *ms < 1000)
            return ctx.usage(QStringLiteral("--takeover-window must be a duration of at least 1s"),
                             QStringLiteral("for example 60s or 5m"));
        line.watchOptions.windowMs = qint64(*ms);
    }
    return std::nullopt;
}

/** What one run of `events` saw, for its summary. */
struct EventsSeen
{
    int connects = 0;
    int disconnects = 0;
    qint64 dropped = 0; ///< events lost because they came faster than they were read
    QMap<QString, int> reasons; ///< disconnects by reason
    std::optional<Error> failure; ///< why the feed ended before Ctrl-C or the duration
};

/** One line of the JSON Lines output, stamped with the schema. */
void printEventsLine(QTextStream &out, const QJsonObject &o)
{
    printJsonLine(out, JsonContract::stamped(QStringLiteral("events"), o));
}

/**
 * Follows the feed until Ctrl-C, the end of the duration or a failure: each event (and each takeover storm
 * the watch sees) printed as it comes, JSON Lines or text, and counted.
 */
EventsSeen follow(CliContext &ctx, ClientEventFeed &feed, TakeoverWatch &watch, const EventsCommandLine &line,
                  const InterruptGuard &interrupt, const QElapsedTimer &elapsed)
{
    EventsSeen seen;
    const qint64 durationMs = line.durationMs;
    // --record: the events go into the history every few seconds, and once more at the end.
    QList<MqttClientEvent> unrecorded;
    QElapsedTimer sinceRecorded;
    sinceRecorded.start();
    const auto recordPending = [&](bool now) {
        if (line.historyCluster.isEmpty() || unrecorded.isEmpty() || (!now && sinceRecorded.elapsed() < kRecordEveryMs))
            return;
        if (CheckHistory::recordEvents(ctx, line.historyCluster, unrecorded))
            unrecorded.clear();
        sinceRecorded.restart();
    };
    const auto guard = qScopeGuard([&] { recordPending(true); });
    while (!interrupt.raised() && (durationMs == 0 || elapsed.elapsed() < durationMs)) {
        recordPending(false);
        const int wait = durationMs > 0 ? int(std::clamp<qint64>(durationMs - elapsed.elapsed(), 1, kPollMs)) : kPollMs;
        auto event = feed.next(wait);
        if (!event) {
            seen.failure = event.error();
            break;
        }
        if (const qint64 lost = feed.dropped(); lost > 0) {
            seen.dropped += lost;
            if (ctx.json)
                printEventsLine(ctx.out, QJsonObject{{QStringLiteral("dropped"), lost}});
            else
                ctx.err << "warning: " << lost << " events were lost (they came faster than they could be read)\n";
        }
        if (!*event)
            continue;
        const MqttClientEvent &e = **event;
        if (!line.historyCluster.isEmpty())
            unrecorded.append(e);
        if (e.kind == MqttClientEvent::Kind::Connect)
            ++seen.connects;
        else {
            ++seen.disconnects;
            ++seen.reasons[e.reason.isEmpty() ? QStringLiteral("(none given)") : e.reason];
        }
        if (ctx.json)
            printEventsLine(ctx.out, e.toJson());
        else {
            ctx.out << e.text() << '\n';
            ctx.out.flush();
        }
        if (const auto storm = watch.add(e)) {
            if (ctx.json)
                printEventsLine(ctx.out, QJsonObject{{QStringLiteral("takeover"), stormJson(*storm, line.watchOptions)}});
            else {
                ctx.out << stormText(*storm, line.watchOptions) << '\n';
                ctx.out.flush();
            }
        }
    }
    return seen;
}

/** The summary: what the run saw, and whether it ended by itself. */
void printSummary(CliContext &ctx, const EventsSeen &seen, const TakeoverWatch &watch, const TakeoverWatch::Options &watchOptions,
                  double seconds, bool interrupted)
{
    const QList<TakeoverWatch::Storm> storms = watch.storms();
    if (ctx.json) {
        QJsonObject byReason;
        for (auto it = seen.reasons.cbegin(); it != seen.reasons.cend(); ++it)
            byReason.insert(it.key(), it.value());
        QJsonArray stormList;
        for (const TakeoverWatch::Storm &s : storms)
            stormList.append(stormJson(s, watchOptions));
        QJsonObject summary{{QStringLiteral("seconds"), seconds},
                            {QStringLiteral("connects"), seen.connects},
                            {QStringLiteral("disconnects"), seen.disconnects},
                            {QStringLiteral("disconnect_reasons"), byReason},
                            {QStringLiteral("takeovers"), watch.takeovers()},
                            {QStringLiteral("takeover_storms"), stormList},
                            {QStringLiteral("dropped"), seen.dropped},
                            {QStringLiteral("ended"),
                             seen.failure      ? QStringLiteral("error")
                                 : interrupted ? QStringLiteral("interrupted")
                                               : QStringLiteral("duration")}};
        if (seen.failure)
            summary.insert(QStringLiteral("error"), seen.failure->toString());
        printEventsLine(ctx.out, QJsonObject{{QStringLiteral("summary"), summary}});
        return;
    }
    ctx.out << "\nFollowed for " << QString::number(seconds, 'f', 1) << " s: " << seen.connects
            << (seen.connects == 1 ? " connect, " : " connects, ") << seen.disconnects
            << (seen.disconnects == 1 ? " disconnect" : " disconnects");
    QStringList parts;
    for (auto it = seen.reasons.cbegin(); it != seen.reasons.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    if (!parts.isEmpty())
        ctx.out << " (" << parts.join(QStringLiteral(", ")) << ')';
    ctx.out << ", " << watch.takeovers() << (watch.takeovers() == 1 ? " takeover" : " takeovers") << ".\n";
    for (const TakeoverWatch::Storm &s : storms)
        ctx.out << stormText(s, watchOptions) << '\n';
    if (seen.dropped > 0)
        ctx.out << seen.dropped << " events were lost: the counts are lower bounds.\n";
    ctx.out.flush();
    if (seen.failure)
        printError(ctx.err, *seen.failure, false);
}

int runEvents(CliContext &ctx)
{
    EventsCommandLine line;
    if (const auto rc = parseEventsOptions(ctx, line))
        return *rc;
    auto feed = ClientEventFeed::open(*ctx.connections, line.filter);
    if (!feed)
        return ctx.fail(feed.error());
    if (ctx.parser.isSet(QStringLiteral("record"))) {
        auto servers = Discovery::servers(*ctx.connections);
        line.historyCluster = servers ? HistoryLocation::clusterName(*servers) : QString();
        if (line.historyCluster.isEmpty())
            ctx.err << "warning: the events are not recorded: "
                    << (servers ? QStringLiteral("the servers did not say which cluster they are") : servers.error().toString()) << '\n';
    }
    const InterruptGuard interrupt;
    if (!ctx.json) {
        const ClientEventFeed::Filter &filter = line.filter;
        ctx.err << "Following MQTT client connects and disconnects"
                << (filter.account.isEmpty() ? QString() : QStringLiteral(" of account ") + filter.account)
                << (filter.clientId.isEmpty() ? QString() : QStringLiteral(" with client ID ") + filter.clientId)
                << (line.durationMs > 0 ? QStringLiteral(" for %1").arg(formatAge(std::max<qint64>(1, line.durationMs / 1000)))
                                        : QStringLiteral("; Ctrl-C ends"))
                << ".\n";
        ctx.err.flush();
    }
    TakeoverWatch watch(line.watchOptions);
    QElapsedTimer elapsed;
    elapsed.start();
    const EventsSeen seen = follow(ctx, *feed, watch, line, interrupt, elapsed);
    printSummary(ctx, seen, watch, line.watchOptions, double(elapsed.elapsed()) / 1000.0, interrupt.raised());
    if (seen.failure)
        return exitCodeFor(*seen.failure);
    return watch.storms().isEmpty() ? ExitOk : ExitWarnings;
}

} // namespace

QList<Command> eventsCommands()
{
    Command events{
        QStringLiteral("events"),
        QStringLiteral("Follow MQTT clients connecting and disconnecting (system connection), with takeovers of one client ID."),
        {QCommandLineOption(QStringLiteral("account"), QStringLiteral("Only this account's clients."), QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("client"), QStringLiteral("Only this MQTT client ID."), QStringLiteral("id")),
         QCommandLineOption(QStringLiteral("duration"), QStringLiteral("Stop after this long (default: until Ctrl-C)."),
                            QStringLiteral("duration")),
         QCommandLineOption(QStringLiteral("takeover-threshold"),
                            QStringLiteral("A client ID replaced more than N times in the window is a takeover storm (default 3)."),
                            QStringLiteral("n"), QStringLiteral("3")),
         QCommandLineOption(QStringLiteral("record"),
                            QStringLiteral("Also write each event into the cluster's local history (history --client ID tells a "
                                           "client's story).")),
         CheckHistory::folderOption(),
         QCommandLineOption(QStringLiteral("takeover-window"), QStringLiteral("The takeover window (default 5m)."),
                            QStringLiteral("duration"), QStringLiteral("5m"))},
        runEvents};
    events.followsUntilStopped = true;
    return {events};
}

} // namespace MqttDoctor::Cli
