#include "clicontext.h"

#include <algorithm>

#include <QJsonObject>

#include "nats/connectionset.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

int exitCodeFor(const Error &error)
{
    return error.isUsage() ? ExitUsage : ExitCouldNotCheck;
}

int CliContext::fail(const Error &error) const
{
    printError(json ? out : err, error, json);
    return exitCodeFor(error);
}

int CliContext::usage(const QString &message, const QString &hint) const
{
    return fail(Error(Error::Kind::InvalidInput, message, hint).asUsage());
}

QString programName()
{
    return QStringLiteral("nats-mqtt-doctor-cli");
}

QString Command::usageLine() const
{
    return programName() + QStringLiteral(" [global options] ") + synopsis()
        + (options.isEmpty() ? QString() : QStringLiteral(" [options]"));
}

std::optional<Error> Command::checkArguments(const QStringList &given) const
{
    qsizetype required = 0;
    for (const CommandArgument &a : arguments)
        required += a.optional ? 0 : 1;
    const bool unlimited = !arguments.isEmpty() && arguments.last().repeated;
    const QString usage = QStringLiteral("usage: %1 (see \"%2 %3 --help\")").arg(usageLine(), programName(), name);
    const auto error = [](const QString &message, const QString &hint) {
        return std::optional<Error>(Error(Error::Kind::InvalidInput, message, hint).asUsage());
    };
    if (given.size() < required) {
        QStringList missing;
        for (qsizetype i = given.size(); i < arguments.size(); ++i)
            if (!arguments.at(i).optional)
                missing << arguments.at(i).name;
        return error(QStringLiteral("%1 needs %2").arg(name, missing.join(QStringLiteral(" and "))), usage);
    }
    if (unlimited || given.size() <= arguments.size())
        return std::nullopt;
    QStringList extra;
    for (qsizetype i = arguments.size(); i < given.size(); ++i)
        extra << QStringLiteral("\"%1\"").arg(given.at(i));
    QStringList names;
    for (const CommandArgument &a : arguments)
        names << a.name;
    const QString takes = arguments.isEmpty() ? QStringLiteral("no arguments")
        : arguments.size() == 1               ? QStringLiteral("one argument, %1").arg(names.first())
                                              : QStringLiteral("%1 arguments, %2").arg(arguments.size()).arg(names.join(QLatin1Char(' ')));
    QString hint = usage;
    const bool takesAccount = std::any_of(options.cbegin(), options.cend(),
                                          [](const QCommandLineOption &o) { return o.names().contains(QStringLiteral("account")); });
    if (takesAccount && arguments.isEmpty() && given.size() == 1)
        hint = QStringLiteral("an account is given with --account %1; %2").arg(given.last(), usage);
    return error(QStringLiteral("unexpected argument%1 %2: %3 takes %4")
                     .arg(extra.size() == 1 ? QString() : QStringLiteral("s"), extra.join(QStringLiteral(", ")), name, takes),
                 hint);
}

QString Command::synopsis() const
{
    QString text = name;
    for (const CommandArgument &a : arguments) {
        const QString word = a.repeated ? a.name + QStringLiteral(" ...") : a.name;
        text += QLatin1Char(' ') + (a.optional ? QStringLiteral("[%1]").arg(word) : word);
    }
    return text;
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
