// drop_backlog (an operator's `drop-backlog`): the queued QoS 1/2 messages of one session's durable. The durable
// is deleted and created again with the config it had and deliver policy "new", as the server creates it for a
// subscription: it starts at the end of `$MQTT_msgs`. On the interest stream a message stays while another
// durable still waits for it, so no other session loses anything. The executor backs up the durable's config and
// the messages on its filter subject first. The client must not be connected (it holds the durable's deliveries).
#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/paramkey.h"
#include "repair/repairaction.h"
#include "repair/actions/sessionlivestate.h"

namespace MqttDoctor {

namespace {

qint64 pendingOf(const QJsonObject &info)
{
    return info.value(paramKey("num_pending")).toInteger() + info.value(paramKey("num_ack_pending")).toInteger();
}

class DropBacklog final : public RepairAction
{
public:
    QString name() const override { return RepairActions::dropBacklog(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &, QString *note) const override
    {
        *note = QStringLiteral("%1: drop_backlog is an operator action (drop-backlog), not a finding's repair").arg(f.code);
        return {};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (!*info)
            return Precondition::changed(QStringLiteral("the durable %1 no longer exists").arg(step.consumer));
        const QString session = step.params.value(paramKey("session")).toString();
        const quint64 planned = quint64(step.params.value(paramKey("session_seq")).toInteger());
        auto rec = SessionLiveState::lastOnSubject(ctx, MqttLayout::sessionsStream(), session);
        if (!rec)
            return rec.error();
        if (!*rec || (*rec)->seq != planned)
            return Precondition::changed(QStringLiteral("the session record on %1 changed since the plan (the client reconnected or its "
                                                        "session was deleted)")
                                             .arg(session));
        const QString clientId = step.params.value(paramKey("client_id")).toString();
        const auto clients = SessionLiveState::connectedNow(ctx, clientId);
        if (clients && clients->contains(clientId))
            return Precondition::changed(QStringLiteral("\"%1\" is connected to %2").arg(clientId, clients->value(clientId)));
        Precondition run = Precondition::run();
        if (pendingOf(**info) == 0)
            run.reason = QStringLiteral("nothing is queued for it now");
        if (!clients)
            run.reason = QStringLiteral("connected state not re-checked (no server answered CONNZ); the record is unchanged");
        return run;
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(QStringLiteral("drop-backlog")); !w)
            return w.error();
        auto before = ctx.consumerInfo(step.stream, step.consumer);
        if (!before)
            return before.error();
        const qint64 dropped = *before ? pendingOf(**before) : 0;
        auto deleted = ctx.api(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(step.stream, step.consumer));
        if (!deleted && deleted.error().jsErrCode() != JsErrors::ConsumerNotFound)
            return deleted.error().prefixed(QStringLiteral("deleting %1").arg(step.consumer));
        const QJsonObject config = step.params.value(paramKey("config")).toObject();
        auto created = ctx.api(QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(step.stream, step.consumer),
                               QJsonObject{{paramKey("stream_name"), step.stream}, {paramKey("config"), config}});
        if (!created)
            return created.error().prefixed(QStringLiteral("creating %1 again (deleted: the backup holds its config; restore it with "
                                                           "restore FILE --merge --allow-changes)")
                                                .arg(step.consumer));
        return QJsonArray{QJsonObject{{paramKey("dropped"), dropped}, {paramKey("durable"), step.consumer}}, *created};
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (!*info)
            return Error(Error::Kind::Internal, QStringLiteral("the durable %1 was not created again").arg(step.consumer));
        const QJsonObject want = step.params.value(paramKey("config")).toObject();
        const QJsonObject have = (*info)->value(paramKey("config")).toObject();
        for (const char *field : {"deliver_subject", "filter_subject", "ack_policy"})
            if (want.value(paramKey(field)) != have.value(paramKey(field)))
                return Error(Error::Kind::Internal,
                             QStringLiteral("the durable %1 came back with another %2").arg(step.consumer, paramKey(field)));
        const qint64 was = step.params.value(paramKey("pending")).toInteger();
        const qint64 now = pendingOf(**info);
        if (was > 0 && now >= was)
            return Error(Error::Kind::Internal,
                         QStringLiteral("the durable %1 still holds %2 queued message(s)").arg(step.consumer).arg(now));
        return {};
    }
};

} // namespace

namespace RepairActionFamilies {

const RepairAction *dropBacklogAction()
{
    static const DropBacklog action;
    return &action;
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
