#include "checkreport.h"

#include "common/duration.h"

#include <algorithm>
#include <optional>

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include "clicontext.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/accountcoverage.h"
#include "diagnosis/checks.h"
#include "diagnosis/findinglist.h"
#include "jsoncontract.h"
#include "mqtt/layouts.h"
#include "probetext.h"
#include "terminalprogress.h"

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

/** `firstSeen`: the history's, when the check was recorded (`checkedAt`: this check's time). */
void printFinding(QTextStream &out, const Finding &f, const QHash<QString, QDateTime> &firstSeen = {}, const QDateTime &checkedAt = {})
{
    out << "  " << Finding::severityName(f.severity).toUpper().leftJustified(9) << f.code << "  " << f.title << '\n';
    const QString pad(11, QLatin1Char(' '));
    if (!firstSeen.isEmpty())
        if (const auto it = firstSeen.constFind(f.identity()); it != firstSeen.cend()) {
            if (*it >= checkedAt)
                out << pad << "since:    this check (new since the last recorded check)\n";
            else
                out << pad << "since:    " << it->toUTC().toString(Qt::ISODate) << " (open for " << formatAge(it->secsTo(checkedAt))
                    << ", first seen by a recorded check)\n";
        }
    if (!f.detail.isEmpty())
        out << pad << f.detail << '\n';
    if (!f.expected.isUndefined() || !f.actual.isUndefined())
        out << pad << "expected: " << evidenceText(f.expected) << '\n' << pad << "actual:   " << evidenceText(f.actual) << '\n';
    for (const QString &e : f.explains)
        out << pad << "explains: " << e << '\n';
    out << pad << "repair:   " << (f.repair.isEmpty() ? QStringLiteral("none (see the detail)") : f.repair) << '\n';
}

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
} // namespace

CheckReport::CheckReport(const DiagnosisInput &input, bool streamed, QJsonArray unansweredServers)
    : m_input(input), m_unanswered(std::move(unansweredServers))
{
    m_findings = streamed ? MissingConsumerFindings::diagnoseApart(input, m_apart) : Checks::diagnose(input);
    m_exitCode = Checks::exitCodeFor(m_findings);
    for (const MissingConsumerFindings &m : std::as_const(m_apart))
        m_exitCode = std::max(m_exitCode, Checks::exitCodeFor({m.at(0)}));
    // A server that did not answer, or a level of an account that could not be read, was not looked
    // at: never "no problem" (or only warnings) then.
    m_verdictOpen = CoverageGap::anyLeavesVerdictOpen(input.gaps);
    if ((!m_unanswered.isEmpty() || m_verdictOpen) && m_exitCode != ExitErrors)
        m_exitCode = ExitCouldNotCheck;
    for (const AccountInfo &a : input.accounts) {
        if (a.isSystem && !input.includeSystemAccount)
            continue;
        m_checked << a.name;
    }
}

void CheckReport::probe(const Profile &profile, TerminalProgress &progress)
{
    if (progress.isShown())
        progress.update(QStringLiteral("Probing MQTT delivery"));
    m_probes = MqttProbe::probeAccounts(profile, m_input.servers, m_checked, m_checked.size() > 1);
    m_probed = true;
    progress.clear();
    const int probeRc = probesExitCode(m_probes);
    if (probeRc == ExitErrors || (probeRc == ExitCouldNotCheck && m_exitCode != ExitErrors))
        m_exitCode = probeRc;
}

bool CheckReport::probesComplete() const
{
    return probesExitCode(m_probes) == ExitOk;
}

void CheckReport::setFirstSeen(QHash<QString, QDateTime> firstSeen, QDateTime checkedAt)
{
    m_firstSeen = std::move(firstSeen);
    m_checkedAt = std::move(checkedAt);
}

void CheckReport::writeJson(QTextStream &out, const LayoutOptions &layout) const
{
    // Written as it is produced: tens of thousands of findings need not exist twice (tree and text).
    JsonStreamWriter w(out);
    w.beginObject();
    w.string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("check")));
    w.value(QStringLiteral("accounts"), QJsonArray::fromStringList(m_checked));
    w.beginArray(QStringLiteral("coverage"));
    for (const AccountCoverage &c : AccountCoverage::of(m_input)) {
        QJsonObject o = c.toJson();
        o.insert(QStringLiteral("account"), c.account);
        w.value({}, o);
    }
    w.endArray();
    w.value(QStringLiteral("coverage_complete"), !m_verdictOpen && m_unanswered.isEmpty() && probesComplete());
    w.beginArray(QStringLiteral("findings"));
    FindingList(m_findings, m_apart).writeJson(w);
    w.endArray();
    writeLayouts(w, layout);
    QJsonArray notChecked;
    for (const CoverageGap &g : m_input.gaps)
        notChecked.append(g.toJson());
    w.value(QStringLiteral("not_checked"), notChecked);
    w.value(QStringLiteral("notes"), QJsonArray::fromStringList(CoverageGap::texts(m_input.gaps)));
    if (m_probed) {
        QJsonArray p;
        for (const MqttProbeResult &r : m_probes)
            p.append(r.toJson());
        w.value(QStringLiteral("probes"), p);
    }
    QStringList recordsChecked = m_input.sessions.keys(); // a hash's order: sorted, so that two runs print the same
    recordsChecked.sort();
    w.value(QStringLiteral("records_checked"), QJsonArray::fromStringList(recordsChecked));
    w.value(QStringLiteral("summary"), summaryOf(m_findings, m_apart));
    w.value(QStringLiteral("two_sample_checks"), twoSampleJson(m_input));
    w.value(QStringLiteral("unanswered_servers"), m_unanswered);
    w.endObject();
    w.finish();
}

