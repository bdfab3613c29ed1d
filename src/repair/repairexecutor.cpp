#include "repairexecutor.h"

#include <optional>

#include <QRegularExpression>
#include <QSet>

#include "nats/jserrors.h"
#include "repair/auditlog.h"
#include "repair/backupfile.h"
#include "repair/privatefiles.h"
#include "repair/repairaction.h"
#include "repair/streambackup.h"

namespace MqttDoctor::RepairExecutor {

namespace {

using State = StepOutcome::State;

/** A file name part from a stream or subject: `$MQTT_sess` → `MQTT_sess`, `$MQTT.sess.ab` → `MQTT.sess.ab`. */
QString safePart(const QString &text)
{
    QString s = text;
    s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    while (s.startsWith(u'_'))
        s.remove(0, 1);
    return s.left(80);
}

QJsonArray auditRequests(const RepairStep &step)
{
    QJsonArray out;
    for (const RepairRequest &r : step.requests)
        out.append(AuditLog::request(r.subject, r.body));
    return out;
}

void audit(const Options &options, const RepairTarget &target, const RepairStep &step, const QString &outcome, const QString &error,
           const StepOutcome &result)
{
    AuditEntry e;
    e.profile = target.profile.name;
    e.account = target.account.isEmpty() ? step.account : target.account;
    e.action = step.action;
    e.stream = step.stream;
    e.requests = auditRequests(step);
    e.outcome = outcome;
    e.error = error;
    e.details = QJsonObject{{QStringLiteral("step"), step.id},
                            {QStringLiteral("finding"), step.findingCode},
                            {QStringLiteral("description"), step.description},
                            {QStringLiteral("backups"), QJsonArray::fromStringList(result.backupFiles)}};
    if (options.round > 0)
        e.details.insert(QStringLiteral("round"), options.round);
    const AuditLog log(options.auditPath.isEmpty() ? AuditLog::defaultPath() : options.auditPath);
    (void)log.append(e, target.profile); // an audit failure must not hide the step's own outcome
}

QString restoreHint(const QStringList &files, bool applied)
{
    if (files.isEmpty())
        return {};
    QStringList cmds;
    for (const QString &f : files)
        cmds << QStringLiteral("nats-mqtt-doctor-cli restore %1 --allow-changes").arg(f);
    if (applied)
        return QStringLiteral(" To put back what this step changed: %1.").arg(cmds.join(QStringLiteral("; ")));
    // A step can fail before it changes anything (a read of a stream whose servers are down): say "if".
    return QStringLiteral(" If it changed anything before it failed, put that back with: %1.").arg(cmds.join(QStringLiteral("; ")));
}

void emitEvent(const Options &options, RepairEvent::Kind kind, const RepairStep &step, const StepOutcome *outcome = nullptr,
               const QString &backupFile = {})
{
    if (!options.events)
        return;
    RepairEvent e;
    e.kind = kind;
    e.round = options.round;
    e.step = step;
    if (outcome)
        e.outcome = *outcome;
    e.backupFile = backupFile;
    options.events(e);
}

/** Why the plan may not run at all (checked before any step; a dry run changes nothing, so never); nullopt: it may. */
std::optional<Error> refusal(const RepairTarget &target, const RepairPlan &plan, const Options &options)
{
    if (options.dryRun)
        return std::nullopt;
    if (auto writable = target.checkWritable(QStringLiteral("repair")); !writable)
        return writable.error();
    if (plan.hasDestructiveSteps() && options.backupDir.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("the plan deletes or overwrites data and no backup folder was given"),
                     QStringLiteral("give --backup-dir DIR"));
    if (!options.backupDir.isEmpty() && !PrivateFiles::makePath(options.backupDir))
        return Error(Error::Kind::InvalidInput, QStringLiteral("cannot create the backup folder %1").arg(options.backupDir),
                     QStringLiteral("choose a writable folder with --backup-dir"));
    return std::nullopt;
}

/**
 * One run of a plan, step by step in plan order: the report as it grows, the steps applied or already
 * done (what later steps depend on), and whether a step stopped the plan. runStep() takes a step
 * through its stages (may it start, precondition, backups, apply, verify); the stage that ends it
 * finishes it (its outcome in the report, StepFinished), and a failure stops the plan with why.
 */
class PlanRun final
{
public:
    PlanRun(const RepairTarget &target, const Options &options) : m_target(target), m_options(options)
    {
        m_ctx.target = target;
        m_ctx.backupDir = options.backupDir;
        m_ctx.cancel = options.cancel;
    }

