#include "repairaction.h"

#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"

namespace MqttDoctor {

QString PlanContext::apiSubject(const QString &op) const
{
    return JetStreamClient::apiSubject(apiDomain, op);
}

const StreamInfo *PlanContext::stream(const QString &name) const
{
    if (!account)
        return nullptr;
    for (const StreamInfo &s : account->streams)
        if (s.name == name)
            return &s;
    return nullptr;
}

Result<QJsonObject> ExecContext::api(const QString &op, const QJsonObject &body) const
{
    JetStreamClient js(target.connection, target.apiDomain);
    return js.call(op, body);
}

Result<std::optional<QJsonObject>> ExecContext::streamInfo(const QString &stream) const
{
    auto info = api(QStringLiteral("STREAM.INFO.") + stream);
    if (!info) {
        if (info.error().jsErrCode() == JsErrors::StreamNotFound)
            return std::optional<QJsonObject>();
        return info.error();
    }
    return std::optional<QJsonObject>(*info);
}

Result<std::optional<QJsonObject>> ExecContext::consumerInfo(const QString &stream, const QString &consumer) const
{
    auto info = api(QStringLiteral("CONSUMER.INFO.%1.%2").arg(stream, consumer));
    if (!info) {
        const int code = info.error().jsErrCode();
        if (code == JsErrors::ConsumerNotFound || code == JsErrors::StreamNotFound)
            return std::optional<QJsonObject>();
        return info.error();
    }
    return std::optional<QJsonObject>(*info);
}

namespace RepairActionRegistry {

namespace {
const QList<const RepairAction *> &all()
{
    static const QList<const RepairAction *> actions = RepairActionFamilies::streamActions() + RepairActionFamilies::retainedActions()
        + RepairActionFamilies::sessionActions() + RepairActionFamilies::qos2Actions();
    return actions;
}
} // namespace

const RepairAction *find(const QString &name)
{
    for (const RepairAction *a : all())
        if (a->name() == name)
            return a;
    return nullptr;
}

QStringList names()
{
    QStringList out;
    for (const RepairAction *a : all())
        out << a->name();
    return out;
}

} // namespace RepairActionRegistry
} // namespace MqttDoctor
