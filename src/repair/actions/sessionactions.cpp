// The record-level repair actions (docs/findings.md, each code's repair):
// purge_session and delete_session here; create_consumer and delete_consumer in
// sessionconsumeractions.cpp; migrate_legacy_sessions in sessionmigrate.cpp; adopt_durable in sessionadopt.cpp.
//
// Every change is one step per object, so that each step's backup holds exactly what the step removes
// and a rerun after a crash continues step by step (a step whose object is already gone is AlreadyDone):
//
// - purge_session: step 1 backs up the record's subject and purges it up to the planned sequence
//   (`STREAM.PURGE {"filter": S, "seq": N+1}`: a record a client writes meanwhile survives); then one
//   delete_consumer step per durable that only this record could own. SESSION_UNDECODABLE: every
//   `<hash>_*` on $MQTT_msgs and `$MQTT_PUBREL_<hash>` on $MQTT_out (the record cannot say which it
//   had). SESSION_ID_MISMATCH: the durables the record itself names in `cons`/`pubrel`, whatever their
//   hash prefix, because a record copied from another subject names that client's durables; those
//   another record still references are kept (and said so), the `<hash>_*` durables it does not name
//   are left to ORPHAN_CONSUMER (the operator sees their pending counts first).
// - delete_session: step 1 backs up and purges the record (up to its planned sequence), then one
//   delete_consumer step per durable of the record. Record first: a client that reconnects in
//   between gets a fresh session and the leftovers are orphans; consumers first would leave a record
//   whose durables are missing (no delivery).
#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/gatheredsessions.h"
#include "repair/actions/sessionconsumeractions.h"
#include "repair/actions/sessionlivestate.h"

