#include "checkcommand.h"
#include "jsoncontract.h"

#include "checkwatch.h"
#include "openmetricswriter.h"

#include <algorithm>
#include <optional>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QThread>

#include "common/duration.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/accountcoverage.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "diagnosis/findinglist.h"
#include "diagnosis/missingconsumerfindings.h"
#include "diagnosis/mqttprobe.h"
#include "nats/connectionset.h"
#include "mqtt/layouts.h"
#include "mqtt/serverversion.h"
#include "checkwatch.h"
#include "probetext.h"
#include "thresholdoptions.h"
#include "terminalprogress.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

QString evidenceText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isUndefined() || v.isNull())
        return QStringLiteral("-");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

void printFinding(QTextStream &out, const Finding &f)
{
    out << "  " << Finding::severityName(f.severity).toUpper().leftJustified(9) << f.code << "  " << f.title << '\n';
    const QString pad(11, QLatin1Char(' '));
    if (!f.detail.isEmpty())
        out << pad << f.detail << '\n';
    if (!f.expected.isUndefined() || !f.actual.isUndefined())
        out << pad << "expected: " << evidenceText(f.expected) << '\n' << pad << "actual:   " << evidenceText(f.actual) << '\n';
    for (const QString &e : f.explains)
        out << pad << "explains: " << e << '\n';
    out << pad << "repair:   " << (f.repair.isEmpty() ? QStringLiteral("none (see the detail)") : f.repair) << '\n';
}

/** Text output: how many findings of one code and severity an account shows before counting the rest. */
constexpr int kMaxShownPerCode = 10;

// Ends with a full stop, once.
QString sentence(const QString &text)
{
    return text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
}

// "1 critical", "2 errors", "1 warning", "3 info".
QString severityCount(int n, Finding::Severity severity)
{
    const bool plural = n != 1 && (severity == Finding::Severity::Error || severity == Finding::Severity::Warning);
    return QStringLiteral("%1 %2%3").arg(n).arg(Finding::severityName(severity), plural ? QStringLiteral("s") : QString());
}

// At most this many account names in one line of the fleet summary.
constexpr int kNamesPerLine = 12;

QString namesText(QStringList names)
{
    const qsizetype more = names.size() - kNamesPerLine;
    if (more > 0) {
        names = names.mid(0, kNamesPerLine);
        names << QStringLiteral("and %1 more").arg(more);
    }
    return names.join(QStringLiteral(", "));
}

/**
 * Several accounts: the findings by severity and code with where they are, the accounts with problems
 * (most severe first), and how far each account was checked.
 */
void printFleetSummary(QTextStream &out, const QList<Finding> &findings, const QList<AccountCoverage> &coverage)
{
    struct CodeRow
    {
        Finding::Severity severity;
        QString code;
        int count = 0;
        QStringList accounts;
    };
    QList<CodeRow> codes; // in the findings' order: most severe first
    QMap<QString, QMap<Finding::Severity, int>> perAccount;
    for (const Finding &f : findings) {
        auto row =
            std::find_if(codes.begin(), codes.end(), [&f](const CodeRow &r) { return r.code == f.code && r.severity == f.severity; });
        if (row == codes.end())
            row = codes.insert(codes.end(), CodeRow{f.severity, f.code, 0, {}});
        ++row->count;
        const QString account = f.account.isEmpty() ? QStringLiteral("(cluster)") : f.account;
        if (!row->accounts.contains(account))
            row->accounts << account;
        ++perAccount[account][f.severity];
    }
    if (!codes.isEmpty()) {
        out << "Findings by code:\n";
        for (const CodeRow &r : std::as_const(codes))
            out << "  " << Finding::severityName(r.severity).toUpper().leftJustified(9) << r.code.leftJustified(27) << ' '
                << QString::number(r.count).rightJustified(7) << "  in " << namesText(r.accounts) << '\n';
        // Accounts with problems, the most severe first (then the most findings).
        QStringList accounts = perAccount.keys();
        const auto worst = [&perAccount](const QString &a) { return int(perAccount.value(a).lastKey()); };
        const auto total = [&perAccount](const QString &a) {
            int n = 0;
            for (int c : perAccount.value(a))
                n += c;
            return n;
        };
        std::stable_sort(accounts.begin(), accounts.end(), [&](const QString &a, const QString &b) {
            return worst(a) != worst(b) ? worst(a) > worst(b) : total(a) > total(b);
        });
        out << "Accounts with findings (most severe first):\n";
        for (const QString &a : std::as_const(accounts)) {
            QStringList parts;
            const QMap<Finding::Severity, int> counts = perAccount.value(a);
            for (auto it = counts.cend(); it != counts.cbegin();) {
                --it;
                parts << severityCount(it.value(), it.key());
            }
            out << "  " << a.leftJustified(20) << ' ' << parts.join(QStringLiteral(", ")) << '\n';
        }
    }
    // How far each account was looked at.
    QStringList full;
    QStringList streamsOnly;
    QStringList noMqttState;
    for (const AccountCoverage &c : coverage) {
        if (c.records == QLatin1String("checked"))
            full << c.account;
        else if (c.records == QLatin1String("not_checked"))
            streamsOnly << c.account;
        else
            noMqttState << c.account;
    }
    out << "Checked at which level:\n";
    if (!full.isEmpty())
        out << "  streams and session records: " << namesText(full) << '\n';
    if (!streamsOnly.isEmpty())
        out << "  streams only (session records not read: see the top): " << namesText(streamsOnly) << '\n';
    if (!noMqttState.isEmpty())
        out << "  streams only (no $MQTT_sess or no JetStream: no records to read): " << namesText(noMqttState) << '\n';
    out << '\n';
}

