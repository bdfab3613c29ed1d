#include "clicontext.h"

#include <QJsonObject>

#include "nats/connectionset.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

int CliContext::fail(const Error &error) const
{
    printError(json ? out : err, error, json);
    return ExitCouldNotCheck;
}

QJsonArray CliContext::unansweredServersJson() const
{
    QJsonArray list;
    if (!connections)
        return list;
    for (const ServerRoster::Unanswered &u : connections->roster().unanswered())
        list.append(QJsonObject{{QStringLiteral("name"), u.name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(u.name)},
                               {QStringLiteral("reason"), u.reason}});
    return list;
}

int CliContext::printUnansweredServers() const
{
    if (!connections)
        return 0;
    const QList<ServerRoster::Unanswered> list = connections->roster().unanswered();
    for (const ServerRoster::Unanswered &u : list)
        out << "Note: " << (u.name.isEmpty() ? QString() : QStringLiteral("server ") + u.name + QLatin1Char(' ')) << u.reason << ".\n";
    return int(list.size());
}

} // namespace MqttDoctor::Cli
