#include "repair/actions/retainedactionbase.h"

#include <QJsonArray>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {
QString rmStream()
{
    return MqttLayout::retainedStream();
}
} // namespace

const StreamInfo *RetainedActionBase::retainedStreamFor(const Finding &f, const PlanContext &ctx, const QString &code, const QString &verb,
                                                        QString *note) const
{
    const StreamInfo *rm = ctx.stream(rmStream());
    if (f.code != code || !rm) {
        *note = QStringLiteral("%1: nothing to %2 for %3.").arg(name(), verb, f.code);
        return nullptr;
    }
    return rm;
}

RepairStep RetainedActionBase::baseStep(const Finding &f, const PlanContext &ctx) const
{
    RepairStep s;
    s.action = name();
    s.findingCode = f.code;
    s.account = ctx.account ? ctx.account->name : f.account;
    s.stream = rmStream();
    s.subject = MqttLayout::retainedLegacySubject();
    s.destructive = true;
    RepairBackupSpec backup;
    backup.stream = rmStream();
    s.backups = {backup};
    return s;
}

QList<RepairRequest> RetainedActionBase::moveRequests(const PlanContext &ctx, const QString &what, qint64 count)
{
    const QString get = ctx.apiSubject(QStringLiteral("STREAM.MSG.GET.") + rmStream());
    const QString n = QString::number(count);
    return {
        RepairRequest{get,
                      QJsonObject{{QStringLiteral("seq"), 1},
                                  {QStringLiteral("next_by_subj"), MqttLayout::retainedLegacySubject()},
                                  {QStringLiteral("repeat"),
                                   QStringLiteral("walk from each answer's seq+1 until 10037: reads the %1 %2").arg(n, what)}}},
        RepairRequest{get,
                      QJsonObject{{QStringLiteral("last_by_subj"), QStringLiteral("$MQTT.rmsgs.<subject>")},
                                  {QStringLiteral("repeat"),
                                   QStringLiteral("once per topic (newest record per topic): is a newer "
                                                  "message there already?")}}},
        RepairRequest{QStringLiteral("$MQTT.rmsgs.<subject>"),
                      QJsonObject{{QStringLiteral("publish"),
                                   QStringLiteral("the record in the JSON encoding "
                                                  "{\"subject\",\"topic\",\"msg\",\"flags\",\"source\"} (origin "
                                                  "dropped), JetStream publish with a plain inbox reply")},
                                  {QStringLiteral("headers"),
                                   QJsonObject{{QStringLiteral("Nats-Expected-Last-Subject-Sequence"),
                                                QStringLiteral("<last seq on the subject, 0 when empty>")}}},
                                  {QStringLiteral("repeat"), QStringLiteral("up to %1 times (one per topic)").arg(n)}}},
        RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.MSG.DELETE.") + rmStream()),
                      QJsonObject{{QStringLiteral("seq"), QStringLiteral("<seq of each original>")},
                                  {QStringLiteral("repeat"), QStringLiteral("%1 times: every message read from $MQTT.rmsgs").arg(n)}}},
    };
}

} // namespace MqttDoctor
