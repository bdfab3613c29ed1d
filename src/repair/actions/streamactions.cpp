// The stream-level repair actions (docs/findings.md, each code's repair): create_stream, update_stream and
// resolve_overlap here, recreate_stream in streamrecreate.cpp. Each step re-reads the stream right before it
// runs (precondition) and again when it applies (read-modify-write of the raw config; docs/safety.md), so a
// rerun after a crash continues without harm.

#include "repair/actions/actionfamilies.h"

#include "diagnosis/findingcodes.h"
#include "diagnosis/subjectoverlap.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "repair/actions/streamconfigedit.h"
#include "repair/repairaction.h"

namespace MqttDoctor {

namespace {

namespace S = StreamConfigEdit;
namespace C = FindingCodes;
namespace R = RepairActions;

QString sub(const char *s)
{
    return QString::fromLatin1(s);
}

/** The subjects of another stream that capture any of the layout's MQTT subjects (for resolve_overlap). */
QStringList capturedByOther(const QStringList &otherSubjects, const QStringList &mqttSubjects)
{
    QStringList out;
    for (const QString &theirs : otherSubjects)
        for (const QString &mine : mqttSubjects)
            if (subjectsOverlap(mine, theirs) && !out.contains(theirs))
                out.append(theirs);
    return out;
}

Result<QJsonObject> currentConfig(const ExecContext &ctx, const QString &stream)
{
    auto info = ctx.streamInfo(stream);
    if (!info)
        return S::failed(QStringLiteral("reading %1").arg(stream), info.error());
    if (!info->has_value())
        return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist").arg(stream));
    return (*info)->value(QLatin1String("config")).toObject();
}

/** messages > num_subjects * limit: a lowered per-subject limit still has messages to purge. */
bool hasExcess(const QJsonObject &info, qint64 limit)
{
    const QJsonObject state = info.value(QLatin1String("state")).toObject();
    const qint64 subjects = state.value(QLatin1String("num_subjects")).toInteger(-1);
    return limit > 0 && subjects >= 0 && state.value(QLatin1String("messages")).toInteger() > subjects * limit;
}

/**
 * Purges what a lowered max_msgs_per_subject leaves above the limit: some servers (2.9.10) do not enforce a
 * lowered limit on the messages already stored. One `STREAM.PURGE {"filter": subject, "keep": limit}` per
 * subject above it (subjects read page by page with STREAM.INFO `subjects_filter`).
 */
Result<QJsonArray> purgeExcess(const ExecContext &ctx, const QString &stream, qint64 limit)
{
    QJsonArray replies;
    QStringList over;
    for (qint64 offset = 0;;) {
        auto info = ctx.api(QStringLiteral("STREAM.INFO.") + stream, {{sub("subjects_filter"), sub(">")}, {sub("offset"), offset}});
        if (!info)
            return S::failed(QStringLiteral("listing the subjects of %1").arg(stream), info.error());
        const QJsonObject subjects = info->value(QLatin1String("state")).toObject().value(QLatin1String("subjects")).toObject();
        for (auto it = subjects.constBegin(); it != subjects.constEnd(); ++it)
            if (it.value().toInteger() > limit)
                over << it.key();
        offset += subjects.size();
        const qint64 total = info->value(QLatin1String("total")).toInteger(0);
        if (subjects.isEmpty() || offset >= total)
            break;
    }
    for (const QString &subject : std::as_const(over)) {
        const QJsonObject body{{sub("filter"), subject}, {sub("keep"), limit}};
        auto purged = ctx.api(QStringLiteral("STREAM.PURGE.") + stream, body);
        if (!purged)
            return S::failed(QStringLiteral("purging the older messages of %1 in %2").arg(subject, stream), purged.error());
        replies.append(QJsonObject{{sub("purge"), body}, {sub("reply"), *purged}});
    }
    return replies;
}

// ---------------------------------------------------------------------------------------------------------
// create_stream

class CreateStream final : public RepairAction
{
public:
    QString name() const override { return R::createStream(); }

