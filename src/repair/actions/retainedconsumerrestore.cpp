// restore_retained_consumer (RETAINED_CONSUMER_MISSING): a server's retained-message consumer on
// $MQTT_rmsgs, made again as that server makes it, delivering to the subject its MQTT set-up still
// listens on. One step per server.
#include <QJsonArray>
#include <QRandomGenerator>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/mqttstreamspec.h"
#include "mqtt/serverversion.h"
#include "repair/actions/actionfamilies.h"
#include "repair/repairaction.h"

namespace MqttDoctor {

namespace {

const QString rmsgs = MqttLayout::retainedStream();
/** What 2.10.11+ servers give their named ephemeral retained consumer: gone 5 minutes after nobody listens. */
constexpr qint64 kInactiveThresholdNs = 5LL * 60 * 1000 * 1000 * 1000;

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

/** A name as unique as the server's own (`$MQTT_rmsgs_` and 22 characters of the NUID alphabet). */
QString uniqueName()
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString suffix;
    for (int i = 0; i < 22; ++i)
        suffix += QLatin1Char(alphabet[QRandomGenerator::system()->bounded(62)]);
    return rmsgs + QLatin1Char('_') + suffix;
}

/** The consumer of `consumers` that delivers to `subject`, empty when none. */
QJsonObject deliveringTo(const QJsonArray &consumers, const QString &subject)
{
    for (const QJsonValue &v : consumers) {
        const QJsonObject c = v.toObject();
        if (str(c.value(QLatin1String("config")).toObject(), "deliver_subject") == subject)
            return c;
    }
    return {};
}

class RestoreRetainedConsumer final : public RepairAction
{
public:
    QString name() const override { return RepairActions::restoreRetainedConsumer(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const StreamInfo *stream = ctx.stream(rmsgs);
        const auto all = ctx.input && ctx.input->mqttManagers ? ctx.input->mqttManagers->constFind(f.account)
                                                              : QHash<QString, AccountManagers>::const_iterator();
        if (!stream || !stream->consumersKnown || !ctx.input || !ctx.input->mqttManagers || all == ctx.input->mqttManagers->cend()) {
            *note = QStringLiteral("%1: the servers' MQTT set-up was not read (it needs the system connection); restart the servers "
                                   "that serve account %2 instead.")
                        .arg(f.code, f.account);
            return {};
        }
        // The filter the server would give it: the stream's own subject layout.
        const bool legacy = MqttStreamSpec::sameSubjects(MqttStreamSpec::subjectsOf(stream->config), {MqttLayout::retainedLegacySubject()});
        const QString filter = legacy ? MqttLayout::retainedLegacySubject() : MqttLayout::retainedSubjects();
        QList<RepairStep> steps;
        for (const MqttManager &m : all->withoutConsumer(AccountManagers::retainedConsumers(stream->consumers))) {
            if (!m.resolved()) {
                *note = QStringLiteral("%1: where server %2 takes retained messages is unknown (%3); restart it instead.")
                            .arg(f.code, m.server, all->unresolvedWhy);
                continue;
            }
            const auto version = ServerVersion::parse(m.version);
            // Up to 2.10.10 a server makes the durable $MQTT_rmsgs_<its id> (and deletes it when it sets up again); from
            // 2.10.11 on, a named ephemeral consumer that goes 5 minutes after nobody listens.
            const bool durable = version && !version->atLeast(2, 10, 11) && !m.id.isEmpty();
            const QString consumer = durable ? rmsgs + QLatin1Char('_') + m.id : uniqueName();
            QJsonObject config{{QStringLiteral("deliver_subject"), m.retainedSubject},
                               {QStringLiteral("filter_subject"), filter},
                               {QStringLiteral("deliver_policy"), QStringLiteral("all")},
                               {QStringLiteral("ack_policy"), QStringLiteral("none")},
                               {QStringLiteral("replay_policy"), QStringLiteral("instant")}};
            QString op;
            if (durable) {
                config.insert(QStringLiteral("durable_name"), consumer);
                op = QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(rmsgs, consumer);
            } else {
                config.insert(QStringLiteral("name"), consumer);
                config.insert(QStringLiteral("inactive_threshold"), kInactiveThresholdNs);
                op = QStringLiteral("CONSUMER.CREATE.%1").arg(rmsgs);
            }
            RepairStep s;
            s.action = name();
            s.stream = rmsgs;
            s.consumer = consumer;
            s.description = QStringLiteral("Make server %1's retained-message consumer %2 again on %3, delivering every retained "
                                           "message to %4, where the server's MQTT set-up still listens (%5)")
                                .arg(m.server, consumer, rmsgs, m.retainedSubject,
                                     durable ? QStringLiteral("a durable, as servers up to 2.10.10 make it")
                                             : QStringLiteral("a named consumer that goes 5 minutes after nobody listens, as 2.10.11+ "
                                                              "servers make it"));
            s.requests = {
                RepairRequest{ctx.apiSubject(op), QJsonObject{{QStringLiteral("stream_name"), rmsgs}, {QStringLiteral("config"), config}}}};
            s.precondition = QStringLiteral("no consumer on %1 delivers to %2 yet (one does: nothing to do)").arg(rmsgs, m.retainedSubject);
            s.undo = QStringLiteral("delete the consumer again (%1); nothing was there before this step, and the server deletes it "
                                    "itself when it sets up MQTT anew")
                         .arg(ctx.apiSubject(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(rmsgs, consumer)));
            s.verification = QStringLiteral("CONSUMER.INFO of %1 shows deliver subject %2 with a subscriber (push_bound): server %3 "
                                            "receives the retained messages again, and new subscribers through it get them")
                                 .arg(consumer, m.retainedSubject, m.server);
            s.params = QJsonObject{{QStringLiteral("config"), config},
                                   {QStringLiteral("op"), op},
                                   {QStringLiteral("server"), m.server},
                                   {QStringLiteral("deliver_subject"), m.retainedSubject}};
            steps.append(s);
        }
        return steps;
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto stream = ctx.streamInfo(rmsgs);
        if (!stream)
            return stream.error();
        if (!*stream)
            return Precondition::changed(QStringLiteral("%1 does not exist any more").arg(rmsgs));
        auto list = ctx.api(QStringLiteral("CONSUMER.LIST.%1").arg(rmsgs));
        if (!list)
            return list.error();
        const QString subject = str(step.params, "deliver_subject");
        const QJsonObject there = deliveringTo(list->value(QLatin1String("consumers")).toArray(), subject);
        if (!there.isEmpty())
            return Precondition::alreadyDone(QStringLiteral("%1 delivers to %2 already").arg(str(there, "name"), subject));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        const QJsonObject config = step.params.value(QLatin1String("config")).toObject();
        auto reply =
            ctx.api(str(step.params, "op"), QJsonObject{{QStringLiteral("stream_name"), rmsgs}, {QStringLiteral("config"), config}});
        if (reply)
            return QJsonArray{*reply};
        // Made meanwhile (a rerun): re-read, not fatal.
        auto info = ctx.consumerInfo(rmsgs, step.consumer);
        if (info && *info && str((*info)->value(QLatin1String("config")).toObject(), "deliver_subject") == str(config, "deliver_subject"))
            return QJsonArray{**info};
        return reply.error().prefixed(QStringLiteral("creating %1 on %2").arg(step.consumer, rmsgs));
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.consumerInfo(rmsgs, step.consumer);
        if (!info)
            return info.error();
        if (!*info)
            return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist on %2").arg(step.consumer, rmsgs));
        const QString subject = str(step.params, "deliver_subject");
        const QString actual = str((*info)->value(QLatin1String("config")).toObject(), "deliver_subject");
        if (actual != subject)
            return Error(Error::Kind::Protocol, QStringLiteral("%1 delivers to %2, not %3").arg(step.consumer, actual, subject));
        if (!(*info)->value(QLatin1String("push_bound")).toBool())
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1 has no subscriber on %2: server %3 no longer listens there (it restarted, or set up MQTT "
                                        "anew); check again")
                             .arg(step.consumer, subject, str(step.params, "server")));
        return {};
    }
};

} // namespace

namespace RepairActionFamilies {

const RepairAction *restoreRetainedConsumerAction()
{
    static const RestoreRetainedConsumer action;
    return &action;
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
