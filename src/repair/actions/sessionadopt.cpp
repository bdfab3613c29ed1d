// adopt_durable (SESSION_DURABLE_REPLACED): the session record names a durable that no longer exists while
// the server's newer durable for the same subscription (same hash, stream and filter) exists unnamed. The
// record is rewritten to name the live durable, with its actual config, as the server would have written
// it: the live durable keeps its pending messages and the client gets them when it reconnects. Recreating
// the named durable instead would start it empty and leave the live one pinning messages.
//
// One destructive step: the record's subject is backed up, then the rewritten record is stored only over
// the planned sequence (Nats-Expected-Last-Subject-Sequence), so a record the client writes meanwhile wins.
#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "nats/natsheaders.h"
#include "mqtt/sessionrecord.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/gatheredsessions.h"
#include "repair/actions/sessionlivestate.h"
#include "nats/jetstreampublisher.h"

namespace MqttDoctor::SessionRepair {

namespace {

/** Stores `data` on `subject` of $MQTT_sess only over `expectedLast`; the stored sequence. */
Result<quint64> storeAdoptedRecord(const ExecContext &ctx, const QString &subject, const QByteArray &data, quint64 expectedLast)
{
    std::optional<Result<quint64>> outcome;
    JetStreamPublisher publisher(
        ctx.target.connection, MqttLayout::sessionsStream(), [&outcome](quint64, const Result<quint64> &ack) { outcome = ack; }, 1);
    NatsHeaders headers;
    headers.append(QStringLiteral("Nats-Expected-Last-Subject-Sequence"), QString::number(expectedLast));
    if (auto p = publisher.publish(0, subject, headers, data); !p)
        return p.error();
    if (auto f = publisher.finish(); !f)
        return f.error();
    if (!outcome)
        return Error(Error::Kind::Timeout, QStringLiteral("no acknowledgement for the record stored on %1").arg(subject));
    return *outcome;
}

/** The durable name `cons[sid]` of the record body names; empty when undecodable or absent. */
QString adoptedNameIn(const QByteArray &body, const QString &sid)
{
    auto rec = SessionRecord::decode(body);
    if (!rec || !rec->cons.contains(sid))
        return {};
    return rec->cons.value(sid).durableName();
}

class AdoptDurable final : public RepairAction
{
public:
    QString name() const override { return RepairActions::adoptDurable(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const QString recorded = f.expected.toObject().value(QLatin1String("consumer")).toString();
        const QString live = f.actual.toObject().value(QLatin1String("live")).toString();
        const SessionEntry *entry = GatheredSessions::entryOn(ctx, f.subject);
        QString sid;
        if (entry)
            for (const SessionConsumer &c : entry->consumers)
                if (c.name == recorded && !c.exists)
                    sid = c.sid;
        const QJsonObject liveInfo = GatheredSessions::consumerInfo(ctx, live);
        if (!entry || !entry->record || sid.isEmpty() || liveInfo.isEmpty()) {
            *note = QStringLiteral("%1 (%2): the record or the live durable was not gathered; run check with the account's credentials "
                                   "and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        RepairStep s;
        s.id = QStringLiteral("1");
        s.action = name();
        s.stream = MqttLayout::sessionsStream();
        s.subject = entry->subject;
        s.consumer = live;
        s.clientId = entry->clientId;
        s.destructive = true;
        RepairBackupSpec b;
        b.stream = s.stream;
        b.subject = entry->subject;
        b.allConsumers = false;
        s.backups = {b};
        s.description = QStringLiteral("Point the record of session \"%1\" on %2 (sequence %3) at the live durable %4 instead of the "
                                       "missing %5 for its subscription %6: %4 keeps its messages (%7), which the client gets when it "
                                       "reconnects")
                            .arg(entry->clientId, entry->subject)
                            .arg(entry->seq)
                            .arg(live, recorded, sid)
                            .arg(GatheredSessions::pendingText(liveInfo));
        s.requests = {RepairRequest{entry->subject,
                                    QJsonObject{{QStringLiteral("publish"),
                                                 QStringLiteral("the record with cons[\"%1\"] set to %2's config, JetStream publish with "
                                                                "Nats-Expected-Last-Subject-Sequence %3")
                                                     .arg(sid, live)
                                                     .arg(entry->seq)}}}};
        s.diff = QStringLiteral("- cons[\"%1\"].durable_name %2\n+ cons[\"%1\"].durable_name %3").arg(sid, recorded, live);
        s.precondition = QStringLiteral("the last record on %1 is still sequence %2 and still names %3 for %4; %3 still does not exist "
                                        "and %5 does (the record names %5 already: already done)")
                             .arg(entry->subject)
                             .arg(entry->seq)
                             .arg(recorded, sid, live);
        s.undo = QStringLiteral("restore the step's backup file (puts the old record back on %1)").arg(entry->subject);
        s.verification = QStringLiteral("the last record on %1 names %2 for %3").arg(entry->subject, live, sid);
        s.params = QJsonObject{{QStringLiteral("seq"), qint64(entry->seq)},
                               {QStringLiteral("sid"), sid},
                               {QStringLiteral("recorded"), recorded},
                               {QStringLiteral("live"), live},
                               {QStringLiteral("live_stream"), liveInfo.value(QLatin1String("stream")).toString()}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        const quint64 planned = quint64(step.params.value(QLatin1String("seq")).toInteger());
        const QString sid = step.params.value(QLatin1String("sid")).toString();
        const QString recorded = step.params.value(QLatin1String("recorded")).toString();
        const QString live = step.params.value(QLatin1String("live")).toString();
        auto rec = SessionLiveState::lastOnSubject(ctx, MqttLayout::sessionsStream(), step.subject);
        if (!rec)
            return rec.error();
        if (!*rec)
            return Precondition::changed(QStringLiteral("%1 holds no record any more").arg(step.subject));
        const QString named = adoptedNameIn((*rec)->data, sid);
        if (named == live)
            return Precondition::alreadyDone(QStringLiteral("the record on %1 names %2 for %3").arg(step.subject, live, sid));
        if ((*rec)->seq != planned || named != recorded)
            return Precondition::changed(QStringLiteral("the record on %1 changed since the plan (sequence %2, names %3 for %4)")
                                             .arg(step.subject)
                                             .arg((*rec)->seq)
                                             .arg(named.isEmpty() ? QStringLiteral("nothing") : named, sid));
        const QString stream = step.params.value(QLatin1String("live_stream")).toString();
        auto old = ctx.consumerInfo(stream, recorded);
        if (!old)
            return old.error();
        if (*old)
            return Precondition::changed(QStringLiteral("%1 exists again on %2").arg(recorded, stream));
        auto now = ctx.consumerInfo(stream, live);
        if (!now)
            return now.error();
        if (!*now)
            return Precondition::changed(QStringLiteral("%1 no longer exists on %2").arg(live, stream));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        const quint64 planned = quint64(step.params.value(QLatin1String("seq")).toInteger());
        const QString sid = step.params.value(QLatin1String("sid")).toString();
        const QString live = step.params.value(QLatin1String("live")).toString();
        auto rec = SessionLiveState::lastOnSubject(ctx, MqttLayout::sessionsStream(), step.subject);
        if (!rec)
            return rec.error();
        if (!*rec)
            return Error(Error::Kind::Internal, QStringLiteral("%1 holds no record").arg(step.subject));
        auto decoded = SessionRecord::decode((*rec)->data);
        if (!decoded)
            return decoded.error().prefixed(QStringLiteral("decoding the record on %1").arg(step.subject));
        auto info = ctx.consumerInfo(step.params.value(QLatin1String("live_stream")).toString(), live);
        if (!info)
            return info.error();
        if (!*info)
            return Error(Error::Kind::Internal, QStringLiteral("%1 no longer exists").arg(live));
        SessionRecord record = std::move(decoded).value();
        record.cons[sid] = ConsumerConfigJson((*info)->value(QLatin1String("config")).toObject());
        auto stored = storeAdoptedRecord(ctx, step.subject, record.encode(), planned);
        if (!stored)
            return stored.error().prefixed(QStringLiteral("storing the record on %1").arg(step.subject));
        return QJsonArray{QJsonObject{{QStringLiteral("stored_seq"), qint64(*stored)}, {QStringLiteral("subject"), step.subject}}};
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QString sid = step.params.value(QLatin1String("sid")).toString();
        const QString live = step.params.value(QLatin1String("live")).toString();
        auto rec = SessionLiveState::lastOnSubject(ctx, MqttLayout::sessionsStream(), step.subject);
        if (!rec)
            return rec.error();
        if (!*rec || adoptedNameIn((*rec)->data, sid) != live)
            return Error(Error::Kind::Internal, QStringLiteral("the record on %1 does not name %2 for %3").arg(step.subject, live, sid));
        return {};
    }
};

} // namespace

} // namespace MqttDoctor::SessionRepair

namespace MqttDoctor::RepairActionFamilies {

const RepairAction *adoptDurableAction()
{
    static const SessionRepair::AdoptDurable action;
    return &action;
}

} // namespace MqttDoctor::RepairActionFamilies