    /** The create step of `spec` (also planned by resolve_overlap after it frees the subjects). */
    static RepairStep step(const MqttStreamSpec &spec, const PlanContext &ctx)
    {
        const QJsonObject config = S::placedIn(spec.createConfig(), ctx.layout.cluster);
        RepairStep s;
        s.action = R::createStream();
        s.account = ctx.account ? ctx.account->name : QString();
        s.stream = spec.name;
        s.description = QStringLiteral("Create %1 (%2)").arg(spec.name, S::describeSpec(spec));
        if (!ctx.layout.cluster.isEmpty())
            s.description += QStringLiteral(" in cluster %1, where the account's MQTT streams are").arg(ctx.layout.cluster);
        s.requests = {{ctx.apiSubject(QStringLiteral("STREAM.CREATE.") + spec.name), config}};
        s.diff = S::renderCreateDiff(S::currentValues(config, MqttStreamSpec::comparedFields()));
        s.precondition = QStringLiteral("%1 still does not exist (if it exists with exactly this config the step is already done; "
                                        "with another config the plan stops)")
                             .arg(spec.name);
        s.undo = QStringLiteral("delete the stream again (%1)").arg(ctx.apiSubject(QStringLiteral("STREAM.DELETE.") + spec.name));
        s.verification = QStringLiteral("STREAM.INFO of %1 shows the expected subjects, retention, storage, discard, "
                                        "max_msgs_per_subject, discard_new_per_subject and num_replicas %2")
                             .arg(spec.name)
                             .arg(spec.replicas);
        if (spec.name == MqttLayout::retainedStream())
            s.verification += QStringLiteral(". Not restored by this step: each server's retained-message consumer, which died with "
                                             "the stream. Until it is back, retained messages published through that server never "
                                             "reach new subscribers (2.12.3+). The check after this round finds the servers "
                                             "(RETAINED_CONSUMER_MISSING) and the next round makes their consumers again; that needs "
                                             "the system connection, and without one the servers that serve the account must be "
                                             "restarted");
        s.params = QJsonObject{{sub("config"), config}};
        return s;
    }

    QList<RepairStep> plan(const Finding &finding, const PlanContext &ctx, QString *note) const override
    {
        if (finding.code != C::streamMissing()) {
            *note = QStringLiteral("create_stream does not repair %1.").arg(finding.code);
            return {};
        }
        const auto spec = S::feasibleSpec(ctx, finding.stream);
        if (!spec) {
            *note = QStringLiteral("%1 is not a stream of the expected %2 layout: nothing to create.")
                        .arg(finding.stream, MqttLayout::kindName(ctx.layout.layout.kind()));
            return {};
        }
        if (ctx.stream(finding.stream)) {
            *note = QStringLiteral("%1 exists already: nothing to create.").arg(finding.stream);
            return {};
        }
        if (ctx.account && ctx.account->readDomainKnown && !ctx.layout.layout.domain().isEmpty()
            && ctx.account->readDomain != ctx.layout.layout.domain()) {
            *note = QStringLiteral("%1: not created in JetStream domain \"%2\", which this connection reads: the MQTT servers keep "
                                   "account \"%3\"'s state in domain \"%4\" (run with --js-domain %4).")
                        .arg(finding.stream, ctx.account->readDomain, finding.account, ctx.layout.layout.domain());
            return {};
        }
        if (finding.severity == Finding::Severity::Info) {
            *note = QStringLiteral("%1: the servers create it themselves the next time they set up MQTT for account \"%2\"; "
                                   "nothing blocks that, so no step is planned.")
                        .arg(finding.stream, finding.account);
            return {};
        }
        return {step(*spec, ctx)};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return S::failed(QStringLiteral("reading %1").arg(step.stream), info.error());
        if (!info->has_value())
            return Precondition::run();
        return existing(step, (*info)->value(QLatin1String("config")).toObject());
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        const QJsonObject config = step.params.value(QLatin1String("config")).toObject();
        auto created = ctx.api(QStringLiteral("STREAM.CREATE.") + step.stream, config);
        if (created)
            return QJsonArray{*created};
        if (!S::isAlreadyInUse(created.error()))
            return S::failed(QStringLiteral("creating %1").arg(step.stream), created.error());
        // Another server (an MQTT client connecting) created it meanwhile: re-read (docs/safety.md).
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return S::failed(QStringLiteral("re-reading %1 after \"already in use\"").arg(step.stream), info.error());
        if (!info->has_value())
            return S::failed(QStringLiteral("creating %1").arg(step.stream), created.error());
        const Precondition p = existing(step, (*info)->value(QLatin1String("config")).toObject());
        if (p.verdict != Precondition::Verdict::AlreadyDone)
            return S::stateChanged(QStringLiteral("creating %1: %2").arg(step.stream, p.reason));
        QJsonObject reply = **info;
        reply.insert(sub("already_exists"), true);
        return QJsonArray{reply};
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto config = currentConfig(ctx, step.stream);
        if (!config)
            return config.error();
        const Precondition p = existing(step, *config);
        if (p.verdict != Precondition::Verdict::AlreadyDone)
            return Error(Error::Kind::Internal, p.reason);
        return {};
    }

private:
    static Precondition existing(const RepairStep &step, const QJsonObject &config)
    {
        const MqttStreamSpec spec = S::specFromConfig(step.params.value(QLatin1String("config")).toObject());
        const QList<MqttStreamSpec::Difference> diffs = spec.differences(config);
        if (diffs.isEmpty())
            return Precondition::alreadyDone(QStringLiteral("%1 exists with the expected config").arg(step.stream));
        QStringList what;
        for (const MqttStreamSpec::Difference &d : diffs)
            what << QStringLiteral("%1 %2 (expected %3)").arg(d.field, S::renderValue(d.actual), S::renderValue(d.expected));
        return Precondition::changed(QStringLiteral("%1 exists with another config: %2").arg(step.stream, what.join(QStringLiteral(", "))));
    }
};

// ---------------------------------------------------------------------------------------------------------
// update_stream

class UpdateStream final : public RepairAction
{
public:
    QString name() const override { return R::updateStream(); }

