#include "repairsession.h"

#include <QJsonArray>

#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "nats/connectionset.h"
#include "repair/repairplanner.h"

namespace MqttDoctor {

namespace {

QSet<QString> identities(const QList<Finding> &findings)
{
    QSet<QString> out;
    for (const Finding &f : findings)
        out.insert(f.identity());
    return out;
}

/** "STREAM_MISSING, ORPHAN_CONSUMER ×4": the codes of `findings`, each once with its count. */
QString codeList(const QList<Finding> &findings)
{
    QStringList order;
    QHash<QString, int> counts;
    for (const Finding &f : findings)
        if (counts[f.code]++ == 0)
            order << f.code;
    QStringList parts;
    for (const QString &code : std::as_const(order))
        parts << (counts.value(code) > 1 ? QStringLiteral("%1 ×%2").arg(code).arg(counts.value(code)) : code);
    return parts.join(QStringLiteral(", "));
}

/** Step ids "1", "2", ... of a new round run on after the earlier rounds' steps: ids stay unique in the run. */
void renumber(RepairPlan &plan, int offset)
{
    if (offset <= 0)
        return;
    const auto shift = [offset](const QString &id) {
        bool ok = false;
        const int n = id.toInt(&ok);
        return ok ? QString::number(n + offset) : id;
    };
    for (RepairStep &s : plan.steps) {
        s.id = shift(s.id);
        for (QString &d : s.dependsOn)
            d = shift(d);
    }
}

} // namespace

RepairSession::RepairSession(ConnectionSet &connections, Options options)
    : m_connections(connections), m_options(std::move(options)), m_account(m_options.account)
{
    if (m_options.maxRounds < 1)
        m_options.maxRounds = 1;
}

RepairSession::~RepairSession() = default;

QString RepairSession::stopName(Stop stop)
{
    switch (stop) {
    case Stop::None: return QStringLiteral("none");
    case Stop::NothingRepairable: return QStringLiteral("nothing_repairable");
    case Stop::Unresolved: return QStringLiteral("unresolved");
    case Stop::NothingFixed: return QStringLiteral("nothing_fixed");
    case Stop::RoundLimit: return QStringLiteral("round_limit");
    case Stop::Declined: return QStringLiteral("declined");
    case Stop::StepFailed: return QStringLiteral("step_failed");
    case Stop::Cancelled: return QStringLiteral("cancelled");
    case Stop::CheckFailed: return QStringLiteral("check_failed");
    case Stop::NothingToDo: return QStringLiteral("nothing_to_do");
    case Stop::DryRun: return QStringLiteral("dry_run");
    }
    return QStringLiteral("none");
}

bool RepairSession::inScope(const Finding &finding) const
{
    // A state that may be deliberate is repaired only when the operator names its code.
    if (m_options.onlyCodes.isEmpty())
        return !FindingCatalogue::repairOnlyWhenSelected(finding.code);
    return m_options.onlyCodes.contains(finding.code);
}

QList<Finding> RepairSession::accountFindings(const DiagnosisInput &input) const
{
    QList<Finding> out;
    // The servers' version advisories are about the releases they run, not the account's state: neither
    // fixed nor remaining by a repair (check reports them).
    for (const Finding &f : Checks::diagnose(input))
        if ((f.account.isEmpty() || f.account == m_account) && f.code != FindingCodes::serverVersionAdvisory())
            out << f;
    return out;
}

Result<void> RepairSession::check()
{
    m_rounds.clear();
    m_pending = {};
    m_seen.clear();
    m_dryRun.reset();
    m_stop = Stop::None;
    m_stopText.clear();
    m_blocked.reset();
    m_target.reset();

    // Where changes would go: only the account's own connection may change its streams.
    if (auto target = RepairTarget::resolve(m_connections, m_options.account)) {
        m_target = *target;
        if (auto writable = m_target->checkWritable(QStringLiteral("repair")); !writable)
            m_blocked = writable.error();
    } else {
        m_blocked = target.error();
    }
    DiagnosisGatherer::Request request;
    request.account = m_options.account.isEmpty() && m_target ? m_target->account : m_options.account;
    request.options = m_options.checkOptions;
    auto input = DiagnosisGatherer::gather(m_connections, request);
    if (!input)
        return input.error();
    m_account = request.account.isEmpty() && !input->accounts.isEmpty() ? input->accounts.first().name : request.account;
    m_input = std::move(*input);
    m_findings = accountFindings(m_input);
    return {};
}

RepairPlan RepairSession::planFrom(const DiagnosisInput &input, const QList<Finding> &findings, int firstStepId) const
{
    RepairPlanner::Options options;
    options.account = m_account;
    options.onlyCodes = m_options.onlyCodes;
    options.apiDomain = m_target ? m_target->apiDomain : m_connections.profile().jsDomain;
    RepairPlan plan = RepairPlanner::plan(input, findings, options);
    renumber(plan, firstStepId - 1);
    return plan;
}

void RepairSession::planFirstRound(const QList<Finding> &selected)
{
    if (!m_rounds.isEmpty())
        return; // the first round ran: later rounds are planned by the run itself
    m_stop = Stop::None;
    m_stopText.clear();
    m_pending = planFrom(m_input, selected, 1);
    if (m_pending.steps.isEmpty())
        stop(Stop::NothingToDo,
             selected.isEmpty() ? QStringLiteral("nothing to repair: no finding was selected")
                                : QStringLiteral("nothing to repair: no selected finding has an automatic repair"));
}

void RepairSession::planFirstRound()
{
    // Every finding in scope: a state that may be deliberate only when its code was named.
    QList<Finding> inScopeFindings;
    for (const Finding &f : std::as_const(m_findings))
        if (inScope(f))
            inScopeFindings << f;
    planFirstRound(inScopeFindings);
}

void RepairSession::stop(Stop reason, const QString &text)
{
    m_stop = reason;
    m_stopText = text;
}

void RepairSession::decline()
{
    if (m_stop != Stop::None)
        return;
    stop(Stop::Declined,
         m_rounds.isEmpty() ? QStringLiteral("the plan was not approved; nothing was changed")
                            : QStringLiteral("round %1 was not approved; its steps did not run").arg(pendingRound()));
}

Result<RepairExecutor::Report> RepairSession::dryRun(const EventHandler &events)
{
    if (!m_target)
        return m_blocked.value_or(Error(Error::Kind::InvalidInput, QStringLiteral("no connection to change account %1").arg(m_account)));
    RepairExecutor::Options options;
    options.dryRun = true;
    options.round = pendingRound();
    options.events = events;
    options.cancel = m_options.cancel;
    auto report = RepairExecutor::run(*m_target, m_pending, options);
    if (!report)
        return report.error();
    m_dryRun = *report;
    stop(Stop::DryRun, QStringLiteral("dry run: nothing was changed"));
    return *report;
}

Result<void> RepairSession::runRound(const EventHandler &events)
{
    if (!hasPendingRound())
        return Error(Error::Kind::InvalidInput, QStringLiteral("no repair round is pending"));
    if (m_blocked)
        return *m_blocked;
    RepairRound round;
    round.number = pendingRound();
    round.plan = m_pending;
    const auto emitRound = [&events, &round](RepairEvent::Kind kind, const QString &text) {
        if (!events)
            return;
        RepairEvent e;
        e.kind = kind;
        e.round = round.number;
        e.steps = int(round.plan.steps.size());
        e.text = text;
        events(e);
    };
    emitRound(RepairEvent::Kind::RoundStarted, QStringLiteral("round %1: %2 steps").arg(round.number).arg(round.plan.steps.size()));

    RepairExecutor::Options options;
    options.backupDir = m_options.backupDir;
    options.auditPath = m_options.auditPath;
    options.cancel = m_options.cancel;
    options.beforeApply = m_options.beforeApply;
    options.events = events;
    options.round = round.number;
    auto report = RepairExecutor::run(*m_target, round.plan, options);
    if (!report)
        return report.error(); // refused before anything ran
    round.report = *report;
    m_pending = {};
    // What the account showed before this round: a finding not among these was made visible by it.
    m_seen.unite(identities(m_rounds.isEmpty() ? m_findings : m_rounds.last().after));

    if (!round.report.complete) {
        const bool cancelled = m_options.cancel && m_options.cancel->load();
        stop(cancelled ? Stop::Cancelled : Stop::StepFailed, round.report.stoppedBecause);
    }

    // docs/safety.md, "\"Clean\" means a client sees a working service": check again and say what is fixed and what
    // remains, also after a failed step.
    DiagnosisGatherer::Request request;
    request.account = m_account;
    request.options = m_options.checkOptions;
    auto after = DiagnosisGatherer::gather(m_connections, request);
    if (after) {
        round.checked = true;
        round.after = accountFindings(*after);
        round.gaps = after->gaps;
        const QSet<QString> now = identities(round.after);
        for (const Finding &f : std::as_const(round.plan.findings))
            if (!now.contains(f.identity()))
                round.fixed << f;
    } else {
        round.recheckError = after.error();
    }
    m_rounds.append(round);

    if (m_stop == Stop::None) {
        if (!after)
            stop(Stop::CheckFailed,
                 QStringLiteral("could not check the account again after round %1: %2").arg(round.number).arg(after.error().toString()));
        else
            decideNextRound(m_rounds.last(), *after);
    }
    emitRound(RepairEvent::Kind::RoundFinished,
              QStringLiteral("round %1: %2 fixed").arg(round.number).arg(round.fixed.size())
                  + (hasPendingRound() ? QStringLiteral("; round %1 planned (%2 steps)").arg(pendingRound()).arg(m_pending.steps.size())
                                       : QString()));
    // The last word is a real MQTT client's, where the profile says how to be one (docs/safety.md, "\"Clean\" means a
    // client sees a working service").
    if (m_stop != Stop::None && m_stop != Stop::Cancelled && after) {
        auto probe = MqttProbe::requestFor(m_connections.profile(), m_account, after->servers);
        if (probe) {
            emitRound(RepairEvent::Kind::RoundFinished,
                      QStringLiteral("probing MQTT delivery through %1:%2").arg(probe->host).arg(probe->port));
            m_probe = MqttProbe::run(*probe);
        } else if (probe.error().kind() != Error::Kind::NotFound) {
            m_probe = MqttProbeResult::notRun(m_account, probe.error().toString());
        }
    }
    if (m_stop != Stop::None)
        emitRound(RepairEvent::Kind::Done, m_stopText);
    return {};
}

void RepairSession::decideNextRound(const RepairRound &round, const DiagnosisInput &after)
{
    QList<Finding> repairable;
    QList<Finding> fresh;
    for (const Finding &f : round.after) {
        if (f.repair.isEmpty() || !inScope(f))
            continue;
        repairable << f;
        if (!m_seen.contains(f.identity()))
            fresh << f;
    }
    if (repairable.isEmpty()) {
        stop(Stop::NothingRepairable, QStringLiteral("nothing repairable remains"));
        return;
    }
    if (round.fixed.isEmpty()) {
        stop(Stop::NothingFixed,
             QStringLiteral("round %1 fixed nothing; still repairable: %2").arg(round.number).arg(codeList(repairable)));
        return;
    }
    if (fresh.isEmpty()) {
        stop(Stop::Unresolved, QStringLiteral("the steps ran but these findings remain: %1").arg(codeList(repairable)));
        return;
    }
    if (round.number >= m_options.maxRounds) {
        stop(Stop::RoundLimit,
             QStringLiteral("stopped after %1 rounds; still repairable: %2 (run repair again to continue)")
                 .arg(round.number)
                 .arg(codeList(repairable)));
        return;
    }
    int stepsSoFar = 0;
    for (const RepairRound &r : std::as_const(m_rounds))
        stepsSoFar += int(r.plan.steps.size());
    m_input = after;
    m_pending = planFrom(m_input, fresh, stepsSoFar + 1);
    if (m_pending.steps.isEmpty())
        stop(Stop::Unresolved,
             QStringLiteral("round %1 uncovered %2, but no step could be planned for them%3")
                 .arg(round.number)
                 .arg(codeList(fresh), m_pending.notes.isEmpty() ? QString() : QStringLiteral(": ") + m_pending.notes.join(u' ')));
}

RepairPlan RepairSession::wholePlan() const
{
    RepairPlan whole;
    whole.account = m_account;
    whole.findings = m_findings;
    QSet<QString> unrepairable;
    const auto add = [&](const RepairPlan &plan) {
        whole.steps += plan.steps;
        for (const Finding &f : plan.unrepairable)
            if (!unrepairable.contains(f.identity())) {
                unrepairable.insert(f.identity());
                whole.unrepairable << f;
            }
        for (const QString &n : plan.notes)
            if (!whole.notes.contains(n))
                whole.notes << n;
    };
    for (const RepairRound &r : m_rounds)
        add(r.plan);
    add(m_pending);
    return whole;
}

RepairExecutor::Report RepairSession::wholeReport() const
{
    if (m_dryRun)
        return *m_dryRun;
    RepairExecutor::Report whole;
    whole.complete = !m_rounds.isEmpty();
    for (const RepairRound &r : m_rounds) {
        whole.outcomes += r.report.outcomes;
        whole.backups += r.report.backups;
        whole.complete = whole.complete && r.report.complete;
        if (whole.stoppedBecause.isEmpty())
            whole.stoppedBecause = r.report.stoppedBecause;
    }
    return whole;
}

QList<Finding> RepairSession::fixed() const
{
    const QSet<QString> now = identities(remaining());
    QSet<QString> listed;
    QList<Finding> out;
    for (const RepairRound &r : m_rounds)
        for (const Finding &f : r.fixed)
            if (!now.contains(f.identity()) && !listed.contains(f.identity())) {
                listed.insert(f.identity());
                out << f;
            }
    return out;
}

bool RepairSession::lastCheckSucceeded() const
{
    return m_rounds.isEmpty() || m_rounds.last().checked;
}

const QList<Finding> &RepairSession::lastFindings() const
{
    for (auto it = m_rounds.crbegin(); it != m_rounds.crend(); ++it)
        if (it->checked)
            return it->after;
    return m_findings;
}

QList<Finding> RepairSession::remaining() const
{
    QList<Finding> out;
    for (const Finding &f : lastFindings())
        if (inScope(f))
            out << f;
    return out;
}

QList<Finding> RepairSession::notSelected() const
{
    QList<Finding> out;
    for (const Finding &f : lastFindings())
        if (!inScope(f))
            out << f;
    return out;
}

QList<CoverageGap> RepairSession::remainingGaps() const
{
    for (auto it = m_rounds.crbegin(); it != m_rounds.crend(); ++it)
        if (it->checked)
            return it->gaps;
    return m_input.gaps;
}

int RepairSession::exitCode() const
{
    constexpr int kWarnings = 1, kErrors = 2, kIncomplete = 3;
    if (m_dryRun) {
        for (const StepOutcome &o : m_dryRun->outcomes)
            if (o.state == StepOutcome::State::NotRun)
                return kWarnings; // something would change
        return 0;
    }
    if (m_stop == Stop::Declined && m_rounds.isEmpty())
        return kWarnings;
    if (m_stop == Stop::StepFailed || m_stop == Stop::Cancelled || !lastCheckSucceeded())
        return kErrors;
    if (m_probe && m_probe->verdict == MqttProbeResult::Verdict::Failed)
        return kErrors;
    const int rc = Checks::exitCodeFor(remaining());
    if (rc != kErrors && (CoverageGap::anyLeavesVerdictOpen(remainingGaps()) || (m_probe && !m_probe->verified())))
        return kIncomplete;
    return rc;
}

QJsonObject RepairSession::toJson() const
{
    QJsonArray rounds;
    for (const RepairRound &r : m_rounds)
        rounds.append(r.toJson());
    QJsonArray gaps;
    for (const CoverageGap &g : remainingGaps())
        gaps.append(g.toJson());
    const bool ran = m_dryRun.has_value() || !m_rounds.isEmpty();
    const RepairExecutor::Report report = wholeReport();
    return QJsonObject{
        {QStringLiteral("plan"), wholePlan().toJson()},
        {QStringLiteral("applied"), ran ? QJsonValue(report.toJson()) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("backups"), QJsonArray::fromStringList(m_dryRun ? QStringList() : report.backups)},
        {QStringLiteral("fixed"), RepairRound::findingsJson(fixed())},
        {QStringLiteral("remaining"), RepairRound::findingsJson(remaining())},
        {QStringLiteral("not_selected"), RepairRound::findingsJson(notSelected())},
        {QStringLiteral("not_checked"), gaps},
        {QStringLiteral("rounds"), rounds},
        {QStringLiteral("stop"), QJsonObject{{QStringLiteral("reason"), stopName(m_stop)}, {QStringLiteral("text"), m_stopText}}},
        {QStringLiteral("dry_run"), m_dryRun.has_value()},
        {QStringLiteral("probe"), m_probe ? QJsonValue(m_probe->toJson()) : QJsonValue(QJsonValue::Null)}};
}

} // namespace MqttDoctor
