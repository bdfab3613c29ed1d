#include "historycommands.h"

#include <variant>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include "checkhistory.h"
#include "common/duration.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyquery.h"
#include "jsoncontract.h"
#include "nats/connectionoptions.h"
#include "nats/profile.h"

namespace MqttDoctor::Cli {

namespace {

constexpr qint64 kDefaultSinceMs = 24LL * 3600 * 1000;

QString iso(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODate);
}

/** The database and window a history command reads; the exit code of the error already printed otherwise. */
struct Opened
{
    std::unique_ptr<HistoryDatabase> db;
    QString cluster;
    HistoryQuery::Window window;
};

std::variant<Opened, int> openHistory(CliContext &ctx)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    HistoryQuery::Window window;
    window.account = ctx.parser.value(QStringLiteral("account"));
    const QString sinceText = ctx.parser.value(QStringLiteral("since"));
    if (sinceText.isEmpty()) {
        window.since = now.addMSecs(-kDefaultSinceMs);
    } else if (const auto since = CheckHistory::parseWhen(sinceText, now)) {
        window.since = *since;
    } else {
        return ctx.usage(QStringLiteral("--since must be a duration (2h, 7d) or a time (2026-12-07T14:00:00Z), not \"%1\"").arg(sinceText));
    }
    const QString untilText = ctx.parser.value(QStringLiteral("until"));
    if (!untilText.isEmpty()) {
        const auto until = CheckHistory::parseWhen(untilText, now);
        if (!until)
            return ctx.usage(QStringLiteral("--until must be a duration (1h: an hour ago) or a time, not \"%1\"").arg(untilText));
        window.until = *until;
        if (window.until < window.since)
            return ctx.usage(QStringLiteral("--until is before --since"));
    }
    auto reading = CheckHistory::openForReading(ctx);
    if (!reading)
        return ctx.fail(reading.error());
    Opened out;
    out.cluster = reading->cluster;
    out.db = std::move(reading->db);
    out.window = window;
    return out;
}

QJsonObject header(const Opened &o)
{
    return {{QStringLiteral("cluster"), o.cluster},
            {QStringLiteral("database"), o.db->path()},
            {QStringLiteral("since"), iso(o.window.since)},
            {QStringLiteral("until"), o.window.until.isValid() ? QJsonValue(iso(o.window.until)) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("account"), o.window.account.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(o.window.account)}};
}

/** The first line: the cluster, the window and the checks in it. */
void printCoverage(CliContext &ctx, const Opened &o, const HistoryQuery::Checks &checks)
{
    const QString until = o.window.until.isValid() ? iso(o.window.until) : QStringLiteral("now");
    ctx.out << "Cluster " << o.cluster << (o.window.account.isEmpty() ? QString() : QStringLiteral(", account ") + o.window.account) << ", "
            << iso(o.window.since) << " to " << until << ": ";
    if (checks.count == 0)
        ctx.out << "no check was recorded in this time, so the history cannot tell what happened then.\n";
    else
        ctx.out << checks.count << (checks.count == 1 ? " check" : " checks") << " recorded (" << iso(checks.first) << " to "
                << iso(checks.last) << "), " << checks.complete << " of them looked at everything.\n";
}

QString openFor(const HistoryQuery::FindingSpan &f)
{
    const QDateTime end = f.closedAt.isValid() ? f.closedAt : f.lastSeen;
    return formatAge(f.firstSeen.secsTo(end));
}

int printEntries(CliContext &ctx, const QList<HistoryQuery::Entry> &entries)
{
    for (const HistoryQuery::Entry &e : entries) {
        ctx.out << "  " << iso(e.at) << "  ";
        if (!e.account.isEmpty())
            ctx.out << e.account << "  ";
        ctx.out << e.text << '\n';
    }
    return int(entries.size());
}