    QList<RepairStep> plan(const Finding &finding, const PlanContext &ctx, QString *note) const override
    {
        const QStringList codes{C::streamSubjectsWrong(), C::streamConfigWrong(), C::replicasMismatch(), C::duplicateSessionRecords()};
        if (!codes.contains(finding.code) || finding.stream.isEmpty()) {
            *note = QStringLiteral("update_stream does not repair %1%2.")
                        .arg(finding.code, finding.stream.isEmpty() ? QStringLiteral(" without a stream") : QString());
            return {};
        }
        const StreamInfo *stream = ctx.stream(finding.stream);
        const auto spec = S::feasibleSpec(ctx, finding.stream);
        if (!stream || !spec) {
            *note =
                QStringLiteral("%1: %2 is %3, nothing to update.")
                    .arg(finding.code, finding.stream, stream ? QStringLiteral("not an expected MQTT stream") : QStringLiteral("missing"));
            return {};
        }
        // One read-modify-write per stream covers every field that can change in place (the planner plans it once).
        const QJsonObject changes = S::inPlaceChanges(*spec, stream->config, ctx.layout.layout.kind());
        if (changes.isEmpty()) {
            *note = QStringLiteral("%1 on %2: no field that can change in place differs from the expected config%3.")
                        .arg(finding.code, finding.stream,
                             finding.code == C::duplicateSessionRecords()
                                 ? QStringLiteral(" (max_msgs_per_subject is already 1: check again, the duplicates should be gone)")
                                 : QString());
            return {};
        }
        const QJsonObject old = S::currentValues(stream->config, changes.keys());
        const bool purges = changes.contains(sub("max_msgs_per_subject"))
            && S::lowersPerSubjectLimit(old.value(sub("max_msgs_per_subject")), changes.value(sub("max_msgs_per_subject")));

        RepairStep s;
        s.action = name();
        s.account = finding.account;
        s.stream = finding.stream;
        s.description = QStringLiteral("Update %1: %2%3")
                            .arg(finding.stream, S::renderChanges(old, changes),
                                 purges ? QStringLiteral(" (purges all but the newest %1 message(s) per subject)")
                                              .arg(changes.value(sub("max_msgs_per_subject")).toInteger())
                                        : QString());
        s.requests = {{ctx.apiSubject(QStringLiteral("STREAM.UPDATE.") + finding.stream), S::withChanges(stream->config, changes)}};
        if (purges) // where the server does not enforce the lowered limit on stored messages (2.9.10)
            s.requests.append({ctx.apiSubject(QStringLiteral("STREAM.PURGE.") + finding.stream),
                               QJsonObject{{sub("filter"), QStringLiteral("<each subject holding more>")},
                                           {sub("keep"), changes.value(sub("max_msgs_per_subject"))}}});
        s.diff = S::renderDiff(old, changes);
        s.destructive = purges;
        if (purges)
            s.backups = {RepairBackupSpec{finding.stream, {}, true, true, {}}};
        s.precondition = QStringLiteral("%1 still has %2 (already the new values: done; anything else: the plan stops); the "
                                        "request body is rebuilt from the config read right before the update")
                             .arg(finding.stream, S::renderFields(old));
        s.undo = QStringLiteral("update back to: %1").arg(S::renderFields(old));
        if (purges)
            s.undo += QStringLiteral("; the purged messages: restore the backup of %1 written before this step").arg(finding.stream);
        s.verification = QStringLiteral("STREAM.INFO of %1 shows %2%3")
                             .arg(finding.stream, S::renderFields(changes),
                                  purges ? QStringLiteral(" and at most %1 message(s) per subject")
                                               .arg(changes.value(sub("max_msgs_per_subject")).toInteger())
                                         : QString());
        s.params = QJsonObject{{sub("old"), old}, {sub("new"), changes}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto config = currentConfig(ctx, step.stream);
        if (!config) {
            if (config.error().kind() == Error::Kind::NotFound)
                return Precondition::changed(config.error().message());
            return config.error();
        }
        const Precondition p = S::fieldsPrecondition(step.stream, *config, step.params.value(QLatin1String("old")).toObject(),
                                                     step.params.value(QLatin1String("new")).toObject());
        if (p.verdict == Precondition::Verdict::AlreadyDone && step.destructive) {
            auto info = ctx.streamInfo(step.stream);
            if (!info)
                return info.error();
            if (info->has_value() && hasExcess(**info, limitOf(step)))
                return Precondition::run(); // limit set, older messages still there: purge them
        }
        return p;
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        auto config = currentConfig(ctx, step.stream);
        if (!config)
            return config.error();
        const QJsonObject changes = step.params.value(QLatin1String("new")).toObject();
        const Precondition p = S::fieldsPrecondition(step.stream, *config, step.params.value(QLatin1String("old")).toObject(), changes);
        if (p.verdict == Precondition::Verdict::Changed)
            return S::stateChanged(p.reason);
        QJsonArray replies;
        if (p.verdict == Precondition::Verdict::Run) {
            const QJsonObject body = S::withChanges(*config, changes);
            auto updated = ctx.api(QStringLiteral("STREAM.UPDATE.") + step.stream, body);
            if (!updated)
                return S::failed(QStringLiteral("updating %1").arg(step.stream), updated.error());
            replies.append(QJsonObject{{sub("update"), body}, {sub("reply"), *updated}});
        }
        if (step.destructive) {
            auto purged = purgeExcess(ctx, step.stream, limitOf(step));
            if (!purged)
                return purged.error();
            for (const QJsonValue &v : std::as_const(*purged))
                replies.append(v);
        }
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QJsonObject changes = step.params.value(QLatin1String("new")).toObject();
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return info.error();
        if (!info->has_value())
            return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist").arg(step.stream));
        const QJsonObject config = (*info)->value(QLatin1String("config")).toObject();
        const Precondition p = S::fieldsPrecondition(step.stream, config, {}, changes);
        if (p.verdict != Precondition::Verdict::AlreadyDone)
            return Error(Error::Kind::Internal, QStringLiteral("%1 does not show the new values: %2").arg(step.stream, p.reason));
        if (changes.contains(sub("max_msgs_per_subject")) && hasExcess(**info, limitOf(step))) {
            const QJsonObject state = (*info)->value(QLatin1String("state")).toObject();
            return Error(Error::Kind::Internal,
                         QStringLiteral("%1 still holds %2 messages on %3 subjects")
                             .arg(step.stream)
                             .arg(state.value(QLatin1String("messages")).toInteger())
                             .arg(state.value(QLatin1String("num_subjects")).toInteger()));
        }
        return {};
    }

private:
    static qint64 limitOf(const RepairStep &step)
    {
        return step.params.value(QLatin1String("new")).toObject().value(QLatin1String("max_msgs_per_subject")).toInteger(-1);
    }
};

// ---------------------------------------------------------------------------------------------------------
// resolve_overlap

class ResolveOverlap final : public RepairAction
{
public:
    QString name() const override { return R::resolveOverlap(); }

