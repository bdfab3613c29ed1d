#include "commandtablejson.h"

#include <QJsonArray>

#include "optionsjson.h"

namespace MqttDoctor::Cli {

QJsonObject CommandTableJson::describe(const QString &description, const QStringList &usage, const QList<Command> &commands,
                                       const QList<QCommandLineOption> &globalOptions)
{
    QJsonArray commandArray;
    for (const Command &c : commands) {
        QJsonArray arguments;
        for (const CommandArgument &a : c.arguments)
            arguments.append(QJsonObject{
                {QStringLiteral("name"), a.name},
                {QStringLiteral("description"), a.description},
                {QStringLiteral("optional"), a.optional},
                {QStringLiteral("repeated"), a.repeated},
            });
        commandArray.append(QJsonObject{
            {QStringLiteral("name"), c.name},
            {QStringLiteral("synopsis"), c.synopsis()},
            {QStringLiteral("usage"), c.usageLine()},
            {QStringLiteral("summary"), c.summary},
            {QStringLiteral("arguments"), arguments},
            {QStringLiteral("options"), OptionsJson::options(c.options)},
        });
    }
    return QJsonObject{
        {QStringLiteral("program"), programName()},
        {QStringLiteral("description"), description},
        {QStringLiteral("usage"), QJsonArray::fromStringList(usage)},
        {QStringLiteral("commands"), commandArray},
        {QStringLiteral("options"), OptionsJson::options(globalOptions)},
    };
}

} // namespace MqttDoctor::Cli
