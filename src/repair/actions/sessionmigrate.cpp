// migrate_legacy_sessions (LEGACY_SESSION_STREAMS): what a server does when it
// creates $MQTT_sess, done by the tool for the streams it left behind. One step per `$MQTT_sess_<hash>`
// stream: back it up, read its record, store the same bytes on `$MQTT.sess.<domainTk><hash(record id)>`
// (JetStream publish with a plain inbox reply, never a `$MQTT.JSA.*` one), read the copy back and
// compare, then delete the legacy stream. Empty streams (the endless 5 s retry loop) and records that
// are not sessions are backed up and deleted. A target subject that already holds a newer record keeps
// it: the legacy record is only in the backup then.
#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "nats/natsheaders.h"
#include "mqtt/sessionrecord.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/sessionlivestate.h"
#include "nats/jetstreampublisher.h"

namespace MqttDoctor::SessionRepair {

namespace {

const QString sessStream = MqttLayout::sessionsStream();

qint64 stateValue(const QJsonObject &info, const char *key)
{
    return info.value(QLatin1String("state")).toObject().value(QLatin1String(key)).toInteger();
}

/** Publishes one record on `subject` of $MQTT_sess with its ack; the stored sequence. */
/** `expectedLast` 0: a plain store; else only over that sequence (Nats-Expected-Last-Subject-Sequence). */
Result<quint64> store(const ExecContext &ctx, const QString &subject, const QByteArray &data, quint64 expectedLast)
{
    std::optional<Result<quint64>> outcome;
    JetStreamPublisher publisher(
        ctx.target.connection, sessStream, [&outcome](quint64, const Result<quint64> &ack) { outcome = ack; }, 1);
    NatsHeaders headers;
    if (expectedLast != 0)
        headers.append(QStringLiteral("Nats-Expected-Last-Subject-Sequence"), QString::number(expectedLast));
    if (auto p = publisher.publish(0, subject, headers, data); !p)
        return p.error();
    if (auto f = publisher.finish(); !f)
        return f.error();
    if (!outcome)
        return Error(Error::Kind::Timeout, QStringLiteral("no acknowledgement for the record stored on %1").arg(subject));
    return *outcome;
}

class MigrateLegacySessions final : public RepairAction
{
public:
    QString name() const override { return RepairActions::migrateLegacySessions(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const StreamInfo *legacy = ctx.stream(f.stream);
        if (!legacy) {
            *note = QStringLiteral("%1: %2 was not among the gathered streams; plan again.").arg(f.code, f.stream);
            return {};
        }
        const qint64 messages = legacy->state.value(QLatin1String("messages")).toInteger();
        const qint64 lastSeq = legacy->state.value(QLatin1String("last_seq")).toInteger();
        const QString prefix = QStringLiteral("$MQTT.sess.") + ctx.layout.layout.domainToken();
        RepairStep s;
        s.action = name();
        s.stream = f.stream;
        s.destructive = true;
        RepairBackupSpec b;
        b.stream = f.stream;
        s.backups = {b};
        const RepairRequest del{ctx.apiSubject(QStringLiteral("STREAM.DELETE.") + f.stream), {}};
        if (messages == 0) {
            s.description = QStringLiteral("Back up and delete the empty legacy session stream %1 (servers that create $MQTT_sess "
                                           "retry moving it every 5 s, forever)")
                                .arg(f.stream);
            s.requests = {del};
        } else {
            s.description = QStringLiteral("Move the session record of the legacy stream %1 (sequence %2) to %3<hash of its client ID> "
                                           "in $MQTT_sess, then delete %1 (backed up). A record that is not a session is only backed "
                                           "up; a newer record already on the target subject is kept")
                                .arg(f.stream)
                                .arg(lastSeq)
                                .arg(prefix);
            s.requests = {
                RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.MSG.GET.") + f.stream), QJsonObject{{QStringLiteral("seq"), lastSeq}}},
                RepairRequest{prefix + QStringLiteral("<hash of the record's id>"),
                              QJsonObject{{QStringLiteral("publish"),
                                           QStringLiteral("the record's bytes, unchanged, JetStream "
                                                          "publish with a plain inbox reply")}}},
                del};
            s.diff = QStringLiteral("+ $MQTT_sess %1<hash of the record's id>: the record of %2\n- stream %2").arg(prefix, f.stream);
        }
        if (!ctx.stream(sessStream))
            *note = QStringLiteral("%1: $MQTT_sess does not exist yet; the record is stored once it is created (an earlier step or "
                                   "the first MQTT connect)")
                        .arg(f.stream);
        s.precondition = QStringLiteral("%1 still exists with %2 message(s), last sequence %3 (gone: already done)")
                             .arg(f.stream)
                             .arg(messages)
                             .arg(lastSeq);
        s.undo = QStringLiteral("restore the step's backup file (recreates %1 with its record); remove the copy with STREAM.PURGE "
                                "of its $MQTT_sess subject (named in the step's reply)")
                     .arg(f.stream);
        s.verification = QStringLiteral("the copy was read back from $MQTT_sess and compared byte for byte before %1 was deleted; %1 "
                                        "no longer exists")
                             .arg(f.stream);
        s.params =
            QJsonObject{{QStringLiteral("messages"), messages}, {QStringLiteral("last_seq"), lastSeq}, {QStringLiteral("prefix"), prefix}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return info.error();
        if (!*info)
            return Precondition::alreadyDone(QStringLiteral("%1 no longer exists").arg(step.stream));
        const qint64 messages = stateValue(**info, "messages");
        const qint64 lastSeq = stateValue(**info, "last_seq");
        if (messages != step.params.value(QLatin1String("messages")).toInteger()
            || lastSeq != step.params.value(QLatin1String("last_seq")).toInteger())
            return Precondition::changed(
                QStringLiteral("%1 now holds %2 message(s), last sequence %3").arg(step.stream).arg(messages).arg(lastSeq));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        QJsonArray replies;
        const qint64 lastSeq = step.params.value(QLatin1String("last_seq")).toInteger();
        if (step.params.value(QLatin1String("messages")).toInteger() > 0) {
            auto moved = move(step, ctx, quint64(lastSeq));
            if (!moved)
                return moved.error();
            replies.append(*moved);
        }
        auto del = ctx.api(QStringLiteral("STREAM.DELETE.") + step.stream);
        if (!del && del.error().jsErrCode() != JsErrors::StreamNotFound)
            return del.error().prefixed(QStringLiteral("deleting %1").arg(step.stream));
        replies.append(del ? *del : QJsonObject{{QStringLiteral("note"), QStringLiteral("%1 was already deleted").arg(step.stream)}});
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return info.error();
        if (*info)
            return Error(Error::Kind::Internal, QStringLiteral("%1 still exists").arg(step.stream));
        return {};
    }

private:
    /** Copies the record to $MQTT_sess (or says why not); an error leaves the legacy stream in place. */
    static Result<QJsonObject> move(const RepairStep &step, const ExecContext &ctx, quint64 lastSeq)
    {
        auto legacy = SessionLiveState::bySequence(ctx, step.stream, lastSeq);
        if (!legacy)
            return legacy.error().prefixed(QStringLiteral("reading the record of %1").arg(step.stream));
        if (!*legacy)
            return Error(Error::Kind::NotFound, QStringLiteral("%1 no longer holds sequence %2").arg(step.stream).arg(lastSeq));
        const SessionLiveState::StoredRecord &record = **legacy;
        auto decoded = SessionRecord::decode(record.data);
        if (!decoded || decoded->id.isEmpty())
            return QJsonObject{{QStringLiteral("note"),
                                QStringLiteral("not a session record (%1): only backed up")
                                    .arg(decoded ? QStringLiteral("no client ID") : decoded.error().message())}};
        const QString target = step.params.value(QLatin1String("prefix")).toString() + ClientIdHash::hash(decoded->id);
        auto existing = SessionLiveState::lastOnSubject(ctx, sessStream, target);
        if (!existing)
            return existing.error().prefixed(QStringLiteral("reading %1").arg(target));
        QJsonObject out{{QStringLiteral("client_id"), decoded->id}, {QStringLiteral("subject"), target}};
        if (*existing && (*existing)->data == record.data) {
            out.insert(QStringLiteral("seq"), qint64((*existing)->seq));
            out.insert(QStringLiteral("note"), QStringLiteral("already on the target subject"));
            return out;
        }
        if (*existing && (record.timeNs == 0 || (*existing)->timeNs >= record.timeNs)) {
            out.insert(QStringLiteral("seq"), qint64((*existing)->seq));
            out.insert(QStringLiteral("note"),
                       QStringLiteral("kept the newer record already on the target subject; the legacy record "
                                      "is only in the backup"));
            return out;
        }
        // Overwrite only the record just read (a client saving meanwhile wins); none: plain store.
        // 0: no expectation (GCC's -Wmaybe-uninitialized misreads an optional here in optimised builds).
        const quint64 expected = *existing ? (*existing)->seq : 0;
        auto seq = store(ctx, target, record.data, expected);
        if (!seq)
            return seq.error().prefixed(QStringLiteral("storing the record of %1 on %2").arg(step.stream, target));
        auto copy = SessionLiveState::bySequence(ctx, sessStream, *seq);
        if (!copy)
            return copy.error().prefixed(QStringLiteral("reading back %1").arg(target));
        if (!*copy || (*copy)->data != record.data || (*copy)->subject != target)
            return Error(Error::Kind::Internal,
                         QStringLiteral("the copy on %1 (sequence %2) differs from the record of %3; %3 was kept")
                             .arg(target)
                             .arg(*seq)
                             .arg(step.stream));
        out.insert(QStringLiteral("stream"), sessStream);
        out.insert(QStringLiteral("seq"), qint64(*seq));
        out.insert(QStringLiteral("note"), QStringLiteral("moved"));
        return out;
    }
};

} // namespace

} // namespace MqttDoctor::SessionRepair

namespace MqttDoctor::RepairActionFamilies {

const RepairAction *migrateLegacySessionsAction()
{
    static const SessionRepair::MigrateLegacySessions action;
    return &action;
}

} // namespace MqttDoctor::RepairActionFamilies
