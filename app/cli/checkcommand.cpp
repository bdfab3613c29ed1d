#include "checkcommand.h"

#include <optional>

#include <QThread>

#include "checkhistory.h"
#include "checkreport.h"
#include "checkwatch.h"
#include "common/duration.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqtt/serverversion.h"
#include "nats/connectionset.h"
#include "openmetricswriter.h"
#include "terminalprogress.h"
#include "thresholdoptions.h"

namespace MqttDoctor::Cli {

namespace {

/** What the command line asks `check` for, its values checked. */
struct CheckCommandLine
{
    DiagnosisGatherer::Request request;
    std::optional<qint64> sampleIntervalMs; ///< --sample-interval
    std::optional<qint64> watchMs; ///< --watch
    bool openMetrics = false; ///< --format openmetrics
};

/** nullopt when every option was valid (into `line`); else the exit code of the usage error already printed. */
std::optional<int> parseCheckOptions(CliContext &ctx, CheckCommandLine &line)
{
    DiagnosisGatherer::Request &request = line.request;
    request.account = ctx.parser.value(QStringLiteral("account"));
    request.allAccounts = ctx.parser.isSet(QStringLiteral("all-accounts"));
    if (request.allAccounts && !request.account.isEmpty())
        return ctx.usage(QStringLiteral("give either --account or --all-accounts, not both"));
    request.options.upgradePlanned = ctx.parser.isSet(QStringLiteral("upgrade-planned"));
    if (ctx.parser.isSet(QStringLiteral("stream-replicas"))) {
        bool ok = false;
        const int replicas = ctx.parser.value(QStringLiteral("stream-replicas")).toInt(&ok);
        if (!ok || replicas < 1 || replicas > 5)
            return ctx.usage(QStringLiteral("--stream-replicas must be a number from 1 to 5"),
                             QStringLiteral("give the servers' mqtt { stream_replicas } value"));
        request.options.layout.streamReplicas = replicas;
    }

    if (const auto rc = parseThresholdOptions(ctx, request.options))
        return *rc;
    if (ctx.parser.isSet(QStringLiteral("sample-interval"))) {
        const QString text = ctx.parser.value(QStringLiteral("sample-interval"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000 || *ms > 600000)
            return ctx.usage(QStringLiteral("--sample-interval must be from 1s to 10m, not \"%1\"").arg(text),
                             QStringLiteral("for example 5s: the account is sampled, and checked that long later"));
        if (ctx.parser.isSet(QStringLiteral("watch")))
            return ctx.usage(QStringLiteral("--sample-interval goes without --watch"),
                             QStringLiteral("--watch compares each round with the one before"));
        line.sampleIntervalMs = qint64(*ms);
    }
    if (ctx.parser.isSet(QStringLiteral("target-version"))) {
        const QString text = ctx.parser.value(QStringLiteral("target-version"));
        const auto target = ServerVersion::parse(text);
        if (!target || target->majorVersion() != 2)
            return ctx.usage(
                QStringLiteral("--target-version must be a nats-server version such as 2.11.15 or 2.14.5, not \"%1\"").arg(text),
                QStringLiteral("the version the servers are to be upgraded to"));
        request.options.targetVersion = *target;
        // An upgrade of 2.9 servers to 2.10+ also migrates the retained messages.
        if (target->atLeast(2, 10))
            request.options.upgradePlanned = true;
    }
    request.records = !ctx.parser.isSet(QStringLiteral("no-records"));
    if (ctx.parser.isSet(QStringLiteral("parallel"))) {
        bool ok = false;
        const int parallel = ctx.parser.value(QStringLiteral("parallel")).toInt(&ok);
        if (!ok || parallel < 1 || parallel > 64)
            return ctx.usage(QStringLiteral("--parallel must be a number from 1 to 64"),
                             QStringLiteral("how many accounts are read through their own connections at once (default %1)")
                                 .arg(DiagnosisGatherer::Request::kDefaultParallelAccounts));
        request.parallelAccounts = parallel;
    }
    if (ctx.parser.isSet(QStringLiteral("format"))) {
        const QString format = ctx.parser.value(QStringLiteral("format"));
        if (format == QLatin1String("openmetrics"))
            line.openMetrics = true;
        else if (format != QLatin1String("text"))
            return ctx.usage(QStringLiteral("--format must be text or openmetrics, not \"%1\"").arg(format),
                             QStringLiteral("--json gives the JSON object"));
        if (line.openMetrics && ctx.parser.isSet(QStringLiteral("probe")))
            return ctx.usage(QStringLiteral("--format openmetrics goes without --probe"));
        if (line.openMetrics && (ctx.json || ctx.parser.isSet(QStringLiteral("watch"))))
            return ctx.usage(QStringLiteral("--format openmetrics goes with neither --json nor --watch"),
                             QStringLiteral("run it from a timer (cron, systemd) into node_exporter's textfile directory"));
    }
    if (ctx.parser.isSet(QStringLiteral("watch"))) {
        const QString text = ctx.parser.value(QStringLiteral("watch"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000)
            return ctx.usage(QStringLiteral("--watch must be an interval of at least 1s, not \"%1\"").arg(text),
                             QStringLiteral("for example 30s or 5m"));
        if (ctx.parser.isSet(QStringLiteral("probe")))
            return ctx.usage(QStringLiteral("--probe goes without --watch"), QStringLiteral("probe once: check --probe"));
        line.watchMs = qint64(*ms);
    }
    return std::nullopt;
}

/** The servers and accounts to check, read with a progress line on a terminal. */
Result<DiagnosisInput> gatherInput(ConnectionSet &connections, const CheckCommandLine &line, TerminalProgress &progress)
{
    DiagnosisGatherer::Request request = line.request;
    if (progress.isShown())
        request.progress = [&progress](int done, int total, const QString &account) {
            progress.update(
                QStringLiteral("Reading accounts through their own connections: %1 of %2 (%3)").arg(done).arg(total).arg(account));
        };

    // The two-sample checks: a first look (streams and consumers, no records), then the check that long after.
    if (line.sampleIntervalMs) {
        DiagnosisGatherer::Request first = request;
        first.records = false;
        first.progress = nullptr;
        if (progress.isShown())
            progress.update(QStringLiteral("Sampling, then checking again in %1").arg(formatAge(*line.sampleIntervalMs / 1000)));
        auto sampled = DiagnosisGatherer::gather(connections, first);
        if (!sampled) {
            progress.clear();
            return sampled.error();
        }
        request.previousSamples = DiagnosisGatherer::samplesOf(*sampled);
        QThread::msleep(static_cast<unsigned long>(*line.sampleIntervalMs));
    }
    auto input = DiagnosisGatherer::gather(connections, request);
    progress.clear();
    return input;
}

int runCheck(CliContext &ctx)
{
    CheckCommandLine line;
    if (const auto rc = parseCheckOptions(ctx, line))
        return *rc;
    if (line.watchMs)
        return runCheckWatch(ctx, line.request, *line.watchMs);
    TerminalProgress progress(ctx.err);
    // A recorded check compares with the last recorded sample (CONSUMER_STUCK, JETSTREAM_API_ERRORS).
    if (CheckHistory::wanted(ctx) && !line.sampleIntervalMs)
        line.request.previousSamples = CheckHistory::previousSamples(ctx);
    const auto input = gatherInput(*ctx.connections, line, progress);
    if (!input)
        return ctx.fail(input.error());
    // JSON: the findings per missing durable are written as they are made (CheckReport), unless they are
    // recorded too.
    const bool record = CheckHistory::wanted(ctx);
    CheckReport report(*input, ctx.json && !record, ctx.unansweredServersJson());
    // Recorded before it is printed: the text says since when each finding is open.
    if (record)
        if (auto outcome = CheckHistory::record(ctx, *input, report.findings(), report.exitCode()); outcome && !outcome->first)
            report.setFirstSeen(std::move(outcome->firstSeen),
                                input->sampledAt.isValid() ? input->sampledAt : QDateTime::currentDateTimeUtc());
    if (line.openMetrics) {
        OpenMetricsWriter::write(ctx.out, *input, report.findings(), report.exitCode());
    } else {
        if (ctx.parser.isSet(QStringLiteral("probe")))
            report.probe(ctx.connections->profile(), progress);
        if (ctx.json)
            report.writeJson(ctx.out, line.request.options.layout);
        else
            report.writeText(ctx, ctx.parser.isSet(QStringLiteral("all-findings")));
    }
    return report.exitCode();
}

} // namespace

QList<Command> checkCommands()
{
    Command check{
        QStringLiteral("check"),
        QStringLiteral("Diagnose the MQTT streams: findings with evidence, the server errors they explain, and the repair."),
        {QCommandLineOption(QStringLiteral("account"), QStringLiteral("Check one account (default: the connected user's account)."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("all-accounts"), QStringLiteral("Check every account (needs a system connection).")),
         QCommandLineOption(QStringLiteral("stream-replicas"),
                            QStringLiteral("The servers' mqtt { stream_replicas } (default: derived from the cluster size)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("upgrade-planned"),
                            QStringLiteral("Also report what an upgrade of 2.9 servers to 2.10+ will do.")),
         QCommandLineOption(QStringLiteral("target-version"),
                            QStringLiteral("Upgrade readiness: also report what this nats-server version will refuse or change "
                                           "for the account's sessions, connected clients and retained messages."),
                            QStringLiteral("version")),
         QCommandLineOption(QStringLiteral("stale-after"),
                            QStringLiteral("SESSION_STALE: persistent sessions not connected and not written for longer than this, "
                                           "e.g. 12h or 7d."),
                            QStringLiteral("duration"), QStringLiteral("30d")),
         QCommandLineOption(QStringLiteral("client-id"),
                            QStringLiteral("A client ID to check for hash collisions with the sessions (repeatable)."),
                            QStringLiteral("id")),
         QCommandLineOption(QStringLiteral("all-findings"),
                            QStringLiteral("Text output: print every finding (by default a code found more than %1 times in "
                                           "an account is shown %1 times, then counted).")
                                .arg(CheckReport::kMaxShownPerCode)),
         QCommandLineOption(QStringLiteral("format"),
                            QStringLiteral("text (default) or openmetrics: OpenMetrics text for node_exporter's textfile "
                                           "collector (findings, session records, retained messages, connected clients)."),
                            QStringLiteral("format")),
         QCommandLineOption(QStringLiteral("watch"),
                            QStringLiteral("Check again every interval and print only what changed (new and resolved "
                                           "findings); Ctrl-C ends with the last check's exit code."),
                            QStringLiteral("interval")),
         QCommandLineOption(QStringLiteral("sample-interval"),
                            QStringLiteral("Also run the checks that compare two samples (CONSUMER_STUCK's delivery progress, "
                                           "JETSTREAM_API_ERRORS): sample the streams and consumers, wait this long, then "
                                           "check, e.g. 5s."),
                            QStringLiteral("interval")),
         QCommandLineOption(QStringLiteral("pinned-warn-at"),
                            QStringLiteral("INTEREST_PINNED: an offline session whose durables hold more messages than this."),
                            QStringLiteral("messages"), QStringLiteral("10000")),
         QCommandLineOption(QStringLiteral("api-errors-per-minute"),
                            QStringLiteral("JETSTREAM_API_ERRORS: JetStream API error replies per minute between two "
                                           "samples from which it is reported."),
                            QStringLiteral("n"), QStringLiteral("60")),
         QCommandLineOption(QStringLiteral("probe"),
                            QStringLiteral("Also verify MQTT delivery end to end with a real MQTT client (the profile's mqtt_probe "
                                           "entry of the account): connect, QoS 1 and retained delivery on a reserved topic, then "
                                           "clean up.")),
         QCommandLineOption(QStringLiteral("no-records"),
                            QStringLiteral("Skip the session records (stream-level checks only; faster on huge accounts).")),
         QCommandLineOption(QStringLiteral("parallel"),
                            QStringLiteral("With --all-accounts: how many accounts are read through their own connections "
                                           "at once, 1 to 64."),
                            QStringLiteral("n"), QString::number(DiagnosisGatherer::Request::kDefaultParallelAccounts))},
        runCheck,
        true,
        true};
    check.account = AccountUse::Optional; // none: the connected user's account, or every account
    check.options += CheckHistory::options();
    return {check};
}

} // namespace MqttDoctor::Cli