namespace MqttDoctor {

namespace SessionRepair {
namespace {

const QString sessStream = MqttLayout::sessionsStream();

/** Step 1 of purge_session and delete_session: back up the subject, purge it up to the planned record. */
RepairStep purgeStep(const QString &action, const PlanContext &ctx, const SessionEntry &entry)
{
    RepairStep s;
    s.id = QStringLiteral("1");
    s.action = action;
    s.stream = sessStream;
    s.subject = entry.subject;
    s.requests = {RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.PURGE.") + sessStream),
                                QJsonObject{{QStringLiteral("filter"), entry.subject}, {QStringLiteral("seq"), qint64(entry.seq + 1)}}}};
    s.destructive = true;
    RepairBackupSpec b;
    b.stream = sessStream;
    b.subject = entry.subject;
    b.allConsumers = false;
    s.backups = {b};
    s.undo = QStringLiteral("restore the step's backup file (puts the record back on %1)").arg(entry.subject);
    s.verification = QStringLiteral("no record up to sequence %1 is left on %2").arg(entry.seq).arg(entry.subject);
    s.params = QJsonObject{{QStringLiteral("seq"), qint64(entry.seq)}, {QStringLiteral("hash"), entry.hash}};
    return s;
}

/** The delete_consumer steps after a purge step, numbered from 2 and depending on step 1. */
void addConsumerSteps(QList<RepairStep> &steps, const PlanContext &ctx, const SessionEntry &entry, const QStringList &names,
                      const QString &why, bool whileConnected = false)
{
    for (const QString &name : names) {
        const QString stream = GatheredSessions::consumerInfo(ctx, name).value(QLatin1String("stream")).toString();
        QList<WatchedSubject> watched{{entry.subject, entry.seq, true}};
        const QString owner = MqttLayout::durableOwnerHash(stream, name);
        if (!owner.isEmpty() && owner != entry.hash) {
            const QString other = GatheredSessions::subjectOfHash(ctx, owner);
            const SessionEntry *e = GatheredSessions::entryOn(ctx, other);
            watched.append({other, e ? e->seq : 0, false});
        }
        RepairStep s = deleteConsumerStep(ctx, stream, name, why, watched);
        s.id = QString::number(steps.size() + 1);
        s.dependsOn = {QStringLiteral("1")};
        s.clientId = entry.clientId;
        if (whileConnected) {
            // The session's own client is connected (a stuck session reset under it): that does not stop the step.
            s.params.insert(QStringLiteral("while_connected"), true);
            s.precondition = QStringLiteral("%1 still exists and no session record on %2 references it or was written since the plan "
                                            "(the client may stay connected)")
                                 .arg(name, entry.subject);
        }
        steps.append(s);
    }
}

/** Of `names`, the gathered durables no other record references; the others go to `kept`. */
QStringList removable(const PlanContext &ctx, const SessionEntry &entry, const QStringList &names, QStringList *kept)
{
    QStringList out;
    for (const QString &name : names) {
        if (GatheredSessions::consumerInfo(ctx, name).isEmpty())
            continue; // does not exist
        const QStringList others = GatheredSessions::referencingSubjects(ctx, name, entry.subject);
        if (others.isEmpty())
            out << name;
        else
            *kept << QStringLiteral("%1 (referenced by the record on %2)").arg(name, others.join(QStringLiteral(", ")));
    }
    return out;
}

Result<Precondition> purgePrecondition(const RepairStep &step, const ExecContext &ctx)
{
    const quint64 planned = quint64(step.params.value(QLatin1String("seq")).toInteger());
    auto rec = SessionLiveState::lastOnSubject(ctx, sessStream, step.subject);
    if (!rec)
        return rec.error();
    if (!*rec)
        return Precondition::alreadyDone(QStringLiteral("%1 holds no record").arg(step.subject));
    if ((*rec)->seq != planned)
        return Precondition::changed(QStringLiteral("the record on %1 is now sequence %2, not %3: a client wrote its session since "
                                                    "the plan")
                                         .arg(step.subject)
                                         .arg((*rec)->seq)
                                         .arg(planned));
    return Precondition::run();
}

Result<QJsonArray> purgeApply(const QString &action, const RepairStep &step, const ExecContext &ctx)
{
    if (auto w = ctx.target.checkWritable(action); !w)
        return w.error();
    const quint64 planned = quint64(step.params.value(QLatin1String("seq")).toInteger());
    // Up to and including the planned record only ("seq" is exclusive); never below 2 (2.9 reads 0 and 1 as "no sequence").
    auto reply =
        ctx.api(QStringLiteral("STREAM.PURGE.") + sessStream,
                QJsonObject{{QStringLiteral("filter"), step.subject}, {QStringLiteral("seq"), qint64(qMax<quint64>(planned, 1) + 1)}});
    if (!reply)
        return reply.error().prefixed(QStringLiteral("purging %1").arg(step.subject));
    return QJsonArray{*reply};
}

Result<void> purgeVerify(const RepairStep &step, const ExecContext &ctx)
{
    const quint64 planned = quint64(step.params.value(QLatin1String("seq")).toInteger());
    auto rec = SessionLiveState::lastOnSubject(ctx, sessStream, step.subject);
    if (!rec)
        return rec.error();
    if (*rec && (*rec)->seq <= planned)
        return Error(Error::Kind::Internal, QStringLiteral("the record at sequence %1 is still on %2").arg((*rec)->seq).arg(step.subject));
    return {};
}

class PurgeSession final : public RepairAction
{
public:
    QString name() const override { return RepairActions::purgeSession(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const SessionEntry *entry = GatheredSessions::entryOn(ctx, f.subject);
        if (!entry) {
            *note = QStringLiteral("%1 (%2): the record was not gathered; run check with the account's credentials and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        const bool undecodable = f.code == FindingCodes::sessionUndecodable();
        RepairStep s = purgeStep(name(), ctx, *entry);
        s.clientId = f.clientId;
        QStringList names;
        QString why;
        if (undecodable) {
            s.description = QStringLiteral("Back up and purge the undecodable session record on %1 (sequence %2); the client whose ID "
                                           "hashes to %3 then connects with a new session")
                                .arg(entry->subject)
                                .arg(entry->seq)
                                .arg(entry->hash);
            names = GatheredSessions::durablesOfHash(ctx, entry->hash);
            why = QStringLiteral("of the undecodable record on %1 (hash %2)").arg(entry->subject, entry->hash);
        } else {
            s.description = QStringLiteral("Back up and purge the record on %1 (sequence %2), which holds the foreign client ID \"%3\" "
                                           "(hash %4); the client whose ID hashes to %5 then connects with a new session")
                                .arg(entry->subject)
                                .arg(entry->seq)
                                .arg(entry->clientId, ClientIdHash::hash(entry->clientId), entry->hash);
            if (entry->record)
                names = entry->record->durableNames();
            why = QStringLiteral("named by the foreign record on %1").arg(entry->subject);
        }
        s.precondition = QStringLiteral("the last record on %1 is still sequence %2 (none left: already done; a newer one: a client "
                                        "wrote its session since the plan, stop)")
                             .arg(entry->subject)
                             .arg(entry->seq);
        QList<RepairStep> steps{s};
        QStringList kept;
        addConsumerSteps(steps, ctx, *entry, removable(ctx, *entry, names, &kept), why);
        QStringList notes;
        if (!kept.isEmpty())
            notes << QStringLiteral("%1: kept %2").arg(entry->subject, kept.join(QStringLiteral(", ")));
        if (!undecodable)
            notes << QStringLiteral("%1: only the durables the foreign record names are deleted (a record copied from another "
                                    "subject names that client's durables); other %2_* durables are reported as ORPHAN_CONSUMER")
                         .arg(entry->subject, entry->hash);
        *note = notes.join(QStringLiteral("; "));
        return steps;
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        return purgePrecondition(step, ctx);
    }
    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override { return purgeApply(name(), step, ctx); }
    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override { return purgeVerify(step, ctx); }
};

class DeleteSession final : public RepairAction
{
public:
    QString name() const override { return RepairActions::deleteSession(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const SessionEntry *entry = GatheredSessions::entryOn(ctx, f.subject);
        if (!entry || !entry->record) {
            *note = QStringLiteral("%1 (%2): the record was not gathered; run check with the account's credentials and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        RepairStep s = purgeStep(name(), ctx, *entry);
        s.clientId = entry->clientId;
        qint64 pending = 0;
        for (const SessionConsumer &c : entry->consumers)
            pending += c.exists ? c.pending() : 0;
        // A stuck consumer's client is connected: its session is reset under it (it gets nothing until it reconnects).
        const bool reset = f.code == FindingCodes::consumerStuck();
        const QString kind = reset                     ? QStringLiteral("Reset the stuck session")
            : f.code == FindingCodes::interestPinned() ? QStringLiteral("Delete the offline session")
                                                       : QStringLiteral("Delete the stale session");
        s.description = QStringLiteral("%1 \"%2\": back up and purge its record on %3 (sequence %4, written %5), then delete its "
                                       "durables; the client loses the %6 queued message(s) they hold")
                            .arg(kind, entry->clientId, entry->subject)
                            .arg(entry->seq)
                            .arg(entry->time.toString(Qt::ISODate))
                            .arg(pending);
        if (reset) {
            s.description += QStringLiteral(". It stays connected but receives nothing until it reconnects; then it starts a clean "
                                            "session (CONNACK session present 0) and must subscribe again");
            s.precondition = QStringLiteral("the last record on %1 is still sequence %2 (the client reconnected or changed its "
                                            "subscriptions since the plan: stop); the client may stay connected")
                                 .arg(entry->subject)
                                 .arg(entry->seq);
        } else {
            s.precondition = QStringLiteral("the last record on %1 is still sequence %2 (servers save the session at every CONNECT, so "
                                            "a reconnect since the plan shows as a newer one: stop) and \"%3\" is not connected (CONNZ "
                                            "through the account's own connection; where no server answers it, the unchanged record "
                                            "is the only proof)")
                                 .arg(entry->subject)
                                 .arg(entry->seq)
                                 .arg(entry->clientId);
        }
        s.params.insert(QStringLiteral("client_id"), entry->clientId);
        s.params.insert(QStringLiteral("queued"), pending);
        if (reset)
            s.params.insert(QStringLiteral("while_connected"), true);
        QList<RepairStep> steps{s};
        QStringList kept;
        addConsumerSteps(steps, ctx, *entry, removable(ctx, *entry, entry->record->durableNames(), &kept),
                         QStringLiteral("of the %1 session \"%2\"")
                             .arg(reset                                          ? QStringLiteral("stuck")
                                      : f.code == FindingCodes::interestPinned() ? QStringLiteral("offline")
                                                                                 : QStringLiteral("stale"),
                                  entry->clientId),
                         reset);
        if (!kept.isEmpty())
            *note = QStringLiteral("%1: kept %2").arg(entry->subject, kept.join(QStringLiteral(", ")));
        return steps;
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto pre = purgePrecondition(step, ctx);
        if (!pre || pre->verdict != Precondition::Verdict::Run)
            return pre;
        if (step.params.value(QLatin1String("while_connected")).toBool())
            return pre;
        const QString clientId = step.params.value(QLatin1String("client_id")).toString();
        const auto clients = SessionLiveState::connectedNow(ctx, clientId);
        if (clients && clients->contains(clientId))
            return Precondition::changed(QStringLiteral("\"%1\" is connected to %2").arg(clientId, clients->value(clientId)));
        Precondition run = Precondition::run();
        if (!clients)
            run.reason = QStringLiteral("connected state not re-checked (no server answered CONNZ); the record is unchanged");
        return run;
    }
    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override { return purgeApply(name(), step, ctx); }
    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override { return purgeVerify(step, ctx); }
};

} // namespace
} // namespace SessionRepair

namespace RepairActionFamilies {

QList<const RepairAction *> sessionActions()
{
    static const SessionRepair::PurgeSession purge;
    static const SessionRepair::DeleteSession deleteSession;
    return {&purge, createConsumerAction(), deleteConsumerAction(), &deleteSession, migrateLegacySessionsAction(), adoptDurableAction()};
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
