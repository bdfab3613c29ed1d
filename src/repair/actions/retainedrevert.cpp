// revert_retained (RETAINED_DOWNGRADE): a $MQTT_rmsgs in
// the 2.10+ layout while only 2.9 servers serve the account, whose MQTT connects all fail with 10093.
//
// Where it can run, and where not (lab, 2.9.10 against 2.10.27 and 2.15.1; docs/findings.md):
// - A 2.10+-shaped $MQTT_rmsgs in a store 2.9.10 wrote itself (a stream recreated or restored from a
//   backup through 2.9.10's API, a 2.9 node's own replica in a cluster that is rolled back): 2.9.10
//   reads it correctly, by sequence and by subject. This is what the action repairs.
// - The very files a 2.10+ server wrote, served by 2.9.10 after a binary downgrade: 2.9.10 misreads
//   them. The newer server's deletes (its migration deletes every 2.9 original) are tombstone records
//   that 2.9.10 counts as messages: the deleted originals come back, records stored after the first
//   tombstone cannot be read by any request (by sequence, next_by_subj, last_by_subj) nor appear in
//   the subject counts, and a stream whose last record is a tombstone reports sequences from 2^62 up.
//   No bounded (or unbounded) read gets every retained message back, so the step is not planned (the
//   gathered state contradicts itself: more messages than sequences, or sequences ≥ 2^62), and the
//   precondition and apply check again (the per-subject counts must add up to the message count too).
//
// Back to the 2.9 shape, in the order that loses nothing:
//   (0) every message is read by sequence (the range is bounded by the consistent state: no consumer,
//       which can wedge a 2.9.10 server's JetStream API) and must be in the step's fsynced backup, and
//       the number read must be the stream's message count; otherwise nothing is changed;
//   (1) one STREAM.UPDATE (read-modify-write): subjects [$MQTT.rmsgs], max_msgs_per_subject -1. It comes
//       before the republish because $MQTT.rmsgs must be a stream subject before anything can be stored
//       there; the per-subject messages stay stored (JetStream keeps messages whose subject leaves the
//       config) and raising the limit purges nothing;
//   (2) the newest record of each topic on $MQTT.rmsgs.<subject> (both encodings) is republished to
//       $MQTT.rmsgs in the JSON encoding 2.9.10 reads (the 2.9 subject of its topic, origin dropped),
//       unless $MQTT.rmsgs already holds a newer record of that topic (a copy of an earlier run, or a
//       client's since the revert); delete markers and topics 2.9 cannot carry ('.' or ' ') stay only
//       in the backup;
//   (3) the per-subject originals are deleted by sequence.
// A revert interrupted after (1) leaves the 2.9 shape with records outside the subjects: the check reports
// that as RETAINED_DOWNGRADE too, and the step continues from (2). Not planned while 2.10+ servers also
// serve the account (Mixed): the revert would break their retained stores, and finishing the upgrade is
// the fix there.

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/topicmapping.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/retainedactionbase.h"
#include "repair/actions/retainedstepbackup.h"
#include "repair/actions/retainedstore.h"
#include "repair/actions/streamconfigedit.h"