    void runStep(const RepairStep &step)
    {
        StepOutcome o;
        o.stepId = step.id;
        const RepairAction *action = startingAction(step, o);
        if (!action)
            return;
        emitEvent(m_options, RepairEvent::Kind::StepStarted, step);
        const std::optional<Precondition> pre = precondition(step, *action, o);
        if (!pre)
            return;
        if (m_options.dryRun) {
            m_done.insert(step.id);
            finish(step, o, State::NotRun, QStringLiteral("dry run: would run"));
            return;
        }
        if (backUp(step, *action, o) && apply(step, *action, o))
            verify(step, *action, o, pre->reason);
    }

    /** The report: complete when no step stopped the plan and each was applied or already done (or, in a dry run, would run). */
    Report report() &&
    {
        m_report.complete = !m_stopped;
        for (const StepOutcome &o : std::as_const(m_report.outcomes))
            if (o.state == State::Failed || o.state == State::Skipped || (o.state == State::NotRun && !m_options.dryRun))
                m_report.complete = false;
        return std::move(m_report);
    }

private:
    void finish(const RepairStep &step, StepOutcome &o, State state, const QString &message)
    {
        o.state = state;
        o.message = message;
        m_report.outcomes.append(o);
        emitEvent(m_options, RepairEvent::Kind::StepFinished, step, &o);
    }

    void stop(const QString &because)
    {
        m_stopped = true;
        m_report.stoppedBecause = because;
    }

    /** The step's action when the step may start; else null, the step finished (stopped, cancelled, missing a step, unknown). */
    const RepairAction *startingAction(const RepairStep &step, StepOutcome &o)
    {
        if (m_stopped) {
            finish(step, o, State::NotRun, QStringLiteral("not run: an earlier step stopped the plan"));
            return nullptr;
        }
        if (m_options.cancel && m_options.cancel->load()) {
            stop(QStringLiteral("cancelled before step %1; nothing of it was changed").arg(step.id));
            finish(step, o, State::NotRun, QStringLiteral("cancelled"));
            return nullptr;
        }
        QStringList missingDeps;
        for (const QString &d : step.dependsOn)
            if (!m_done.contains(d))
                missingDeps << d;
        if (!missingDeps.isEmpty()) {
            finish(step, o, State::Skipped, QStringLiteral("skipped: needs step %1 first").arg(missingDeps.join(QStringLiteral(", "))));
            return nullptr;
        }
        const RepairAction *action = RepairActionRegistry::find(step.action);
        if (!action) {
            stop(QStringLiteral("step %1: unknown action %2").arg(step.id, step.action));
            finish(step, o, State::Failed, m_report.stoppedBecause);
        }
        return action;
    }

    /** The precondition when the step is to run; else nullopt, the step finished (already done, or it failed). */
    std::optional<Precondition> precondition(const RepairStep &step, const RepairAction &action, StepOutcome &o)
    {
        auto pre = action.precondition(step, m_ctx);
        if (!pre) {
            stop(QStringLiteral("step %1 (%2): could not check its precondition, nothing of it was changed: %3")
                     .arg(step.id, step.description, pre.error().toString()));
            finish(step, o, State::Failed, pre.error().toString());
            return std::nullopt;
        }
        if (pre->verdict == Precondition::Verdict::AlreadyDone) {
            m_done.insert(step.id);
            finish(step, o, State::AlreadyDone, pre->reason);
            return std::nullopt;
        }
        if (pre->verdict == Precondition::Verdict::Changed) {
            stop(QStringLiteral("step %1 (%2): the state changed since the plan was made (%3); nothing of it was "
                                "changed. Run check and plan again.")
                     .arg(step.id, step.description, pre->reason));
            finish(step, o, State::Failed, pre->reason);
            return std::nullopt;
        }
        return *pre;
    }

    /**
     * docs/safety.md, "Nothing is lost": every destructive step is backed up first, or it does not run.
     * True when every backup was written; else the step finished (a backup failed, or the step is done).
     */
    bool backUp(const RepairStep &step, const RepairAction &action, StepOutcome &o)
    {
        for (int i = 0; i < step.backups.size(); ++i) {
            const RepairBackupSpec &spec = step.backups.at(i);
            BackupRequest req;
            req.stream = spec.stream;
            req.subject = spec.subject;
            req.includeMessages = spec.includeMessages;
            req.allConsumers = spec.allConsumers;
            req.consumers = spec.consumers;
            req.outputPath = backupPath(m_options.backupDir, step, spec, i);
            BackupOptions bo;
            bo.cancel = m_options.cancel;
            auto written = StreamBackup::run(m_target, req, bo);
            if (!written && written.error().jsErrCode() == JsErrors::StreamNotFound) {
                // The stream went between the precondition and its backup (the server's own migration removes
                // legacy streams, for one): if the step is now done, it is done; otherwise the failure stands.
                auto again = action.precondition(step, m_ctx);
                if (again && again->verdict == Precondition::Verdict::AlreadyDone) {
                    m_done.insert(step.id);
                    finish(step, o, State::AlreadyDone, again->reason);
                    return false;
                }
            }
            if (!written) {
                stop(QStringLiteral("step %1 (%2): its backup of %3 failed, so nothing of it was changed: %4")
                         .arg(step.id, step.description, spec.stream, written.error().toString()));
                audit(m_options, m_target, step, QStringLiteral("error"), m_report.stoppedBecause, o);
                finish(step, o, State::Failed, written.error().toString());
                return false;
            }
            o.backupFiles << written->path;
            m_report.backups << written->path;
            emitEvent(m_options, RepairEvent::Kind::BackupWritten, step, nullptr, written->path);
        }
        return true;
    }

