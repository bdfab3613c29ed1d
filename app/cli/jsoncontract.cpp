#include "jsoncontract.h"

#include <QtGlobal>

namespace MqttDoctor::Cli::JsonContract {

const QList<Output> &outputs()
{
    static const QList<Output> list{
        {QStringLiteral("error"), 1, QStringLiteral("any command with --json that fails before its output began")},
        {QStringLiteral("servers"), 1, QStringLiteral("servers --json")},
        {QStringLiteral("accounts"), 1, QStringLiteral("accounts --json")},
        {QStringLiteral("streams"), 1, QStringLiteral("streams --json")},
        {QStringLiteral("check"), 1, QStringLiteral("check --json")},
        {QStringLiteral("check-watch"), 1, QStringLiteral("check --watch --json (JSON Lines, one object per round)")},
        // 2: the default output groups matches (groups[].match) instead of listing them (matches[]).
        {QStringLiteral("explain"), 2, QStringLiteral("explain --json")},
        {QStringLiteral("explain-per-line"), 1, QStringLiteral("explain --per-line --json")},
        {QStringLiteral("explain-templates"), 1, QStringLiteral("explain --templates --json")},
        {QStringLiteral("sessions"), 1, QStringLiteral("sessions --json")},
        {QStringLiteral("session"), 1, QStringLiteral("session CLIENT_ID --json")},
        {QStringLiteral("inflight"), 1, QStringLiteral("inflight --json")},
        {QStringLiteral("pinned"), 1, QStringLiteral("pinned --json")},
        {QStringLiteral("retained"), 1, QStringLiteral("retained --json")},
        {QStringLiteral("events"), 1, QStringLiteral("events --json (JSON Lines, one object per event)")},
        {QStringLiteral("backup"), 1, QStringLiteral("backup --json")},
        {QStringLiteral("restore"), 1, QStringLiteral("restore --json")},
        {QStringLiteral("repair"), 1, QStringLiteral("repair --json")},
        {QStringLiteral("action"), 1, QStringLiteral("delete-sessions, disconnect, clear-retained, drop-backlog --json")},
        {QStringLiteral("history"), 1, QStringLiteral("history --json")},
        {QStringLiteral("client-history"), 1, QStringLiteral("history --client CLIENT_ID --json")},
        {QStringLiteral("changes"), 1, QStringLiteral("changes --json")},
        {QStringLiteral("report"), 1, QStringLiteral("report --json")},
    };
    return list;
}

QString id(const QString &name)
{
    for (const Output &o : outputs())
        if (o.name == name)
            return QStringLiteral("nats-mqtt-doctor/%1/%2").arg(name).arg(o.version);
    Q_ASSERT_X(false, "JsonContract::id", "an output without a schema");
    return QStringLiteral("nats-mqtt-doctor/%1/0").arg(name);
}

QJsonObject stamped(const QString &name, QJsonObject object)
{
    object.insert(QStringLiteral("schema"), id(name));
    return object;
}

} // namespace MqttDoctor::Cli::JsonContract