int runHistory(CliContext &ctx)
{
    auto opened = openHistory(ctx);
    if (const int *rc = std::get_if<int>(&opened))
        return *rc;
    Opened &o = std::get<Opened>(opened);
    HistoryQuery query(*o.db);
    auto checks = query.checks(o.window);
    if (!checks)
        return ctx.fail(checks.error());
    const QString client = ctx.parser.value(QStringLiteral("client"));
    if (!client.isEmpty()) {
        auto story = query.client(client, o.window);
        if (!story)
            return ctx.fail(story.error());
        if (ctx.json) {
            QJsonObject out = header(o);
            out.insert(QStringLiteral("client_id"), client);
            out.insert(QStringLiteral("checks"), checks->toJson());
            QJsonArray entries;
            for (const HistoryQuery::Entry &e : std::as_const(*story))
                entries.append(e.toJson());
            out.insert(QStringLiteral("entries"), entries);
            ctx.out << QJsonDocument(JsonContract::stamped(QStringLiteral("client-history"), out)).toJson(QJsonDocument::Indented);
        } else {
            printCoverage(ctx, o, *checks);
            if (story->isEmpty())
                ctx.out << "Nothing recorded about client \"" << client << "\" in this time.\n";
            else
                ctx.out << "Client \"" << client << "\":\n";
            printEntries(ctx, *story);
        }
        return checks->count == 0 ? ExitCouldNotCheck : ExitOk;
    }
    auto spans = query.findings(o.window);
    if (!spans)
        return ctx.fail(spans.error());
    if (ctx.json) {
        QJsonObject out = header(o);
        out.insert(QStringLiteral("checks"), checks->toJson());
        QJsonArray findings;
        for (const HistoryQuery::FindingSpan &f : std::as_const(*spans))
            findings.append(f.toJson());
        out.insert(QStringLiteral("findings"), findings);
        ctx.out << QJsonDocument(JsonContract::stamped(QStringLiteral("history"), out)).toJson(QJsonDocument::Indented);
        return checks->count == 0 ? ExitCouldNotCheck : ExitOk;
    }
    printCoverage(ctx, o, *checks);
    if (checks->count > 0 && spans->isEmpty())
        ctx.out << "No finding was open in this time.\n";
    for (const HistoryQuery::FindingSpan &f : std::as_const(*spans)) {
        QStringList where{f.account.isEmpty() ? QStringLiteral("cluster") : f.account};
        if (!f.stream.isEmpty())
            where << f.stream;
        if (!f.clientId.isEmpty())
            where << QStringLiteral("client %1").arg(f.clientId);
        ctx.out << (f.closedAt.isValid() ? "  closed  " : "  open    ") << f.severity << ' ' << f.code << "  "
                << where.join(QStringLiteral(" · ")) << "  " << f.title << '\n'
                << "          first seen " << iso(f.firstSeen) << ", last seen " << iso(f.lastSeen);
        if (f.closedAt.isValid())
            ctx.out << ", closed " << iso(f.closedAt) << " (open for " << openFor(f) << ")\n";
        else
            ctx.out << " (open for " << openFor(f) << " when last seen)\n";
    }
    return checks->count == 0 ? ExitCouldNotCheck : ExitOk;
}

int runChanges(CliContext &ctx)
{
    auto opened = openHistory(ctx);
    if (const int *rc = std::get_if<int>(&opened))
        return *rc;
    Opened &o = std::get<Opened>(opened);
    HistoryQuery query(*o.db);
    auto checks = query.checks(o.window);
    if (!checks)
        return ctx.fail(checks.error());
    auto entries = query.changes(o.window);
    if (!entries)
        return ctx.fail(entries.error());
    if (ctx.json) {
        QJsonObject out = header(o);
        out.insert(QStringLiteral("checks"), checks->toJson());
        QJsonArray list;
        for (const HistoryQuery::Entry &e : std::as_const(*entries))
            list.append(e.toJson());
        out.insert(QStringLiteral("entries"), list);
        ctx.out << QJsonDocument(JsonContract::stamped(QStringLiteral("changes"), out)).toJson(QJsonDocument::Indented);
        return checks->count == 0 ? ExitCouldNotCheck : ExitOk;
    }
    printCoverage(ctx, o, *checks);
    if (checks->count > 0 && entries->isEmpty())
        ctx.out << (checks->count == 1 ? "Nothing changed that one check could see (changes are between two recorded checks).\n"
                                       : "Nothing changed between the recorded checks.\n");
    printEntries(ctx, *entries);
    return checks->count == 0 ? ExitCouldNotCheck : ExitOk;
}

QList<QCommandLineOption> windowOptions()
{
    return {QCommandLineOption(QStringLiteral("since"),
                               QStringLiteral("From this long ago (2h, 7d) or this time (ISO 8601, UTC unless it says); default 24h."),
                               QStringLiteral("when")),
            QCommandLineOption(QStringLiteral("until"), QStringLiteral("Up to this long ago or this time (default: now)."),
                               QStringLiteral("when")),
            QCommandLineOption(QStringLiteral("account"), QStringLiteral("One account only."), QStringLiteral("name")),
            QCommandLineOption(QStringLiteral("cluster"),
                               QStringLiteral("The cluster whose history to read (default: the one recorded through --server, or "
                                              "the only one)."),
                               QStringLiteral("name")),
            CheckHistory::folderOption()};
}

} // namespace

QList<Command> historyCommands()
{
    Command history{QStringLiteral("history"),
                    QStringLiteral("The recorded findings of a time: when each was first and last seen, and when it was closed; with "
                                   "--client, one client's story (connects, takeovers, record changes, findings)."),
                    windowOptions()
                        + QList<QCommandLineOption>{QCommandLineOption(QStringLiteral("client"), QStringLiteral("One MQTT client's story."),
                                                                       QStringLiteral("id"))},
                    runHistory, false};
    Command changes{QStringLiteral("changes"),
                    QStringLiteral("What changed between the recorded checks of a time: findings opened and closed, session records "
                                   "appeared, rewritten and vanished, stream configs, servers."),
                    windowOptions(), runChanges, false};
    return {history, changes};
}

} // namespace MqttDoctor::Cli
