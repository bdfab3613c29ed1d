// delete_sessions (an operator's `delete-sessions`, docs/safety.md): one step per batch of sessions. The step
// reads each planned record again and asks CONNZ which clients are connected; a record that was rewritten or whose
// client connected since the plan is left alone (and said so in the step's reply), one already gone is done. Then
// it backs up what it deletes (the records, the durables' configs, the QoS 2 records) into files of its own, deletes
// by sequence and by name with many requests in flight, and, where the profile names the account's MQTT user,
// connects once with each deleted client ID and a clean session so that a server holding the session in memory
// forgets it. verify() reads every planned sequence and durable back.
#include <QHash>
#include <QJsonArray>
#include <QSet>

#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttwireclient.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/paramkey.h"
#include "repair/repairaction.h"
#include "repair/actions/sequencebackup.h"
#include "repair/actions/sessionlivestate.h"

namespace MqttDoctor {

namespace {

const QString sessStream = MqttLayout::sessionsStream();

struct PlannedSession
{
    QString subject;
    quint64 seq = 0;
    QString clientId;
};

struct PlannedObject
{
    QString stream;
    QString name; ///< consumers
    quint64 seq = 0; ///< QoS 2 records
    QString session; ///< the subject of the session it belongs to
};

QList<PlannedSession> plannedSessions(const RepairStep &step)
{
    QList<PlannedSession> out;
    for (const QJsonValue &v : step.params.value(paramKey("sessions")).toArray()) {
        const QJsonObject o = v.toObject();
        out.append({o.value(paramKey("subject")).toString(), quint64(o.value(paramKey("seq")).toInteger()),
                    o.value(paramKey("client_id")).toString()});
    }
    return out;
}

QList<PlannedObject> plannedObjects(const RepairStep &step, const char *what)
{
    QList<PlannedObject> out;
    for (const QJsonValue &v : step.params.value(paramKey(what)).toArray()) {
        const QJsonObject o = v.toObject();
        out.append({o.value(paramKey("stream")).toString(), o.value(paramKey("name")).toString(),
                    quint64(o.value(paramKey("seq")).toInteger()), o.value(paramKey("session")).toString()});
    }
    return out;
}

/** What the batch's sessions are now: still the planned record (and whether connected), rewritten, or gone. */
struct BatchState
{
    QList<BackupMessage> present; ///< the records still at their planned sequence, not connected
    QSet<QString> deleting; ///< their subjects
    QList<QJsonObject> left; ///< {client_id, subject, why}
    qint64 gone = 0;
};

Result<BatchState> readBatch(const ExecContext &ctx, const QList<PlannedSession> &sessions)
{
    QList<quint64> seqs;
    for (const PlannedSession &s : sessions)
        seqs << s.seq;
    auto records = SequenceBackup::read(ctx, sessStream, seqs);
    if (!records)
        return records.error();
    const auto connected = SessionLiveState::connectedNow(ctx);
    BatchState out;
    QList<qsizetype> missing;
    for (qsizetype i = 0; i < sessions.size(); ++i) {
        const PlannedSession &s = sessions.at(i);
        const std::optional<BackupMessage> &m = records->at(i);
        if (!m) {
            missing << i;
            continue;
        }
        if (connected && !s.clientId.isEmpty() && connected->contains(s.clientId)) {
            out.left.append(
                QJsonObject{{paramKey("client_id"), s.clientId},
                            {paramKey("subject"), s.subject},
                            {paramKey("why"), QStringLiteral("connected to %1 since the plan").arg(connected->value(s.clientId))}});
            continue;
        }
        out.present << *m;
        out.deleting.insert(s.subject);
    }
    // A planned sequence that is gone: the session was deleted already, or its client wrote a new record since.
    if (!missing.isEmpty()) {
        QList<ExecContext::ApiCall> calls;
        for (qsizetype i : missing)
            calls.append({QStringLiteral("STREAM.MSG.GET.") + sessStream, QJsonObject{{paramKey("last_by_subj"), sessions.at(i).subject}}});
        auto last = ctx.apiEach(calls);
        if (!last)
            return last.error().prefixed(QStringLiteral("reading %1").arg(sessStream));
        for (qsizetype j = 0; j < missing.size(); ++j) {
            const PlannedSession &s = sessions.at(missing.at(j));
            if (last->at(j)) {
                out.left.append(QJsonObject{{paramKey("client_id"), s.clientId},
                                            {paramKey("subject"), s.subject},
                                            {paramKey("why"), QStringLiteral("its client wrote a new session record since the plan")}});
            } else if (last->at(j).error().jsErrCode() == JsErrors::NoMessageFound) {
                ++out.gone;
            } else {
                return Error(last->at(j).error()).prefixed(QStringLiteral("reading %1").arg(s.subject));
            }
        }
    }
    return out;
}

/** Deletes in one go of requests; a reply saying the object is gone already counts as done. The number deleted. */
Result<qint64> deleteAll(const ExecContext &ctx, const QList<ExecContext::ApiCall> &calls, const QString &what)
{
    auto replies = ctx.apiEach(calls);
    if (!replies)
        return replies.error().prefixed(QStringLiteral("deleting %1").arg(what));
    qint64 deleted = 0;
    for (qsizetype i = 0; i < replies->size(); ++i) {
        const Result<QJsonObject> &r = replies->at(i);
        if (r) {
            ++deleted;
            continue;
        }
        const int code = r.error().jsErrCode();
        if (code == JsErrors::NoMessageFound || code == JsErrors::ConsumerNotFound)
            continue;
        return Error(r.error()).prefixed(QStringLiteral("deleting %1 (%2 of %3 done)").arg(what).arg(deleted).arg(calls.size()));
    }
    return deleted;
}

class DeleteSessions final : public RepairAction
{
public:
    QString name() const override { return RepairActions::deleteSessions(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &, QString *note) const override
    {
        *note = QStringLiteral("%1: delete_sessions is an operator action (delete-sessions), not a finding's repair").arg(f.code);
        return {};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QList<PlannedSession> sessions = plannedSessions(step);
        auto state = readBatch(ctx, sessions);
        if (!state)
            return state.error();
        if (state->present.isEmpty() && state->left.isEmpty())
            return Precondition::alreadyDone(QStringLiteral("the %1 session record(s) are gone already").arg(sessions.size()));
        Precondition run = Precondition::run();
        if (!state->left.isEmpty() || state->gone > 0)
            run.reason = QStringLiteral("%1 of %2 to delete; %3 gone already, %4 left alone (changed or connected since the plan)")
                             .arg(state->present.size())
                             .arg(sessions.size())
                             .arg(state->gone)
                             .arg(state->left.size());
        return run;
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(QStringLiteral("delete-sessions")); !w)
            return w.error();
        const QList<PlannedSession> sessions = plannedSessions(step);
        auto state = readBatch(ctx, sessions);
        if (!state)
            return state.error();
        QJsonArray replies;
        // The durables and QoS 2 records of the sessions that go; those of sessions left alone stay.
        QList<std::pair<QString, QString>> consumerNames;
        for (const PlannedObject &c : plannedObjects(step, "consumers"))
            if (state->deleting.contains(c.session))
                consumerNames.append({c.stream, c.name});
        auto infos = SequenceBackup::consumers(ctx, consumerNames);
        if (!infos)
            return infos.error();
        QHash<QString, QList<QJsonObject>> consumersByStream;
        QList<ExecContext::ApiCall> consumerDeletes;
        for (qsizetype i = 0; i < consumerNames.size(); ++i)
            if (infos->at(i)) {
                consumersByStream[consumerNames.at(i).first].append(*infos->at(i));
                consumerDeletes.append(
                    {QStringLiteral("CONSUMER.DELETE.%1.%2").arg(consumerNames.at(i).first, consumerNames.at(i).second), {}});
            }
        QHash<QString, QList<quint64>> qos2Seqs;
        for (const PlannedObject &q : plannedObjects(step, "qos2"))
            if (state->deleting.contains(q.session))
                qos2Seqs[q.stream].append(q.seq);
        QHash<QString, QList<BackupMessage>> qos2Messages;
        QList<ExecContext::ApiCall> qos2Deletes;
        for (auto it = qos2Seqs.cbegin(); it != qos2Seqs.cend(); ++it) {
            auto read = SequenceBackup::read(ctx, it.key(), it.value());
            if (!read)
                return read.error();
            for (const std::optional<BackupMessage> &m : *read)
                if (m) {
                    qos2Messages[it.key()].append(*m);
                    qos2Deletes.append({QStringLiteral("STREAM.MSG.DELETE.") + it.key(),
                                        QJsonObject{{paramKey("seq"), qint64(m->seq)}, {paramKey("no_erase"), true}}});
                }
        }
        // docs/safety.md, "Nothing is lost": every file complete on disk before anything is deleted.
        int index = 0;
        const auto backUp = [&](const QString &stream, const QList<BackupMessage> &messages,
                                const QList<QJsonObject> &consumers) -> Result<void> {
            if (messages.isEmpty() && consumers.isEmpty())
                return {};
            auto path = SequenceBackup::write(ctx, step, stream, messages, consumers, index++);
            if (!path)
                return path.error();
            replies.append(QJsonObject{{paramKey("backup"), *path}});
            return {};
        };
        if (auto b = backUp(sessStream, state->present, {}); !b)
            return b.error();
        QSet<QString> streams(qos2Messages.keyBegin(), qos2Messages.keyEnd());
        for (auto it = consumersByStream.cbegin(); it != consumersByStream.cend(); ++it)
            streams.insert(it.key());
        QStringList ordered(streams.cbegin(), streams.cend());
        ordered.sort();
        for (const QString &stream : std::as_const(ordered))
            if (auto b = backUp(stream, qos2Messages.value(stream), consumersByStream.value(stream)); !b)
                return b.error();
        // Records first: a client that reconnects in between starts a fresh session and the rest are orphans a rerun
        // or ORPHAN_CONSUMER takes; durables first would leave records whose durables are missing.
        QList<ExecContext::ApiCall> recordDeletes;
        for (const BackupMessage &m : std::as_const(state->present))
            recordDeletes.append({QStringLiteral("STREAM.MSG.DELETE.") + sessStream,
                                  QJsonObject{{paramKey("seq"), qint64(m.seq)}, {paramKey("no_erase"), true}}});
        auto records = deleteAll(ctx, recordDeletes, QStringLiteral("the session records"));
        if (!records)
            return records.error();
        auto durables = deleteAll(ctx, consumerDeletes, QStringLiteral("the durables"));
        if (!durables)
            return durables.error();
        auto qos2 = deleteAll(ctx, qos2Deletes, QStringLiteral("the QoS 2 records"));
        if (!qos2)
            return qos2.error();
        const qint64 flushed = flushThroughMqtt(step, ctx, sessions, state->deleting);
        QJsonObject summary{{paramKey("deleted"), *records},
                            {paramKey("already_gone"), state->gone},
                            {paramKey("durables_deleted"), *durables},
                            {paramKey("qos2_deleted"), *qos2},
                            {paramKey("left"), QJsonArray::fromVariantList({})}};
        QJsonArray left;
        for (const QJsonObject &l : std::as_const(state->left))
            left.append(l);
        summary.insert(paramKey("left"), left);
        if (flushed >= 0)
            summary.insert(paramKey("forgotten_through_mqtt"), flushed);
        replies.append(summary);
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QList<PlannedSession> sessions = plannedSessions(step);
        QList<quint64> seqs;
        for (const PlannedSession &s : sessions)
            seqs << s.seq;
        auto records = SequenceBackup::read(ctx, sessStream, seqs);
        if (!records)
            return records.error();
        QSet<QString> stayed; // planned records still there: only a client connected now may keep its own
        std::optional<SessionLoader::ConnectedClients> connected;
        for (qsizetype i = 0; i < sessions.size(); ++i) {
            if (!records->at(i))
                continue;
            if (!connected)
                connected = SessionLiveState::connectedNow(ctx).value_or(SessionLoader::ConnectedClients());
            if (!connected->contains(sessions.at(i).clientId))
                return Error(Error::Kind::Internal,
                             QStringLiteral("the record of \"%1\" at sequence %2 is still on %3")
                                 .arg(sessions.at(i).clientId)
                                 .arg(sessions.at(i).seq)
                                 .arg(sessions.at(i).subject));
            stayed.insert(sessions.at(i).subject);
        }
        QList<std::pair<QString, QString>> names;
        for (const PlannedObject &c : plannedObjects(step, "consumers"))
            if (!stayed.contains(c.session))
                names.append({c.stream, c.name});
        auto infos = SequenceBackup::consumers(ctx, names);
        if (!infos)
            return infos.error();
        for (qsizetype i = 0; i < names.size(); ++i)
            if (infos->at(i))
                return Error(Error::Kind::Internal,
                             QStringLiteral("the durable %1 is still on %2").arg(names.at(i).second, names.at(i).first));
        return {};
    }

private:
    /** Connects once with each deleted client ID and a clean session (the server forgets its cached copy); -1 when not asked. */
    static qint64 flushThroughMqtt(const RepairStep &step, const ExecContext &ctx, const QList<PlannedSession> &sessions,
                                   const QSet<QString> &deleted)
    {
        if (!ctx.target.mqtt || !step.params.value(paramKey("flush_through_mqtt")).toBool())
            return -1;
        qint64 done = 0;
        for (const PlannedSession &s : sessions) {
            if (!deleted.contains(s.subject) || s.clientId.isEmpty())
                continue;
            if (ctx.cancel && ctx.cancel->load())
                break;
            // Refused once by a 2.9 server that held the session: that refusal is what makes it forget.
            MqttWireClient client(*ctx.target.mqtt, s.clientId, true);
            QString why;
            client.connect(&why);
            client.disconnect();
            ++done;
        }
        return done;
    }
};

} // namespace

namespace RepairActionFamilies {

const RepairAction *deleteSessionsAction()
{
    static const DeleteSessions action;
    return &action;
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
