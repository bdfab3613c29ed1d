#include "optionsjson.h"

namespace MqttDoctor {

QJsonObject OptionsJson::option(const QCommandLineOption &option)
{
    return QJsonObject{
        {QStringLiteral("names"), QJsonArray::fromStringList(option.names())},
        {QStringLiteral("value"), option.valueName()},
        {QStringLiteral("description"), option.description()},
        {QStringLiteral("defaults"), QJsonArray::fromStringList(option.defaultValues())},
    };
}

QJsonArray OptionsJson::options(const QList<QCommandLineOption> &options)
{
    QJsonArray out;
    for (const QCommandLineOption &o : options)
        if (!o.flags().testFlag(QCommandLineOption::HiddenFromHelp))
            out.append(option(o));
    return out;
}

QCommandLineOption OptionsJson::helpJsonOption()
{
    QCommandLineOption o(QStringLiteral("help-json"),
                         QStringLiteral("Print the commands and options as JSON (for the man pages and completion made at build time)."));
    o.setFlags(QCommandLineOption::HiddenFromHelp);
    return o;
}

} // namespace MqttDoctor
