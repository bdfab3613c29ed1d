// The retained-message repair actions (docs/findings.md):
//
// - migrate_retained (RETAINED_LEGACY_LAYOUT): what a 2.10+ server's own transfer does, without its 10 s
//   deadline and without losing a message. Order: (1) subjects → $MQTT.rmsgs.> (JetStream keeps stored
//   messages whose subject leaves the config, so nothing on $MQTT.rmsgs is dropped, and only now can
//   $MQTT.rmsgs.<subject> be stored); (2) republish the newest record per topic to $MQTT.rmsgs.<subject>;
//   (3) delete the originals by sequence; (4) max_msgs_per_subject 1 last: lowering it purges all but the
//   newest message per subject, which would destroy every untransferred message on $MQTT.rmsgs but one
//   (what the server's deadline does), so it only runs once $MQTT.rmsgs is empty.
// - republish (RETAINED_ORPHANED): steps (2) and (3) for what a deadline-hit migration left behind.
// - revert_retained (RETAINED_DOWNGRADE): the way back to the 2.9 layout, in retainedrevert.cpp.
//
// Republished records use the JSON encoding (the bytes 2.10's transfer stores; 2.11+ reads it by
// fallback) without their origin (a 2.9/2.10 server ignores live records carrying its own origin), are
// sent with plain inbox replies, and carry Nats-Expected-Last-Subject-Sequence so that a newer message a
// client stores meanwhile is never overwritten. A rerun after a crash continues: a per-subject copy with
// a higher sequence than its original counts as done, and deletes of gone sequences count as done.

#include "repair/actions/actionfamilies.h"

#include <QHash>
#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/topicmapping.h"
#include "nats/jserrors.h"
#include "repair/actions/retainedactionbase.h"
#include "repair/actions/retainedstepbackup.h"
#include "repair/actions/retainedstore.h"
#include "repair/actions/streamconfigedit.h"