QJsonObject summaryOf(const QList<Finding> &findings, const QList<MissingConsumerFindings> &apart = {})
{
    QMap<Finding::Severity, int> counts;
    for (const Finding &f : findings)
        ++counts[f.severity];
    for (const MissingConsumerFindings &m : apart)
        counts[m.at(0).severity] += int(m.size());
    QJsonObject o;
    for (Finding::Severity s : {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning, Finding::Severity::Info})
        o.insert(Finding::severityName(s), counts.value(s));
    return o;
}

const QString kTwoSampleNote =
    QStringLiteral("the checks that compare two samples (CONSUMER_STUCK's delivery progress, JETSTREAM_API_ERRORS) were not run; "
                   "--sample-interval 5s or --watch runs them.");

// {"run": bool, "seconds": the time between the samples or null}.
QJsonObject twoSampleJson(const DiagnosisInput &input)
{
    qint64 ms = -1;
    for (const AccountSample &s : input.previousSamples)
        if (s.time.isValid() && input.sampledAt.isValid())
            ms = std::max(ms, s.time.msecsTo(input.sampledAt));
    return QJsonObject{{QStringLiteral("run"), !input.previousSamples.isEmpty()},
                       {QStringLiteral("seconds"), ms >= 0 ? QJsonValue(double(ms) / 1000.0) : QJsonValue()}};
}

