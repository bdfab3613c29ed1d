// clear_retained (an operator's `clear-retained`): the retained messages of a step's topics. Through the account's
// MQTT listener where the profile names its MQTT user: an empty retained PUBLISH per topic, as a device clears it,
// which every server version turns into the delete and spreads to the other servers' in-memory copies; else by
// sequence on `$MQTT_rmsgs` (the planner allows that only where the versions let it reach clients). A message that
// was replaced since the plan is left alone. Backed up first by sequence (both encodings, byte for byte).
#include <QJsonArray>
#include <QSet>
#include <QThread>

#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttwireclient.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/paramkey.h"
#include "repair/repairaction.h"
#include "repair/actions/sequencebackup.h"

namespace MqttDoctor {

namespace {

struct PlannedMessage
{
    QString topic;
    quint64 seq = 0;
};

QList<PlannedMessage> plannedMessages(const RepairStep &step)
{
    QList<PlannedMessage> out;
    for (const QJsonValue &v : step.params.value(paramKey("messages")).toArray())
        out.append({v.toObject().value(paramKey("topic")).toString(), quint64(v.toObject().value(paramKey("seq")).toInteger())});
    return out;
}

/** How many of a step's topics a new subscriber checks after the clear (each is one SUBSCRIBE). */
constexpr int kTopicsChecked = 20;

class ClearRetained final : public RepairAction
{
public:
    QString name() const override { return RepairActions::clearRetained(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &, QString *note) const override
    {
        *note = QStringLiteral("%1: clear_retained is an operator action (clear-retained), not a finding's repair").arg(f.code);
        return {};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QList<PlannedMessage> planned = plannedMessages(step);
        auto now = readNow(ctx, planned);
        if (!now)
            return now.error();
        qsizetype present = 0;
        for (const auto &m : *now)
            present += m ? 1 : 0;
        if (present == 0)
            return Precondition::alreadyDone(
                QStringLiteral("none of the %1 message(s) is on %2 any more").arg(planned.size()).arg(MqttLayout::retainedStream()));
        if (step.params.value(paramKey("through_mqtt")).toBool() && !ctx.target.mqtt)
            return Error(Error::Kind::InvalidInput,
                         QStringLiteral("clearing through MQTT needs the account's MQTT user in the profile (mqtt_probe)"));
        Precondition run = Precondition::run();
        if (present < planned.size())
            run.reason = QStringLiteral("%1 of %2 were replaced or cleared since the plan and are left alone")
                             .arg(planned.size() - present)
                             .arg(planned.size());
        return run;
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(QStringLiteral("clear-retained")); !w)
            return w.error();
        const QList<PlannedMessage> planned = plannedMessages(step);
        auto now = readNow(ctx, planned);
        if (!now)
            return now.error();
        QList<BackupMessage> present;
        QList<PlannedMessage> clearing;
        QJsonArray left;
        for (qsizetype i = 0; i < planned.size(); ++i) {
            if (now->at(i)) {
                present << *now->at(i);
                clearing << planned.at(i);
            } else {
                left.append(QJsonObject{{paramKey("topic"), planned.at(i).topic},
                                        {paramKey("why"), QStringLiteral("replaced or cleared since the plan")}});
            }
        }
        QJsonArray replies;
        if (!present.isEmpty()) {
            auto path = SequenceBackup::write(ctx, step, MqttLayout::retainedStream(), present, {}, 0);
            if (!path)
                return path.error();
            replies.append(QJsonObject{{paramKey("backup"), *path}});
        }
        qint64 cleared = 0;
        if (step.params.value(paramKey("through_mqtt")).toBool()) {
            MqttWireClient client(*ctx.target.mqtt, QStringLiteral("nats-mqtt-doctor-clear-") + MqttWireClient::randomToken(10), true);
            QString why;
            if (!client.connect(&why))
                return Error(Error::Kind::ConnectionRefused,
                             QStringLiteral("connecting to the MQTT listener %1:%2 to clear retained messages: %3")
                                 .arg(ctx.target.mqtt->host)
                                 .arg(ctx.target.mqtt->port)
                                 .arg(why));
            for (const PlannedMessage &m : std::as_const(clearing)) {
                if (!client.publish(m.topic, QByteArray(), true))
                    return Error(Error::Kind::Timeout,
                                 QStringLiteral("the empty retained PUBLISH on %1 got no PUBACK (%2 of %3 cleared)")
                                     .arg(m.topic)
                                     .arg(cleared)
                                     .arg(clearing.size()));
                ++cleared;
            }
        } else {
            QList<ExecContext::ApiCall> calls;
            for (const BackupMessage &m : std::as_const(present))
                calls.append({QStringLiteral("STREAM.MSG.DELETE.") + MqttLayout::retainedStream(),
                              QJsonObject{{paramKey("seq"), qint64(m.seq)}, {paramKey("no_erase"), true}}});
            auto replies2 = ctx.apiEach(calls);
            if (!replies2)
                return replies2.error().prefixed(QStringLiteral("deleting retained messages"));
            for (const Result<QJsonObject> &r : *replies2) {
                if (!r && r.error().jsErrCode() != JsErrors::NoMessageFound)
                    return Error(r.error()).prefixed(QStringLiteral("deleting retained messages (%1 done)").arg(cleared));
                cleared += r ? 1 : 0;
            }
        }
        replies.append(QJsonObject{{paramKey("cleared"), cleared}, {paramKey("left"), left}});
        return replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QList<PlannedMessage> planned = plannedMessages(step);
        // The server deletes the record after the PUBACK: give it a moment before the read counts.
        for (int attempt = 0;; ++attempt) {
            auto now = readNow(ctx, planned);
            if (!now)
                return now.error();
            QStringList still;
            for (qsizetype i = 0; i < planned.size(); ++i)
                if (now->at(i))
                    still << planned.at(i).topic;
            if (still.isEmpty())
                break;
            if (attempt >= 20)
                return Error(Error::Kind::Internal,
                             QStringLiteral("still on %1: %2").arg(MqttLayout::retainedStream(), still.join(QStringLiteral(", "))));
            QThread::msleep(100);
        }
        if (!step.params.value(paramKey("through_mqtt")).toBool() || !ctx.target.mqtt)
            return {};
        // What a device subscribing now gets: no retained message on the cleared topics.
        MqttWireClient reader(*ctx.target.mqtt, QStringLiteral("nats-mqtt-doctor-check-") + MqttWireClient::randomToken(10), true);
        QString why;
        if (!reader.connect(&why))
            return Error(Error::Kind::ConnectionRefused, QStringLiteral("a new subscriber could not connect to check: %1").arg(why));
        QSet<QString> topics;
        for (qsizetype i = 0; i < planned.size() && i < kTopicsChecked; ++i) {
            topics.insert(planned.at(i).topic);
            if (reader.subscribe(planned.at(i).topic, 1) < 0)
                return Error(Error::Kind::Timeout, QStringLiteral("a new subscriber to %1 got no SUBACK").arg(planned.at(i).topic));
        }
        reader.pump(800);
        for (const MqttWireClient::Message &m : reader.messages())
            if (m.retain && topics.contains(m.topic))
                return Error(Error::Kind::Internal,
                             QStringLiteral("a new subscriber still receives a retained message on %1 (%2 bytes)")
                                 .arg(m.topic)
                                 .arg(m.payload.size()));
        return {};
    }

private:
    static Result<QList<std::optional<BackupMessage>>> readNow(const ExecContext &ctx, const QList<PlannedMessage> &planned)
    {
        QList<quint64> seqs;
        for (const PlannedMessage &m : planned)
            seqs << m.seq;
        return SequenceBackup::read(ctx, MqttLayout::retainedStream(), seqs);
    }
};

} // namespace

namespace RepairActionFamilies {

const RepairAction *clearRetainedAction()
{
    static const ClearRetained action;
    return &action;
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