    /** True when the step's changes were made; else the step failed and finished. */
    bool apply(const RepairStep &step, const RepairAction &action, StepOutcome &o)
    {
        if (m_options.beforeApply)
            m_options.beforeApply(step, o.backupFiles);
        auto replies = action.apply(step, m_ctx);
        if (!replies) {
            stop(QStringLiteral("step %1 (%2) failed: %3.%4 A rerun continues where this stopped.")
                     .arg(step.id, step.description, replies.error().toString(), restoreHint(o.backupFiles, false)));
            audit(m_options, m_target, step, QStringLiteral("error"), replies.error().toString(), o);
            finish(step, o, State::Failed, replies.error().toString());
            return false;
        }
        o.responses = *replies;
        // Actions that must back up inside apply() (e.g. recreate_stream, resumable across a delete) name the file.
        for (const QJsonValue &r : std::as_const(o.responses)) {
            const QString file = r.toObject().value(QLatin1String("backup")).toString();
            if (!file.isEmpty() && !o.backupFiles.contains(file)) {
                o.backupFiles << file;
                m_report.backups << file;
                emitEvent(m_options, RepairEvent::Kind::BackupWritten, step, nullptr, file);
            }
        }
        return true;
    }

    /** Verifies the applied step, writes its audit-log entry and finishes it (`reason`: what its precondition found). */
    void verify(const RepairStep &step, const RepairAction &action, StepOutcome &o, const QString &reason)
    {
        auto verified = action.verify(step, m_ctx);
        if (!verified) {
            stop(QStringLiteral("step %1 (%2) was applied but its verification failed: %3.%4")
                     .arg(step.id, step.description, verified.error().toString(), restoreHint(o.backupFiles, true)));
            audit(m_options, m_target, step, QStringLiteral("error"), QStringLiteral("verification: ") + verified.error().toString(), o);
            finish(step, o, State::Failed, QStringLiteral("verification failed: ") + verified.error().toString());
            return;
        }
        audit(m_options, m_target, step, QStringLiteral("ok"), QString(), o);
        m_done.insert(step.id);
        finish(step, o, State::Applied,
               reason.isEmpty() ? QStringLiteral("applied and verified") : QStringLiteral("applied and verified (%1)").arg(reason));
    }

    const RepairTarget &m_target;
    const Options &m_options;
    ExecContext m_ctx;
    Report m_report;
    QSet<QString> m_done; // applied or already done (or, in a dry run, would run)
    bool m_stopped = false;
};

} // namespace

QString backupPath(const QString &dir, const RepairStep &step, const RepairBackupSpec &spec, int index)
{
    QString tail = QStringLiteral("-%1-step%2-%3-%4").arg(safePart(step.account), step.id, step.action, safePart(spec.stream));
    if (!spec.subject.isEmpty())
        tail += u'-' + safePart(spec.subject);
    if (index > 0)
        tail += QStringLiteral("-%1").arg(index);
    tail += QStringLiteral(".jsonl");
    return freshBackupPath(dir, [&tail](const QString &stamp) -> QString { return stamp + tail; });
}

QJsonObject Report::toJson() const
{
    QJsonArray out;
    for (const StepOutcome &o : outcomes)
        out.append(o.toJson());
    return QJsonObject{
        {QStringLiteral("steps"), out},
        {QStringLiteral("backups"), QJsonArray::fromStringList(backups)},
        {QStringLiteral("complete"), complete},
        {QStringLiteral("stopped_because"), stoppedBecause.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(stoppedBecause)}};
}

Result<Report> run(const RepairTarget &target, const RepairPlan &plan, const Options &options)
{
    if (auto refused = refusal(target, plan, options))
        return *refused;
    PlanRun planRun(target, options);
    for (const RepairStep &step : plan.steps)
        planRun.runStep(step);
    return std::move(planRun).report();
}

} // namespace MqttDoctor::RepairExecutor
