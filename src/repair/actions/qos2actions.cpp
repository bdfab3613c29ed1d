// delete_qos2_records (QOS2_ORPHANED): the records of $MQTT_qos2in or $MQTT_out whose session is gone,
// backed up, then deleted by sequence (exactly the ones the plan saw, never a subject's later records).
#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/gatheredsessions.h"
#include "repair/actions/sessionlivestate.h"

namespace MqttDoctor {

namespace {

QList<quint64> sequencesOf(const QJsonObject &params)
{
    QList<quint64> out;
    for (const QJsonValue &v : params.value(QLatin1String("sequences")).toArray())
        out << quint64(v.toInteger());
    return out;
}

class DeleteQos2Records final : public RepairAction
{
public:
    QString name() const override { return RepairActions::deleteQos2Records(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const QJsonObject actual = f.actual.toObject();
        const QString hash = actual.value(QLatin1String("hash")).toString();
        const QJsonArray seqs = actual.value(QLatin1String("sequences")).toArray();
        if (hash.isEmpty() || seqs.isEmpty()) {
            *note = QStringLiteral("%1 (%2): the records were not gathered; run check with the account's credentials and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        const QString sessionSubject = GatheredSessions::subjectOfHash(ctx, hash);
        QStringList seqText;
        for (const QJsonValue &v : seqs)
            seqText << QString::number(v.toInteger());
        RepairStep s;
        s.action = name();
        s.stream = f.stream;
        s.subject = f.subject;
        s.clientId = f.clientId;
        s.destructive = true;
        s.description = QStringLiteral("Delete the %1 record(s) of the gone session %2 from %3 (sequences %4)")
                            .arg(seqs.size())
                            .arg(f.clientId.isEmpty() ? QStringLiteral("of hash ") + hash : QStringLiteral("\"%1\"").arg(f.clientId),
                                 f.stream, seqText.join(QStringLiteral(", ")));
        for (const QJsonValue &v : seqs)
            s.requests << RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.MSG.DELETE.") + f.stream),
                                        QJsonObject{{QStringLiteral("seq"), v.toInteger()}, {QStringLiteral("no_erase"), true}}};
        RepairBackupSpec backup;
        backup.stream = f.stream;
        backup.subject = f.subject; // empty (the whole stream) when the client ID makes no subject filter
        backup.allConsumers = false;
        s.backups = {backup};
        s.precondition =
            QStringLiteral("%1 still holds no session record (no client with hash %2 connected since the plan), no such client "
                           "is connected, and the sequences still hold records of that session")
                .arg(sessionSubject, hash);
        s.undo = QStringLiteral("restore the backup (restore FILE --merge): the records are published again on their subjects");
        s.verification = QStringLiteral("STREAM.MSG.GET of each sequence on %1 finds no message").arg(f.stream);
        s.params = QJsonObject{
            {QStringLiteral("hash"), hash}, {QStringLiteral("session_subject"), sessionSubject}, {QStringLiteral("sequences"), seqs}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QString hash = step.params.value(QLatin1String("hash")).toString();
        const QString sessionSubject = step.params.value(QLatin1String("session_subject")).toString();
        auto rec = SessionLiveState::lastOnSubject(ctx, MqttLayout::sessionsStream(), sessionSubject);
        if (!rec)
            return rec.error();
        if (*rec)
            return Precondition::changed(QStringLiteral("a session record was written on %1 since the plan (sequence %2): the session "
                                                        "exists again and its QoS 2 records are its own")
                                             .arg(sessionSubject)
                                             .arg((*rec)->seq));
        if (const auto clients = SessionLiveState::connectedNow(ctx)) {
            for (auto it = clients->cbegin(); it != clients->cend(); ++it)
                if (ClientIdHash::hash(it.key()) == hash)
                    return Precondition::changed(
                        QStringLiteral("MQTT client \"%1\", whose ID hashes to %2, is connected to %3").arg(it.key(), hash, it.value()));
        }
        int present = 0;
        for (quint64 seq : sequencesOf(step.params)) {
            auto msg = SessionLiveState::bySequence(ctx, step.stream, seq);
            if (!msg)
                return msg.error();
            if (!*msg)
                continue;
            const QString owner = (*msg)->subject;
            const bool ours = step.stream == MqttLayout::outStream() ? owner.endsWith(QLatin1Char('.') + hash)
                                                                     : ClientIdHash::hash(owner.section(QLatin1Char('.'), 3, -2)) == hash;
            if (!ours)
                return Precondition::changed(
                    QStringLiteral("sequence %1 of %2 now holds %3, not a record of hash %4").arg(seq).arg(step.stream, owner, hash));
            ++present;
        }
        if (present == 0)
            return Precondition::alreadyDone(QStringLiteral("none of the records is in %1 any more").arg(step.stream));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        QJsonArray replies;
        for (quint64 seq : sequencesOf(step.params)) {
            auto reply = ctx.api(QStringLiteral("STREAM.MSG.DELETE.") + step.stream,
                                 QJsonObject{{QStringLiteral("seq"), qint64(seq)}, {QStringLiteral("no_erase"), true}});
            if (reply) {
                replies.append(*reply);
                continue;
            }
            // Gone already (a rerun, or the client released it meanwhile): not fatal.
            auto still = SessionLiveState::bySequence(ctx, step.stream, seq);
            if (still && !*still) {
                replies.append(QJsonObject{{QStringLiteral("note"), QStringLiteral("sequence %1 was already gone").arg(seq)}});
                continue;
            }
            return reply.error().prefixed(QStringLiteral("deleting sequence %1 of %2").arg(seq).arg(step.stream));
        }
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        for (quint64 seq : sequencesOf(step.params)) {
            auto msg = SessionLiveState::bySequence(ctx, step.stream, seq);
            if (!msg)
                return msg.error();
            if (*msg)
                return Error(Error::Kind::Internal, QStringLiteral("sequence %1 of %2 is still there").arg(seq).arg(step.stream));
        }
        return {};
    }
};

} // namespace

namespace RepairActionFamilies {

QList<const RepairAction *> qos2Actions()
{
    static const DeleteQos2Records deleteRecords;
    return {&deleteRecords};
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