namespace MqttDoctor {

namespace {

namespace Store = RetainedStore;
namespace S = StreamConfigEdit;

QString legacyRmsgs()
{
    return MqttLayout::retainedLegacySubject();
}

QJsonObject legacyShapeChanges()
{
    return {{QStringLiteral("subjects"), QJsonArray{legacyRmsgs()}}, {QStringLiteral("max_msgs_per_subject"), -1}};
}

bool isLegacyShaped(const QJsonObject &config)
{
    return Store::shapeOf(config) == Store::Shape::Legacy && Store::perSubjectLimit(config) == -1;
}

quint64 perSubjectMessages(const QHash<QString, quint64> &counts)
{
    quint64 n = 0;
    for (auto it = counts.constBegin(); it != counts.constEnd(); ++it)
        if (Store::isPerSubject(it.key()))
            n += it.value();
    return n;
}

/** The 2.9 subject of a record's topic; empty when 2.9 cannot carry the topic ('.' or ' ' in it). */
QString legacySubjectOf(const RetainedRecord &r)
{
    auto mapped = TopicMapping::topicToSubject(r.topic, TopicMapping::Dialect::V2_9);
    return mapped ? *mapped : QString();
}

/** The messages of $MQTT_rmsgs, all of them: the number read must be the (consistent) message count. */
Result<QList<StreamMessage>> readAll(const ExecContext &ctx)
{
    auto state = Store::consistentState(ctx);
    if (!state)
        return state.error();
    auto messages = Store::readMessages(ctx);
    if (!messages)
        return messages.error();
    if (quint64(messages->size()) != state->messages) {
        // A client may have stored or a server deleted one meanwhile: only a second, equal count is trusted.
        auto again = Store::consistentState(ctx);
        if (!again)
            return again.error();
        if (quint64(messages->size()) != again->messages)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("read %1 message(s) of %2 by sequence, but the stream reports %3; nothing was changed")
                             .arg(messages->size())
                             .arg(MqttLayout::retainedStream())
                             .arg(again->messages),
                         QStringLiteral("run the repair again; if it persists, the server misreads the store (docs/findings.md "
                                        "RETAINED_DOWNGRADE)"));
    }
    return messages;
}

class RevertRetained final : public RetainedActionBase
{
public:
    QString name() const override { return RepairActions::revertRetained(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const StreamInfo *rm = retainedStreamFor(f, ctx, FindingCodes::retainedDowngrade(), QStringLiteral("revert"), note);
        if (!rm)
            return {};
        if (ctx.layout.layout.kind() != MqttLayout::Kind::V2_9) {
            *note = QStringLiteral("%1: 2.10+ servers also serve account \"%2\" and store retained messages per subject; reverting "
                                   "would break them. Finish the upgrade (the 2.9 servers then stop failing), or stop the 2.10+ "
                                   "servers and plan again (no step planned).")
                        .arg(f.code, f.account);
            return {};
        }
        const Store::Shape shape = Store::shapeOf(rm->config);
        if (shape == Store::Shape::Other) {
            *note = QStringLiteral("%1: $MQTT_rmsgs has neither the 2.10+ nor the 2.9 subjects; run check again (no step planned).")
                        .arg(f.code);
            return {};
        }
        if (const QString why = Store::stateContradiction(rm->state); !why.isEmpty()) {
            *note = QStringLiteral("%1: not planned, the 2.9 server misreads $MQTT_rmsgs (%2). This happens when a 2.9 server serves "
                                   "the files a 2.10+ server wrote: deleted records come back and newer ones cannot be read, so no "
                                   "complete backup can be taken. Serve the account with a 2.10+ server again (its data is intact "
                                   "there); see docs/findings.md RETAINED_DOWNGRADE. Nothing was changed.")
                        .arg(f.code, why);
            return {};
        }
        const qint64 messages = rm->state.value(QLatin1String("messages")).toInteger();
        const QString stream = MqttLayout::retainedStream();
        RepairStep s = baseStep(f, ctx);
        s.subject = MqttLayout::retainedSubjects();
        s.description = shape == Store::Shape::Modern
            ? QStringLiteral("Revert %1 to the 2.9 layout: subjects → $MQTT.rmsgs with max_msgs_per_subject -1, republish its %2 "
                             "message(s) to $MQTT.rmsgs in the JSON encoding 2.9 reads (newest per topic), delete the per-subject "
                             "originals")
                  .arg(stream)
                  .arg(messages)
            : QStringLiteral("Finish the interrupted revert of %1: republish the records left on $MQTT.rmsgs.<subject> to $MQTT.rmsgs "
                             "in the JSON encoding 2.9 reads (newest per topic, unless a newer one is there), delete them; %2 "
                             "message(s) in the stream")
                  .arg(stream)
                  .arg(messages);
        const QString get = ctx.apiSubject(QStringLiteral("STREAM.MSG.GET.") + stream);
        s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.INFO.") + stream),
                                    QJsonObject{{QStringLiteral("subjects_filter"), QStringLiteral(">")},
                                                {QStringLiteral("check"),
                                                 QStringLiteral("the state must be consistent (sequences below 2^62, no "
                                                                "more messages than sequences, per-subject counts "
                                                                "adding up); else nothing is changed")}}};
        s.requests << RepairRequest{get,
                                    QJsonObject{{QStringLiteral("seq"), QStringLiteral("<each live sequence>")},
                                                {QStringLiteral("repeat"),
                                                 QStringLiteral("%1 times, every message must be in the "
                                                                "step's backup (no consumer: it can wedge "
                                                                "2.9.10)")
                                                     .arg(messages)}}};
        s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.UPDATE.") + stream),
                                    S::withChanges(rm->config, legacyShapeChanges())};
        s.requests << RepairRequest{
            legacyRmsgs(),
            QJsonObject{{QStringLiteral("publish"),
                         QStringLiteral("the record in the JSON encoding {\"subject\" (2.9 "
                                        "subject of the topic),\"topic\",\"msg\",\"flags\","
                                        "\"source\"} (origin dropped), JetStream publish "
                                        "with a plain inbox reply")},
                        {QStringLiteral("repeat"), QStringLiteral("up to %1 times (newest per topic, oldest first)").arg(messages)}}};
        s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.MSG.DELETE.") + stream),
                                    QJsonObject{{QStringLiteral("seq"), QStringLiteral("<seq of each $MQTT.rmsgs.<subject> original>")},
                                                {QStringLiteral("repeat"), QStringLiteral("%1 times").arg(messages)}}};
        s.diff = S::renderDiff(S::currentValues(rm->config, {QStringLiteral("subjects"), QStringLiteral("max_msgs_per_subject")}),
                               legacyShapeChanges());
        s.precondition = QStringLiteral("%1 still has subjects [$MQTT.rmsgs.>] (or [$MQTT.rmsgs] from an interrupted revert) and a "
                                        "consistent state; already [$MQTT.rmsgs], max_msgs_per_subject -1 and nothing on $MQTT.rmsgs.>: "
                                        "done; anything else stops the plan. The STREAM.UPDATE body is rebuilt from the config read "
                                        "right before it")
                             .arg(stream);
        s.undo = QStringLiteral("delete %1 and restore the step's backup file (nats-mqtt-doctor-cli restore <backup file> "
                                "--allow-changes): it recreates the stream in its 2.10+ shape with every message")
                     .arg(stream);
        s.verification = QStringLiteral("subjects [$MQTT.rmsgs], max_msgs_per_subject -1, nothing left on $MQTT.rmsgs.>, and every "
                                        "topic of the backup 2.9 can carry on $MQTT.rmsgs (a 2.9 MQTT client connects again)");
        s.params = QJsonObject{{QStringLiteral("messages"), messages}};
        *note = QStringLiteral("revert_retained: MQTT connects through the 2.9 servers work again as soon as the step is done (no "
                               "restart); the retained messages are delivered from the next connect on.");
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
        if (shape == Store::Shape::Other)
            return Precondition::changed(
                QStringLiteral("$MQTT_rmsgs now has subjects %1").arg(S::renderValue((*config)->value(QLatin1String("subjects")))));
        auto state = Store::consistentState(ctx);
        if (!state)
            return state.error();
        if (shape == Store::Shape::Legacy && isLegacyShaped(**config) && perSubjectMessages(state->subjects) == 0)
            return Precondition::alreadyDone(QStringLiteral("$MQTT_rmsgs is in the 2.9 layout with nothing left on $MQTT.rmsgs.>"));
        return Precondition::run(); // the 2.10+ shape, or an interrupted revert: continue it
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
        if (Store::shapeOf(**config) == Store::Shape::Other)
            return S::stateChanged(QStringLiteral("$MQTT_rmsgs has unexpected subjects"));

