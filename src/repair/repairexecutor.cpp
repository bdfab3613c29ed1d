#include "repairexecutor.h"

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
    if (!options.dryRun) {
        if (auto writable = target.checkWritable(QStringLiteral("repair")); !writable)
            return writable.error();
        if (plan.hasDestructiveSteps() && options.backupDir.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("the plan deletes or overwrites data and no backup folder was given"),
                         QStringLiteral("give --backup-dir DIR"));
        if (!options.backupDir.isEmpty() && !PrivateFiles::makePath(options.backupDir))
            return Error(Error::Kind::InvalidInput, QStringLiteral("cannot create the backup folder %1").arg(options.backupDir),
                         QStringLiteral("choose a writable folder with --backup-dir"));
    }

    ExecContext ctx;
    ctx.target = target;
    ctx.backupDir = options.backupDir;
    ctx.cancel = options.cancel;

    Report report;
    QSet<QString> done; // applied or already done (or, in a dry run, would run)
    bool stopped = false;
    for (const RepairStep &step : plan.steps) {
        StepOutcome o;
        o.stepId = step.id;
        const auto finish = [&](State state, const QString &message) {
            o.state = state;
            o.message = message;
            report.outcomes.append(o);
            emitEvent(options, RepairEvent::Kind::StepFinished, step, &o);
        };
        if (stopped) {
            finish(State::NotRun, QStringLiteral("not run: an earlier step stopped the plan"));
            continue;
        }
        if (options.cancel && options.cancel->load()) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("cancelled before step %1; nothing of it was changed").arg(step.id);
            finish(State::NotRun, QStringLiteral("cancelled"));
            continue;
        }
        QStringList missingDeps;
        for (const QString &d : step.dependsOn)
            if (!done.contains(d))
                missingDeps << d;
        if (!missingDeps.isEmpty()) {
            finish(State::Skipped, QStringLiteral("skipped: needs step %1 first").arg(missingDeps.join(QStringLiteral(", "))));
            continue;
        }
        const RepairAction *action = RepairActionRegistry::find(step.action);
        if (!action) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("step %1: unknown action %2").arg(step.id, step.action);
            finish(State::Failed, report.stoppedBecause);
            continue;
        }
        emitEvent(options, RepairEvent::Kind::StepStarted, step);

        auto pre = action->precondition(step, ctx);
        if (!pre) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("step %1 (%2): could not check its precondition, nothing of it was changed: %3")
                                        .arg(step.id, step.description, pre.error().toString());
            finish(State::Failed, pre.error().toString());
            continue;
        }
        if (pre->verdict == Precondition::Verdict::AlreadyDone) {
            done.insert(step.id);
            finish(State::AlreadyDone, pre->reason);
            continue;
        }
        if (pre->verdict == Precondition::Verdict::Changed) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("step %1 (%2): the state changed since the plan was made (%3); nothing of it was "
                                                   "changed. Run check and plan again.")
                                        .arg(step.id, step.description, pre->reason);
            finish(State::Failed, pre->reason);
            continue;
        }
        if (options.dryRun) {
            done.insert(step.id);
            finish(State::NotRun, QStringLiteral("dry run: would run"));
            continue;
        }

        // docs/safety.md, "Nothing is lost": every destructive step is backed up first, or it does not run.
        bool backupFailed = false;
        bool alreadyDone = false;
        QString doneReason;
        for (int i = 0; i < step.backups.size() && !backupFailed; ++i) {
            const RepairBackupSpec &spec = step.backups.at(i);
            BackupRequest req;
            req.stream = spec.stream;
            req.subject = spec.subject;
            req.includeMessages = spec.includeMessages;
            req.allConsumers = spec.allConsumers;
            req.consumers = spec.consumers;
            req.outputPath = backupPath(options.backupDir, step, spec, i);
            BackupOptions bo;
            bo.cancel = options.cancel;
            auto written = StreamBackup::run(target, req, bo);
            if (!written && written.error().jsErrCode() == JsErrors::StreamNotFound) {
                // The stream went between the precondition and its backup (the server's own migration removes
                // legacy streams, for one): if the step is now done, it is done; otherwise the failure stands.
                auto again = action->precondition(step, ctx);
                if (again && again->verdict == Precondition::Verdict::AlreadyDone) {
                    alreadyDone = true;
                    doneReason = again->reason;
                    break;
                }
            }
            if (!written) {
                backupFailed = true;
                stopped = true;
                report.stoppedBecause = QStringLiteral("step %1 (%2): its backup of %3 failed, so nothing of it was changed: %4")
                                            .arg(step.id, step.description, spec.stream, written.error().toString());
                audit(options, target, step, QStringLiteral("error"), report.stoppedBecause, o);
                finish(State::Failed, written.error().toString());
                break;
            }
            o.backupFiles << written->path;
            report.backups << written->path;
            emitEvent(options, RepairEvent::Kind::BackupWritten, step, nullptr, written->path);
        }
        if (backupFailed)
            continue;
        if (alreadyDone) {
            done.insert(step.id);
            finish(State::AlreadyDone, doneReason);
            continue;
        }

        if (options.beforeApply)
            options.beforeApply(step, o.backupFiles);
        auto replies = action->apply(step, ctx);
        if (!replies) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("step %1 (%2) failed: %3.%4 A rerun continues where this stopped.")
                                        .arg(step.id, step.description, replies.error().toString(), restoreHint(o.backupFiles, false));
            audit(options, target, step, QStringLiteral("error"), replies.error().toString(), o);
            finish(State::Failed, replies.error().toString());
            continue;
        }
        o.responses = *replies;
        // Actions that must back up inside apply() (e.g. recreate_stream, resumable across a delete) name the file.
        for (const QJsonValue &r : o.responses) {
            const QString file = r.toObject().value(QLatin1String("backup")).toString();
            if (!file.isEmpty() && !o.backupFiles.contains(file)) {
                o.backupFiles << file;
                report.backups << file;
                emitEvent(options, RepairEvent::Kind::BackupWritten, step, nullptr, file);
            }
        }
        auto verified = action->verify(step, ctx);
        if (!verified) {
            stopped = true;
            report.stoppedBecause = QStringLiteral("step %1 (%2) was applied but its verification failed: %3.%4")
                                        .arg(step.id, step.description, verified.error().toString(), restoreHint(o.backupFiles, true));
            audit(options, target, step, QStringLiteral("error"), QStringLiteral("verification: ") + verified.error().toString(), o);
            finish(State::Failed, QStringLiteral("verification failed: ") + verified.error().toString());
            continue;
        }
        audit(options, target, step, QStringLiteral("ok"), QString(), o);
        done.insert(step.id);
        finish(State::Applied,
               pre->reason.isEmpty() ? QStringLiteral("applied and verified")
                                     : QStringLiteral("applied and verified (%1)").arg(pre->reason));
    }

    report.complete = !stopped;
    for (const StepOutcome &o : report.outcomes)
        if (o.state == State::Failed || o.state == State::Skipped || (o.state == State::NotRun && !options.dryRun))
            report.complete = false;
    return report;
}

} // namespace MqttDoctor::RepairExecutor
