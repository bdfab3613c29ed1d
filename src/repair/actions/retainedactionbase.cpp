#include "repair/actions/retainedactionbase.h"

#include <QJsonArray>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {
QString rmStream() { return MqttLayout::retainedStream(); }
} // namespace

Result<QHash<QString, qint64>> RetainedActionBase::subjectCounts(const ExecContext &ctx, const QString &filter)
{
    auto info = ctx.api(QStringLiteral("STREAM.INFO.") + rmStream(), QJsonObject{{QStringLiteral("subjects_filter"), filter}});
    if (!info) {
        Error e = info.error();
        e.prefixed(QStringLiteral("reading the subjects of %1").arg(rmStream()));
        return e;
    }
    QHash<QString, qint64> out;
    const QJsonObject subjects = info->value(QLatin1String("state")).toObject().value(QLatin1String("subjects")).toObject();
    for (auto it = subjects.constBegin(); it != subjects.constEnd(); ++it)
        out.insert(it.key(), it.value().toInteger());
    return out;
}

Result<std::optional<QJsonObject>> RetainedActionBase::currentConfig(const ExecContext &ctx)
{
    auto info = ctx.streamInfo(rmStream());
    if (!info)
        return info.error();
    if (!info->has_value())
        return std::optional<QJsonObject>();
    return std::optional<QJsonObject>((*info)->value(QLatin1String("config")).toObject());
}

Result<void> RetainedActionBase::noneLeftOnLegacySubject(const ExecContext &ctx)
{
    auto counts = subjectCounts(ctx, MqttLayout::retainedLegacySubject());
    if (!counts)
        return counts.error();
    const qint64 left = counts->value(MqttLayout::retainedLegacySubject());
    if (left != 0)
        return Error(Error::Kind::Internal, QStringLiteral("%1 message(s) are still on $MQTT.rmsgs").arg(left));
    return {};
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
        RepairRequest{get, QJsonObject{{QStringLiteral("seq"), 1},
                                       {QStringLiteral("next_by_subj"), MqttLayout::retainedLegacySubject()},
                                       {QStringLiteral("repeat"), QStringLiteral("walk from each answer's seq+1 until 10037: reads the %1 %2").arg(n, what)}}},
        RepairRequest{get, QJsonObject{{QStringLiteral("last_by_subj"), QStringLiteral("$MQTT.rmsgs.<subject>")},
                                       {QStringLiteral("repeat"), QStringLiteral("once per topic (newest record per topic): is a newer "
                                                                                 "message there already?")}}},
        RepairRequest{QStringLiteral("$MQTT.rmsgs.<subject>"),
                      QJsonObject{{QStringLiteral("publish"), QStringLiteral("the record in the JSON encoding "
                                                                             "{\"subject\",\"topic\",\"msg\",\"flags\",\"source\"} (origin "
                                                                             "dropped), JetStream publish with a plain inbox reply")},
                                  {QStringLiteral("headers"), QJsonObject{{QStringLiteral("Nats-Expected-Last-Subject-Sequence"),
                                                                           QStringLiteral("<last seq on the subject, 0 when empty>")}}},
                                  {QStringLiteral("repeat"), QStringLiteral("up to %1 times (one per topic)").arg(n)}}},
        RepairRequest{ctx.apiSubject(QStringLiteral("STREAM.MSG.DELETE.") + rmStream()),
                      QJsonObject{{QStringLiteral("seq"), QStringLiteral("<seq of each original>")},
                                  {QStringLiteral("repeat"), QStringLiteral("%1 times: every message read from $MQTT.rmsgs").arg(n)}}},
    };
}

} // namespace MqttDoctor