        // (0) Before any change: every message read, and every one of them in the fsynced backup.
        auto first = readAll(ctx);
        if (!first)
            return first.error();
        QList<quint64> all;
        for (const StreamMessage &m : std::as_const(*first))
            all << m.sequence;
        if (auto held = RetainedStepBackup::requireBackedUp(ctx, step, all); !held)
            return held.error();
        replies.append(QJsonObject{
            {QStringLiteral("request"), Store::apiSubject(ctx, QStringLiteral("STREAM.MSG.GET.") + MqttLayout::retainedStream())},
            {QStringLiteral("read"), qint64(all.size())},
            {QStringLiteral("in_backup"), qint64(all.size())}});

        // (1) The 2.9 shape (nothing is purged: the limit goes up, stored messages keep their subjects).
        if (!isLegacyShaped(**config)) {
            auto updated = Store::updateConfig(ctx, legacyShapeChanges());
            if (!updated)
                return updated.error();
            replies.append(*updated);
        }

        // Read again: a 2.9 client may store on $MQTT.rmsgs as soon as the update is in.
        auto messages = readAll(ctx);
        if (!messages)
            return messages.error();
        QHash<QString, quint64> newestLegacy; // topic → highest sequence on $MQTT.rmsgs
        QList<RetainedRecord> perSubject;
        QList<quint64> originals;
        QStringList unrepresentable;
        quint64 skipped = 0;
        for (const StreamMessage &m : std::as_const(*messages)) {
            const bool onLegacy = m.subject == legacyRmsgs();
            if (!onLegacy && !Store::isPerSubject(m.subject))
                continue;
            if (!onLegacy)
                originals << m.sequence;
            auto r = Store::decode(m);
            if (!r || r->isDeleteMarker || r->topic.isEmpty()) {
                skipped += onLegacy ? 0 : 1;
                continue;
            }
            if (onLegacy)
                newestLegacy[r->topic] = qMax(newestLegacy.value(r->topic), m.sequence);
            else
                perSubject << *r;
        }
        if (auto held = RetainedStepBackup::requireBackedUp(ctx, step, originals); !held)
            return held.error();