int runCheck(CliContext &ctx)
{
    DiagnosisGatherer::Request request;
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
    std::optional<qint64> sampleIntervalMs;
    if (ctx.parser.isSet(QStringLiteral("sample-interval"))) {
        const QString text = ctx.parser.value(QStringLiteral("sample-interval"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000 || *ms > 600000)
            return ctx.usage(QStringLiteral("--sample-interval must be from 1s to 10m, not \"%1\"").arg(text),
                             QStringLiteral("for example 5s: the account is sampled, and checked that long later"));
        if (ctx.parser.isSet(QStringLiteral("watch")))
            return ctx.usage(QStringLiteral("--sample-interval goes without --watch"),
                             QStringLiteral("--watch compares each round with the one before"));
        sampleIntervalMs = qint64(*ms);
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
    bool openMetrics = false;
    if (ctx.parser.isSet(QStringLiteral("format"))) {
        const QString format = ctx.parser.value(QStringLiteral("format"));
        if (format == QLatin1String("openmetrics"))
            openMetrics = true;
        else if (format != QLatin1String("text"))
            return ctx.usage(QStringLiteral("--format must be text or openmetrics, not \"%1\"").arg(format),
                             QStringLiteral("--json gives the JSON object"));
        if (openMetrics && ctx.parser.isSet(QStringLiteral("probe")))
            return ctx.usage(QStringLiteral("--format openmetrics goes without --probe"));
        if (openMetrics && (ctx.json || ctx.parser.isSet(QStringLiteral("watch"))))
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
        return runCheckWatch(ctx, request, qint64(*ms));
    }
    TerminalProgress progress(ctx.err);
    if (progress.isShown())
        request.progress = [&progress](int done, int total, const QString &account) {
            progress.update(
                QStringLiteral("Reading accounts through their own connections: %1 of %2 (%3)").arg(done).arg(total).arg(account));
        };

    // The two-sample checks: a first look (streams and consumers, no records), then the check that long after.
    if (sampleIntervalMs) {
        DiagnosisGatherer::Request first = request;
        first.records = false;
        first.progress = nullptr;
        if (progress.isShown())
            progress.update(QStringLiteral("Sampling, then checking again in %1").arg(formatAge(*sampleIntervalMs / 1000)));
        auto sampled = DiagnosisGatherer::gather(*ctx.connections, first);
        if (!sampled) {
            progress.clear();
            return ctx.fail(sampled.error());
        }
        request.previousSamples = DiagnosisGatherer::samplesOf(*sampled);
        QThread::msleep(static_cast<unsigned long>(*sampleIntervalMs));
    }
    auto input = DiagnosisGatherer::gather(*ctx.connections, request);
    progress.clear();
    if (!input)
        return ctx.fail(input.error());
    // JSON: a finding per missing durable (a hundred thousand on an account whose durables are gone) is
    // written as it is made, from the records, instead of all of them being made first.
    QList<MissingConsumerFindings> apart;
    const QList<Finding> findings = ctx.json ? MissingConsumerFindings::diagnoseApart(*input, apart) : Checks::diagnose(*input);
    int rc = Checks::exitCodeFor(findings);
    for (const MissingConsumerFindings &m : apart)
        rc = std::max(rc, Checks::exitCodeFor({m.at(0)}));
    // A server that did not answer, or a level of an account that could not be read, was not looked
    // at: never "no problem" (or only warnings) then.
    const QJsonArray unanswered = ctx.unansweredServersJson();
    const bool verdictOpen = CoverageGap::anyLeavesVerdictOpen(input->gaps);
    if ((!unanswered.isEmpty() || verdictOpen) && rc != ExitErrors)
        rc = ExitCouldNotCheck;
    if (openMetrics) {
        OpenMetricsWriter::write(ctx.out, *input, findings, rc);
        return rc;
    }
    const QList<AccountCoverage> coverage = AccountCoverage::of(*input);

    QStringList checked;
    QList<MqttProbeResult> probes;
    QMap<QString, const AccountInfo *> withJetStream; // sorted, as the keys of a JSON object
    for (const AccountInfo &a : input->accounts) {
        if (a.isSystem && !input->includeSystemAccount)
            continue;
        checked << a.name;
        if (a.jetstream)
            withJetStream.insert(a.name, &a);
    }
    // What a real MQTT client sees, after what the streams say: part of the coverage.
    if (ctx.parser.isSet(QStringLiteral("probe"))) {
        if (progress.isShown())
            progress.update(QStringLiteral("Probing MQTT delivery"));
        probes = MqttProbe::probeAccounts(ctx.connections->profile(), input->servers, checked, checked.size() > 1);
        progress.clear();
        const int probeRc = probesExitCode(probes);
        if (probeRc == ExitErrors || (probeRc == ExitCouldNotCheck && rc != ExitErrors))
            rc = probeRc;
    }
    const bool probesComplete = probesExitCode(probes) == ExitOk;

    if (ctx.json) {
        // Written as it is produced: tens of thousands of findings need not exist twice (tree and text).
        JsonStreamWriter w(ctx.out);
        w.beginObject();
        w.string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("check")));
        w.value(QStringLiteral("accounts"), QJsonArray::fromStringList(checked));
        w.beginArray(QStringLiteral("coverage"));
        for (const AccountCoverage &c : coverage) {
            QJsonObject o = c.toJson();
            o.insert(QStringLiteral("account"), c.account);
            w.value({}, o);
        }
        w.endArray();
        w.value(QStringLiteral("coverage_complete"), !verdictOpen && unanswered.isEmpty() && probesComplete);
        w.beginArray(QStringLiteral("findings"));
        FindingList(findings, apart).writeJson(w);
        w.endArray();
        // One layout per account: made as it is written (ten thousand accounts' layouts are tens of MiB).
        w.beginObject(QStringLiteral("layouts"));
        // Most accounts of a fleet share one layout: its JSON is made once per run of equal ones.
        std::optional<LayoutChoice> last;
        QJsonObject lastJson;
        for (auto it = withJetStream.cbegin(); it != withJetStream.cend(); ++it) {
            const LayoutChoice choice = Layouts::choose(input->servers, request.options.layout, (*it)->streams);
            if (!last || !(choice == *last)) {
                lastJson = choice.toJson();
                last = choice;
            }
            w.value(it.key(), lastJson);
        }
        w.endObject();
        QJsonArray notChecked;
        for (const CoverageGap &g : input->gaps)
            notChecked.append(g.toJson());
        w.value(QStringLiteral("not_checked"), notChecked);
        w.value(QStringLiteral("notes"), QJsonArray::fromStringList(CoverageGap::texts(input->gaps)));
        if (ctx.parser.isSet(QStringLiteral("probe"))) {
            QJsonArray p;
            for (const MqttProbeResult &r : std::as_const(probes))
                p.append(r.toJson());
            w.value(QStringLiteral("probes"), p);
        }
        w.value(QStringLiteral("records_checked"), QJsonArray::fromStringList(input->sessions.keys()));
        w.value(QStringLiteral("summary"), summaryOf(findings, apart));
        w.value(QStringLiteral("two_sample_checks"), twoSampleJson(*input));
        w.value(QStringLiteral("unanswered_servers"), unanswered);
        w.endObject();
        w.finish();
        return rc;
    }

    // What was not looked at comes first: the findings below do not cover it.
    if (CoverageGap::anyLeavesVerdictOpen(input->gaps)) {
        ctx.out << "Not checked (the findings below do not cover it):\n";
        for (const CoverageGap &g : input->gaps)
            if (g.leavesVerdictOpen())
                ctx.out << "  " << sentence(g.text()) << '\n';
        ctx.out << '\n';
    }
    // Grouped by account (cluster-wide findings first), most severe first within each group. A code found
    // many times in one account (a finding per session) is shown kMaxShownPerCode times, then counted:
    // a hundred thousand alike findings are one line to read, --all-findings (or --json) lists them all.
    const bool everyFinding = ctx.parser.isSet(QStringLiteral("all-findings"));
    QMap<QString, QList<qsizetype>> byAccount;
    for (qsizetype i = 0; i < findings.size(); ++i)
        byAccount[findings.at(i).account].append(i);
    for (auto it = byAccount.cbegin(); it != byAccount.cend(); ++it) {
        ctx.out << (it.key().isEmpty() ? QStringLiteral("Cluster") : QStringLiteral("Account ") + it.key()) << '\n';
        qsizetype run = 0; // findings of the current code and severity so far
        const auto flush = [&](const Finding *last) {
            if (!everyFinding && last && run > kMaxShownPerCode)
                ctx.out << "  ... and " << (run - kMaxShownPerCode) << " more " << last->code << " findings like these ("
                        << Finding::severityName(last->severity) << "; --all-findings prints every one, --json lists them all)\n";
            run = 0;
        };
        const Finding *previous = nullptr;
        for (const qsizetype i : it.value()) {
            const Finding &f = findings.at(i);
            if (previous && (previous->code != f.code || previous->severity != f.severity))
                flush(previous);
            previous = &f;
            if (++run <= kMaxShownPerCode || everyFinding)
                printFinding(ctx.out, f);
        }
        if (!everyFinding)
            flush(previous);
        ctx.out << '\n';
    }
    if (checked.size() > 1)
        printFleetSummary(ctx.out, findings, coverage);
    const QJsonObject summary = summaryOf(findings);
    const auto count = [&summary](const char *severity, const char *one, const char *many) {
        const int n = summary.value(QLatin1String(severity)).toInt();
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    ctx.out << "Checked " << checked.size() << (checked.size() == 1 ? " account" : " accounts")
            << (checked.isEmpty() ? QString() : QStringLiteral(" (") + namesText(checked) + QLatin1Char(')')) << ": "
            << count("critical", "critical", "critical") << ", " << count("error", "error", "errors") << ", "
            << count("warning", "warning", "warnings") << ", " << count("info", "info", "info") << ".\n";
    printProbes(ctx.out, probes);
    if (findings.isEmpty()) {
        if (!probesComplete)
            ctx.out << "No problem found in the streams, but MQTT delivery was not verified (above).\n";
        else if (verdictOpen)
            ctx.out << "No problem found in what could be checked; what could not is listed at the top.\n";
        else if (!unanswered.isEmpty())
            ctx.out << "No problem found in what answered.\n";
        else
            ctx.out << "No problem found.\n";
    }
    for (const CoverageGap &g : input->gaps)
        if (!g.leavesVerdictOpen())
            ctx.out << "Note: " << sentence(g.text()) << '\n';
    if (input->previousSamples.isEmpty())
        ctx.out << "Note: " << kTwoSampleNote << '\n';
    ctx.printUnansweredServers();
    return rc;
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
                                .arg(kMaxShownPerCode)),
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
    return {check};
}

} // namespace MqttDoctor::Cli