    QList<RepairStep> plan(const Finding &finding, const PlanContext &ctx, QString *note) const override
    {
        const QString other = finding.stream;
        const StreamInfo *info = ctx.stream(other);
        if (finding.code != C::subjectsOverlap() || other.isEmpty() || !info) {
            *note = QStringLiteral("resolve_overlap: nothing to do for %1 on \"%2\".").arg(finding.code, other);
            return {};
        }
        if (MqttLayout::isMqttStreamName(other) || other.startsWith(QLatin1String("$MQTT_"))) {
            *note = QStringLiteral("resolve_overlap never changes an MQTT stream (%1).").arg(other);
            return {};
        }
        const QStringList subjects = MqttStreamSpec::subjectsOf(info->config);
        const QStringList captured = capturedByOther(subjects, mqttSubjects(ctx));
        if (captured.isEmpty()) {
            *note = QStringLiteral("\"%1\" no longer captures MQTT subjects.").arg(other);
            return {};
        }
        QStringList keep = subjects;
        for (const QString &c : captured)
            keep.removeAll(c);
        const bool remove = keep.isEmpty();
        // The MQTT streams the other one harms (SUBJECTS_OVERLAP evidence).
        QStringList mqttStreams;
        for (const QJsonValue &v : finding.expected.toObject().value(QLatin1String("mqtt_streams")).toArray())
            mqttStreams << v.toObject().value(QLatin1String("stream")).toString();
        mqttStreams.removeAll(QString());
        const QString mqttStream = mqttStreams.join(QStringLiteral(", "));

        RepairStep s;
        s.id = QStringLiteral("1");
        s.action = name();
        s.account = finding.account;
        s.stream = other;
        s.destructive = true;
        s.backups = {RepairBackupSpec{other, {}, true, true, {}}};
        const QJsonObject oldSubjects{{sub("subjects"), QJsonArray::fromStringList(subjects)}};
        if (remove) {
            s.description = QStringLiteral("Back up and delete stream \"%1\" (all its subjects, %2, are MQTT subjects)")
                                .arg(other, captured.join(QStringLiteral(", ")));
            s.requests = {{ctx.apiSubject(QStringLiteral("STREAM.DELETE.") + other), {}}};
            s.diff = S::renderDiff(oldSubjects, {});
            s.undo = QStringLiteral("restore the backup of \"%1\" written before this step (recreates it with its config, "
                                    "messages and consumers; delete %2 first if created meanwhile)")
                         .arg(other, mqttStream);
            s.verification = QStringLiteral("\"%1\" no longer exists").arg(other);
        } else {
            const QJsonObject newSubjects{{sub("subjects"), QJsonArray::fromStringList(keep)}};
            s.description = QStringLiteral("Back up stream \"%1\" and narrow its subjects to %2 (drops %3)")
                                .arg(other, keep.join(QStringLiteral(", ")), captured.join(QStringLiteral(", ")));
            s.requests = {{ctx.apiSubject(QStringLiteral("STREAM.UPDATE.") + other), S::withChanges(info->config, newSubjects)}};
            s.diff = S::renderDiff(oldSubjects, newSubjects);
            s.undo = QStringLiteral("update back to: subjects %1 (only once the MQTT streams no longer need them); the messages "
                                    "are kept, the backup of \"%2\" holds them too")
                         .arg(S::renderValue(oldSubjects.value(sub("subjects"))), other);
            s.verification = QStringLiteral("\"%1\" has subjects %2 and none of them overlaps an MQTT subject")
                                 .arg(other, S::renderValue(newSubjects.value(sub("subjects"))));
        }
        s.precondition = QStringLiteral("\"%1\" still has subjects %2 (gone or already narrowed: done; anything else: the plan stops)")
                             .arg(other, S::renderValue(oldSubjects.value(sub("subjects"))));
        s.params = QJsonObject{{sub("old_subjects"), QJsonArray::fromStringList(subjects)},
                               {sub("keep_subjects"), QJsonArray::fromStringList(keep)},
                               {sub("captured"), QJsonArray::fromStringList(captured)},
                               {sub("delete"), remove},
                               {sub("mqtt_stream"), mqttStream}};
        QList<RepairStep> steps{s};
        // The MQTT streams the overlap kept from being created, once the subjects are free.
        for (const QString &name : std::as_const(mqttStreams)) {
            if (ctx.stream(name))
                continue;
            if (const auto spec = S::feasibleSpec(ctx, name)) {
                RepairStep create = CreateStream::step(*spec, ctx);
                create.id = QString::number(steps.size() + 1);
                create.findingCode = finding.code;
                create.dependsOn = {s.id};
                steps.append(create);
            }
        }
        return steps;
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (step.stream.startsWith(QLatin1String("$MQTT_")))
            return Precondition::changed(QStringLiteral("resolve_overlap never changes an MQTT stream (%1)").arg(step.stream));
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return S::failed(QStringLiteral("reading %1").arg(step.stream), info.error());
        if (!info->has_value())
            return Precondition::alreadyDone(QStringLiteral("\"%1\" no longer exists").arg(step.stream));
        const QStringList now = MqttStreamSpec::subjectsOf((*info)->value(QLatin1String("config")).toObject());
        const QStringList old =
            MqttStreamSpec::subjectsOf(QJsonObject{{sub("subjects"), step.params.value(QLatin1String("old_subjects"))}});
        const QStringList keep =
            MqttStreamSpec::subjectsOf(QJsonObject{{sub("subjects"), step.params.value(QLatin1String("keep_subjects"))}});
        if (!keep.isEmpty() && MqttStreamSpec::sameSubjects(now, keep))
            return Precondition::alreadyDone(
                QStringLiteral("\"%1\" already has subjects %2").arg(step.stream, keep.join(QStringLiteral(", "))));
        if (!MqttStreamSpec::sameSubjects(now, old))
            return Precondition::changed(QStringLiteral("\"%1\" now has subjects %2 (planned from %3)")
                                             .arg(step.stream, now.join(QStringLiteral(", ")), old.join(QStringLiteral(", "))));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        if (step.stream.startsWith(QLatin1String("$MQTT_")))
            return Error(Error::Kind::InvalidInput, QStringLiteral("resolve_overlap never changes an MQTT stream (%1)").arg(step.stream));
        auto p = precondition(step, ctx);
        if (!p)
            return p.error();
        if (p->verdict == Precondition::Verdict::AlreadyDone)
            return QJsonArray{QJsonObject{{sub("already_done"), p->reason}}};
        if (p->verdict == Precondition::Verdict::Changed)
            return S::stateChanged(p->reason);
        if (step.params.value(QLatin1String("delete")).toBool()) {
            auto deleted = ctx.api(QStringLiteral("STREAM.DELETE.") + step.stream);
            if (!deleted) {
                if (deleted.error().jsErrCode() == JsErrors::StreamNotFound)
                    return QJsonArray{QJsonObject{{sub("already_done"), QStringLiteral("\"%1\" no longer exists").arg(step.stream)}}};
                return S::failed(QStringLiteral("deleting \"%1\"").arg(step.stream), deleted.error());
            }
            return QJsonArray{*deleted};
        }
        auto config = currentConfig(ctx, step.stream);
        if (!config)
            return config.error();
        const QJsonObject body = S::withChanges(*config, {{sub("subjects"), step.params.value(QLatin1String("keep_subjects"))}});
        auto updated = ctx.api(QStringLiteral("STREAM.UPDATE.") + step.stream, body);
        if (!updated)
            return S::failed(QStringLiteral("narrowing the subjects of \"%1\"").arg(step.stream), updated.error());
        return QJsonArray{*updated};
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return info.error();
        const bool remove = step.params.value(QLatin1String("delete")).toBool();
        if (!info->has_value())
            return {};
        if (remove)
            return Error(Error::Kind::Internal, QStringLiteral("\"%1\" still exists").arg(step.stream));
        const QStringList now = MqttStreamSpec::subjectsOf((*info)->value(QLatin1String("config")).toObject());
        const QStringList captured =
            MqttStreamSpec::subjectsOf(QJsonObject{{sub("subjects"), step.params.value(QLatin1String("captured"))}});
        QStringList still;
        for (const QString &c : captured)
            for (const QString &n : now)
                if (subjectsOverlap(c, n) && !still.contains(n))
                    still << n;
        if (!still.isEmpty())
            return Error(Error::Kind::Internal,
                         QStringLiteral("\"%1\" still captures %2").arg(step.stream, still.join(QStringLiteral(", "))));
        return {};
    }

private:
    /** The subjects the account's MQTT streams need now, and after an upgrade to the 2.10+ layout. */
    static QStringList mqttSubjects(const PlanContext &ctx)
    {
        QStringList out;
        for (const MqttStreamSpec &spec : ctx.layout.layout.streams())
            out += spec.subjects;
        if (ctx.layout.layout.kind() != MqttLayout::Kind::V2_10) {
            const MqttLayout modern(MqttLayout::Kind::V2_10, ctx.layout.layout.domain()); // outlives the loop
            for (const MqttStreamSpec &spec : modern.streams())
                out += spec.subjects;
        }
        out.removeDuplicates();
        return out;
    }
};

} // namespace

namespace RepairActionFamilies {

QList<const RepairAction *> streamActions()
{
    static const CreateStream create;
    static const UpdateStream update;
    static const ResolveOverlap overlap;
    return {&create, &update, RepairActionFamilies::recreateStreamAction(), &overlap};
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