void CheckReport::writeLayouts(JsonStreamWriter &w, const LayoutOptions &layout) const
{
    QMap<QString, const AccountInfo *> withJetStream; // sorted, as the keys of a JSON object
    for (const AccountInfo &a : m_input.accounts) {
        if (a.isSystem && !m_input.includeSystemAccount)
            continue;
        if (a.jetstream)
            withJetStream.insert(a.name, &a);
    }
    // One layout per account: made as it is written (ten thousand accounts' layouts are tens of MiB).
    w.beginObject(QStringLiteral("layouts"));
    // Most accounts of a fleet share one layout: its JSON is made once per run of equal ones.
    std::optional<LayoutChoice> last;
    QJsonObject lastJson;
    for (auto it = withJetStream.cbegin(); it != withJetStream.cend(); ++it) {
        const LayoutChoice choice = Layouts::choose(m_input.servers, layout, (*it)->streams);
        if (!last || !(choice == *last)) {
            lastJson = choice.toJson();
            last = choice;
        }
        w.value(it.key(), lastJson);
    }
    w.endObject();
}

void CheckReport::writeText(CliContext &ctx, bool everyFinding) const
{
    printNotChecked(ctx.out);
    printFindingsByAccount(ctx.out, everyFinding);
    if (m_checked.size() > 1)
        printFleetSummary(ctx.out, m_findings, AccountCoverage::of(m_input));
    printVerdict(ctx.out);
    ctx.printUnansweredServers();
}

void CheckReport::printNotChecked(QTextStream &out) const
{
    // What was not looked at comes first: the findings below do not cover it.
    if (!m_verdictOpen)
        return;
    out << "Not checked (the findings below do not cover it):\n";
    for (const CoverageGap &g : m_input.gaps)
        if (g.leavesVerdictOpen())
            out << "  " << sentence(g.text()) << '\n';
    out << '\n';
}

void CheckReport::printFindingsByAccount(QTextStream &out, bool everyFinding) const
{
    // Grouped by account (cluster-wide findings first), most severe first within each group. A code found
    // many times in one account (a finding per session) is shown kMaxShownPerCode times, then counted:
    // a hundred thousand alike findings are one line to read, --all-findings (or --json) lists them all.
    QMap<QString, QList<qsizetype>> byAccount;
    for (qsizetype i = 0; i < m_findings.size(); ++i)
        byAccount[m_findings.at(i).account].append(i);
    for (auto it = byAccount.cbegin(); it != byAccount.cend(); ++it) {
        out << (it.key().isEmpty() ? QStringLiteral("Cluster") : QStringLiteral("Account ") + it.key()) << '\n';
        qsizetype run = 0; // findings of the current code and severity so far
        const auto flush = [&](const Finding *last) {
            if (!everyFinding && last && run > kMaxShownPerCode)
                out << "  ... and " << (run - kMaxShownPerCode) << " more " << last->code << " findings like these ("
                    << Finding::severityName(last->severity) << "; --all-findings prints every one, --json lists them all)\n";
            run = 0;
        };
        const Finding *previous = nullptr;
        for (const qsizetype i : it.value()) {
            const Finding &f = m_findings.at(i);
            if (previous && (previous->code != f.code || previous->severity != f.severity))
                flush(previous);
            previous = &f;
            if (++run <= kMaxShownPerCode || everyFinding)
                printFinding(out, f, m_firstSeen, m_checkedAt);
        }
        if (!everyFinding)
            flush(previous);
        out << '\n';
    }
}

void CheckReport::printVerdict(QTextStream &out) const
{
    const QJsonObject summary = summaryOf(m_findings);
    const auto count = [&summary](const char *severity, const char *one, const char *many) {
        const int n = summary.value(QLatin1String(severity)).toInt();
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    out << "Checked " << m_checked.size() << (m_checked.size() == 1 ? " account" : " accounts")
        << (m_checked.isEmpty() ? QString() : QStringLiteral(" (") + namesText(m_checked) + QLatin1Char(')')) << ": "
        << count("critical", "critical", "critical") << ", " << count("error", "error", "errors") << ", "
        << count("warning", "warning", "warnings") << ", " << count("info", "info", "info") << ".\n";
    printProbes(out, m_probes);
    if (m_findings.isEmpty()) {
        if (!probesComplete())
            out << "No problem found in the streams, but MQTT delivery was not verified (above).\n";
        else if (m_verdictOpen)
            out << "No problem found in what could be checked; what could not is listed at the top.\n";
        else if (!m_unanswered.isEmpty())
            out << "No problem found in what answered.\n";
        else
            out << "No problem found.\n";
    }
    for (const CoverageGap &g : m_input.gaps)
        if (!g.leavesVerdictOpen())
            out << "Note: " << sentence(g.text()) << '\n';
    if (m_input.previousSamples.isEmpty())
        out << "Note: " << kTwoSampleNote << '\n';
}

} // namespace MqttDoctor::Cli