namespace MqttDoctor {

namespace {

namespace Store = RetainedStore;
namespace S = StreamConfigEdit;
namespace C = FindingCodes;

QString legacySubject()
{
    return MqttLayout::retainedLegacySubject();
}
QString modernSubjects()
{
    return MqttLayout::retainedSubjects();
}

/** Where a record goes in the 2.10+ layout: `$MQTT.rmsgs.<its subject>`; empty when it has neither subject nor topic. */
QString targetOf(const RetainedRecord &r)
{
    if (!r.subject.isEmpty())
        return Store::perSubjectSubject(r.subject);
    if (r.topic.isEmpty())
        return {};
    auto mapped = TopicMapping::topicToSubject(r.topic, TopicMapping::Dialect::V2_10);
    return mapped ? Store::perSubjectSubject(*mapped) : QString();
}

/**
 * Steps (2) and (3): every message on the literal `$MQTT.rmsgs` is republished (the newest per topic,
 * unless $MQTT.rmsgs.<subject> already holds a newer one) and then deleted. The report of each part.
 */
Result<QJsonArray> moveLegacyMessages(const RepairStep &step, const ExecContext &ctx)
{
    auto messages = Store::readMessages(ctx, legacySubject());
    if (!messages)
        return messages.error();
    QList<RetainedRecord> records;
    QList<quint64> originals;
    quint64 undecodable = 0;
    for (const StreamMessage &m : std::as_const(*messages)) {
        if (m.subject != legacySubject())
            continue;
        originals << m.sequence;
        auto r = Store::decode(m);
        if (r && !r->isDeleteMarker && !targetOf(*r).isEmpty())
            records << *r;
        else
            ++undecodable;
    }
    if (auto held = RetainedStepBackup::requireBackedUp(ctx, step, originals); !held)
        return held.error();
    QList<Store::Outgoing> outgoing;
    quint64 newerThere = 0;
    for (const RetainedRecord &r : Store::newestPerTopic(records)) {
        const QString target = targetOf(r);
        auto last = ctx.api(QStringLiteral("STREAM.MSG.GET.") + MqttLayout::retainedStream(),
                            QJsonObject{{QStringLiteral("last_by_subj"), target}});
        quint64 lastSeq = 0;
        if (last)
            lastSeq = quint64(last->value(QLatin1String("message")).toObject().value(QLatin1String("seq")).toInteger());
        else if (last.error().jsErrCode() != JsErrors::NoMessageFound)
            return last.error();
        if (lastSeq > r.seq) { // a copy made by an earlier run, or a newer message of a client: keep it
            ++newerThere;
            continue;
        }
        outgoing << Store::Outgoing{target, Store::republishBody(r), lastSeq, r.topic};
    }
    auto published = Store::publishAll(ctx, outgoing);
    if (!published)
        return published.error();
    const QJsonObject publishReport{{QStringLiteral("request"),
                                     QStringLiteral("publish $MQTT.rmsgs.<subject> (JSON record, origin dropped, "
                                                    "Nats-Expected-Last-Subject-Sequence)")},
                                    {QStringLiteral("republished"), qint64(published->stored)},
                                    {QStringLiteral("newer_kept"), qint64(newerThere + published->newerKept)},
                                    {QStringLiteral("undecodable_or_markers"), qint64(undecodable)},
                                    {QStringLiteral("failed"), qint64(published->failed)},
                                    {QStringLiteral("sample_acks"), published->sample}};
    if (published->failed > 0) // keep every original: a rerun republishes what is missing
        return Error(Error::Kind::JetStream,
                     QStringLiteral("%1 of %2 republishes failed, no original was deleted: %3")
                         .arg(published->failed)
                         .arg(outgoing.size())
                         .arg(published->failures.join(QStringLiteral("; "))));
    auto deleted = Store::deleteSequences(ctx, originals);
    if (!deleted)
        return deleted.error();
    const QJsonObject deleteReport{
        {QStringLiteral("request"), Store::apiSubject(ctx, QStringLiteral("STREAM.MSG.DELETE.") + MqttLayout::retainedStream())},
        {QStringLiteral("deleted"), qint64(deleted->deleted)},
        {QStringLiteral("already_gone"), qint64(deleted->alreadyGone)},
        {QStringLiteral("sample_replies"), deleted->sample}};
    return QJsonArray{publishReport, deleteReport};
}

/** Every topic of the step's backup on the literal subject has exactly one message on its $MQTT.rmsgs.<subject>. */
Result<void> verifyMoved(const RepairStep &step, const ExecContext &ctx)
{
    auto counts = Store::subjectCounts(ctx, modernSubjects());
    if (!counts)
        return counts.error();
    const QString backup = RetainedStepBackup::stepBackupFile(ctx, step);
    if (backup.isEmpty())
        return {}; // no backup of this step to compare with (a dry run never gets here)
    auto records = RetainedStepBackup::backupRecords(backup, false);
    if (!records)
        return records.error();
    QStringList missing;
    for (const RetainedRecord &r : Store::newestPerTopic(*records)) {
        const QString target = targetOf(r);
        if (!target.isEmpty() && counts->value(target) != 1)
            missing << QStringLiteral("%1 (%2 message(s) on %3)").arg(r.topic).arg(counts->value(target)).arg(target);
    }
    if (!missing.isEmpty())
        return Error(Error::Kind::Internal,
                     QStringLiteral("topics of the backup not once on their subject: %1").arg(missing.join(QStringLiteral(", "))));
    return {};
}

// ---------------------------------------------------------------------------------------------------------
// migrate_retained

class MigrateRetained final : public RetainedActionBase
{
public:
    QString name() const override { return RepairActions::migrateRetained(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const StreamInfo *rm = retainedStreamFor(f, ctx, C::retainedLegacyLayout(), QStringLiteral("migrate"), note);
        if (!rm)
            return {};
        if (ctx.layout.layout.kind() != MqttLayout::Kind::V2_10) {
            *note = QStringLiteral("%1: 2.9 servers still serve account \"%2\"; migrating $MQTT_rmsgs now would fail every MQTT connect "
                                   "through them (10093) and their retained stores. Upgrade the servers first, then run this repair "
                                   "before the first MQTT client connects (no step planned).")
                        .arg(f.code, f.account);
            return {};
        }
        const Store::Shape shape = Store::shapeOf(rm->config);
        if (shape == Store::Shape::Other) {
            *note =
                QStringLiteral("%1: $MQTT_rmsgs has other subjects than either layout; repair STREAM_SUBJECTS_WRONG first.").arg(f.code);
            return {};
        }
        const qint64 messages = rm->state.value(QLatin1String("messages")).toInteger();
        const qint64 limit = Store::perSubjectLimit(rm->config);
        const QString stream = MqttLayout::retainedStream();
        RepairStep s = baseStep(f, ctx);
        s.description = QStringLiteral("Migrate %1 to the 2.10+ layout: %2republish its %3 message(s) on $MQTT.rmsgs to "
                                       "$MQTT.rmsgs.<subject> (newest per topic, JSON), delete the originals, then set "
                                       "max_msgs_per_subject 1")
                            .arg(stream, shape == Store::Shape::Legacy ? QStringLiteral("subjects → $MQTT.rmsgs.>, ") : QString())
                            .arg(messages);
        QJsonObject config = rm->config;
        if (shape == Store::Shape::Legacy) {
            config.insert(QStringLiteral("subjects"), QJsonArray{modernSubjects()});
            s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.UPDATE.") + stream), config};
        }
        s.requests << moveRequests(ctx, QStringLiteral("messages on $MQTT.rmsgs"), messages);
        config.insert(QStringLiteral("max_msgs_per_subject"), 1);
        s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.UPDATE.") + stream), config};
        s.diff = S::renderDiff(
            S::currentValues(rm->config, {QStringLiteral("subjects"), QStringLiteral("max_msgs_per_subject")}),
            QJsonObject{{QStringLiteral("subjects"), QJsonArray{modernSubjects()}}, {QStringLiteral("max_msgs_per_subject"), 1}});
        s.precondition = QStringLiteral("%1 still has subjects [$MQTT.rmsgs] or [$MQTT.rmsgs.>] (a migration under way); already "
                                        "[$MQTT.rmsgs.>] with max_msgs_per_subject 1 and nothing on $MQTT.rmsgs: done; anything else "
                                        "stops the plan. Each STREAM.UPDATE body is rebuilt from the config read right before it")
                             .arg(stream);
        s.undo = QStringLiteral("delete %1 and restore the step's backup file (nats-mqtt-doctor-cli restore <backup file> "
                                "--allow-changes): it recreates the stream with its 2.9 config and every message")
                     .arg(stream);
        s.verification = QStringLiteral("subjects [$MQTT.rmsgs.>], max_msgs_per_subject 1, no message left on $MQTT.rmsgs, and every "
                                        "topic of the backup exactly once on its $MQTT.rmsgs.<subject>");
        s.params =
            QJsonObject{{QStringLiteral("shape"), shape == Store::Shape::Legacy ? QStringLiteral("legacy") : QStringLiteral("modern")},
                        {QStringLiteral("messages"), messages},
                        {QStringLiteral("max_msgs_per_subject"), limit}};
        *note = QStringLiteral("migrate_retained runs before any MQTT client of a 2.10+ server sets the account up: a server doing its own "
                               "transfer at the same time is harmless (its copies count as done).");
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &, const ExecContext &ctx) const override
    {
        auto config = Store::currentConfig(ctx);
        if (!config)
            return config.error();
        if (!*config)
            return Precondition::changed(QStringLiteral("$MQTT_rmsgs no longer exists"));
        const Store::Shape shape = Store::shapeOf(**config);
        if (shape == Store::Shape::Legacy)
            return Precondition::run();
        if (shape == Store::Shape::Other)
            return Precondition::changed(
                QStringLiteral("$MQTT_rmsgs now has subjects %1").arg(S::renderValue((*config)->value(QLatin1String("subjects")))));
        auto counts = Store::subjectCounts(ctx, legacySubject());
        if (!counts)
            return counts.error();
        if (counts->value(legacySubject()) == 0 && Store::perSubjectLimit(**config) == 1)
            return Precondition::alreadyDone(QStringLiteral("$MQTT_rmsgs is in the 2.10+ layout with nothing left on $MQTT.rmsgs"));
        return Precondition::run(); // a migration under way (ours after a crash, or a server's): continue it
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        QJsonArray replies;
        auto config = Store::currentConfig(ctx);
        if (!config)
            return config.error();
        if (!*config)
            return S::stateChanged(QStringLiteral("$MQTT_rmsgs no longer exists"));
        if (Store::shapeOf(**config) == Store::Shape::Legacy) {
            auto updated = Store::updateConfig(ctx, {{QStringLiteral("subjects"), QJsonArray{modernSubjects()}}});
            if (!updated)
                return updated.error();
            replies.append(*updated);
        } else if (Store::shapeOf(**config) != Store::Shape::Modern) {
            return S::stateChanged(QStringLiteral("$MQTT_rmsgs has unexpected subjects"));
        }
        auto moved = moveLegacyMessages(step, ctx);
        if (!moved)
            return moved.error();
        for (const QJsonValue &v : std::as_const(*moved))
            replies.append(v);
        auto counts = Store::subjectCounts(ctx, legacySubject());
        if (!counts)
            return counts.error();
        if (counts->value(legacySubject()) != 0) // never lower the limit while $MQTT.rmsgs holds anything: it would purge
            return Error(Error::Kind::Internal,
                         QStringLiteral("%1 message(s) appeared on $MQTT.rmsgs meanwhile; max_msgs_per_subject was "
                                        "not changed. Run the repair again.")
                             .arg(counts->value(legacySubject())));
        if (Store::perSubjectLimit(**config) != 1) {
            auto updated = Store::updateConfig(ctx, {{QStringLiteral("max_msgs_per_subject"), 1}});
            if (!updated)
                return updated.error();
            replies.append(*updated);
        }
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto config = Store::currentConfig(ctx);
        if (!config)
            return config.error();
        if (!*config || Store::shapeOf(**config) != Store::Shape::Modern || Store::perSubjectLimit(**config) != 1)
            return Error(Error::Kind::Internal, QStringLiteral("$MQTT_rmsgs is not [$MQTT.rmsgs.>] with max_msgs_per_subject 1"));
        if (auto left = Store::noneLeftOnLegacySubject(ctx); !left)
            return left;
        return verifyMoved(step, ctx);
    }
};

// ---------------------------------------------------------------------------------------------------------
// republish

class Republish final : public RetainedActionBase
{
public:
    QString name() const override { return RepairActions::republish(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const StreamInfo *rm = retainedStreamFor(f, ctx, C::retainedOrphaned(), QStringLiteral("republish"), note);
        if (!rm)
            return {};
        const qint64 orphans = f.actual.toObject()
                                   .value(legacySubject())
                                   .toInteger(rm->state.value(QLatin1String("subjects")).toObject().value(legacySubject()).toInteger());
        RepairStep s = baseStep(f, ctx);
        s.description = QStringLiteral("Republish the %1 orphaned retained message(s) on $MQTT.rmsgs to $MQTT.rmsgs.<subject> (unless a "
                                       "newer one is there), then delete the originals")
                            .arg(orphans);
        s.requests = moveRequests(ctx, QStringLiteral("orphaned messages"), orphans);
        s.diff = QStringLiteral("-$MQTT.rmsgs: %1 message(s)\n+$MQTT.rmsgs.<subject>: the newest per topic").arg(orphans);
        s.precondition = QStringLiteral("$MQTT_rmsgs still has subjects [$MQTT.rmsgs.>] and max_msgs_per_subject 1 (else the plan "
                                        "stops); nothing left on $MQTT.rmsgs: done");
        s.undo = QStringLiteral("restore the step's backup file with merge (nats-mqtt-doctor-cli restore <backup file> --merge "
                                "--allow-changes) puts the originals back on $MQTT.rmsgs; the republished copies stay");
        s.verification =
            QStringLiteral("nothing left on $MQTT.rmsgs, and every topic of the backup exactly once on its $MQTT.rmsgs.<subject>");
        s.params = QJsonObject{{QStringLiteral("messages"), orphans}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &, const ExecContext &ctx) const override
    {
        auto config = Store::currentConfig(ctx);
        if (!config)
            return config.error();
        if (!*config)
            return Precondition::changed(QStringLiteral("$MQTT_rmsgs no longer exists"));
        if (Store::shapeOf(**config) != Store::Shape::Modern || Store::perSubjectLimit(**config) != 1)
            return Precondition::changed(QStringLiteral("$MQTT_rmsgs is no longer [$MQTT.rmsgs.>] with max_msgs_per_subject 1"));
        auto counts = Store::subjectCounts(ctx, legacySubject());
        if (!counts)
            return counts.error();
        if (counts->value(legacySubject()) == 0)
            return Precondition::alreadyDone(QStringLiteral("nothing is left on $MQTT.rmsgs"));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        return moveLegacyMessages(step, ctx);
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto left = Store::noneLeftOnLegacySubject(ctx); !left)
            return left;
        return verifyMoved(step, ctx);
    }
};

} // namespace

namespace RepairActionFamilies {

QList<const RepairAction *> retainedActions()
{
    static const MigrateRetained migrate;
    static const Republish republish;
    return {&migrate, &republish, RepairActionFamilies::revertRetainedAction(), RepairActionFamilies::restoreRetainedConsumerAction()};
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