        // (2) The newest record of each topic, in the encoding 2.9 reads, unless a newer one is on $MQTT.rmsgs.
        QList<Store::Outgoing> outgoing;
        quint64 newerThere = 0;
        for (RetainedRecord r : Store::newestPerTopic(perSubject)) {
            if (newestLegacy.value(r.topic) > r.seq) {
                ++newerThere;
                continue;
            }
            r.subject = legacySubjectOf(r);
            if (r.subject.isEmpty()) {
                unrepresentable << r.topic;
                continue;
            }
            outgoing << Store::Outgoing{legacyRmsgs(), Store::republishBody(r), std::nullopt, r.topic};
        }
        auto published = Store::publishAll(ctx, outgoing);
        if (!published)
            return published.error();
        replies.append(
            QJsonObject{{QStringLiteral("request"), QStringLiteral("publish $MQTT.rmsgs (JSON record, 2.9 subject, origin dropped)")},
                        {QStringLiteral("republished"), qint64(published->stored)},
                        {QStringLiteral("newer_kept"), qint64(newerThere)},
                        {QStringLiteral("undecodable_or_markers"), qint64(skipped)},
                        {QStringLiteral("topics_2_9_cannot_carry"), QJsonArray::fromStringList(unrepresentable)},
                        {QStringLiteral("failed"), qint64(published->failed)},
                        {QStringLiteral("sample_acks"), published->sample}});
        if (published->failed > 0 || published->stored != quint64(outgoing.size()))
            return Error(Error::Kind::JetStream,
                         QStringLiteral("%1 of %2 republishes were not stored, no original was deleted: %3")
                             .arg(quint64(outgoing.size()) - published->stored)
                             .arg(outgoing.size())
                             .arg(published->failures.join(QStringLiteral("; "))));

        // (3) The per-subject originals (all in the backup, checked above).
        auto deleted = Store::deleteSequences(ctx, originals);
        if (!deleted)
            return deleted.error();
        replies.append(QJsonObject{
            {QStringLiteral("request"), Store::apiSubject(ctx, QStringLiteral("STREAM.MSG.DELETE.") + MqttLayout::retainedStream())},
            {QStringLiteral("deleted"), qint64(deleted->deleted)},
            {QStringLiteral("already_gone"), qint64(deleted->alreadyGone)},
            {QStringLiteral("sample_replies"), deleted->sample}});
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto config = Store::currentConfig(ctx);
        if (!config)
            return config.error();
        if (!*config || !isLegacyShaped(**config))
            return Error(Error::Kind::Internal, QStringLiteral("$MQTT_rmsgs is not [$MQTT.rmsgs] with max_msgs_per_subject -1"));
        auto state = Store::consistentState(ctx);
        if (!state)
            return state.error();
        if (const quint64 left = perSubjectMessages(state->subjects); left != 0)
            return Error(Error::Kind::Internal, QStringLiteral("%1 message(s) are still on $MQTT.rmsgs.>").arg(left));
        const QString backup = RetainedStepBackup::stepBackupFile(ctx, step);
        if (backup.isEmpty())
            return {};
        auto expected = RetainedStepBackup::backupRecords(backup, true);
        if (!expected)
            return expected.error();
        auto now = readAll(ctx);
        if (!now)
            return now.error();
        QSet<QString> present;
        for (const StreamMessage &m : std::as_const(*now))
            if (auto r = Store::decode(m); r && m.subject == legacyRmsgs() && !r->isDeleteMarker)
                present.insert(r->topic);
        QStringList missing;
        for (const RetainedRecord &r : Store::newestPerTopic(*expected))
            if (!legacySubjectOf(r).isEmpty() && !present.contains(r.topic))
                missing << r.topic;
        if (!missing.isEmpty())
            return Error(Error::Kind::Internal,
                         QStringLiteral("topics of the backup missing on $MQTT.rmsgs: %1").arg(missing.join(QStringLiteral(", "))));
        return {};
    }
};

} // namespace

const RepairAction *RepairActionFamilies::revertRetainedAction()
{
    static const RevertRetained revert;
    return &revert;
}

} // namespace MqttDoctor
