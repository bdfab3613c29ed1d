#include "accountchoice.h"

#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/profile.h"

namespace MqttDoctor::Cli {

namespace {

/** At most this many of the profile's accounts are named in a hint (a fleet's profile can hold thousands). */
constexpr qsizetype kNamedAccounts = 8;

QString accountList(const Profile &profile)
{
    const QStringList names = profile.accounts.keys();
    QString text = names.mid(0, kNamedAccounts).join(QStringLiteral(", "));
    if (names.size() > kNamedAccounts)
        text += QStringLiteral(" and %1 more").arg(names.size() - kNamedAccounts);
    return text;
}

} // namespace

std::optional<Error> AccountChoice::missing(const Command &command, const Profile &profile, const QString &account)
{
    if (command.account != AccountUse::One || !account.isEmpty() || profile.auth.isSet())
        return std::nullopt;
    if (!profile.hasSystem() && profile.accounts.isEmpty())
        return std::nullopt; // --account would not help: the core says what is missing
    QString hint = QStringLiteral("the accounts command lists the accounts (with the same connection options)");
    if (!profile.accounts.isEmpty())
        hint += QStringLiteral("; the profile holds the credentials of ") + accountList(profile);
    else if (command.needsAccountCredentials)
        hint += QStringLiteral("; %1 reads an account through its own credentials: connect as one of its users (--user/--password, "
                               "--creds, ...) or give a profile that holds them")
                    .arg(command.name);
    return Error(Error::Kind::InvalidInput, QStringLiteral("%1 works on one account: give --account NAME").arg(command.name), hint)
        .asUsage();
}

Result<AccountRecordAccess> AccountChoice::recordAccess(ConnectionSet &connections, const QString &account)
{
    auto source = AccountRecordAccess::resolve(connections, account);
    if (!source)
        return explained(connections, account, source.error());
    return source;
}

Result<RepairTarget> AccountChoice::repairTarget(ConnectionSet &connections, const QString &account)
{
    auto target = RepairTarget::resolve(connections, account);
    if (!target)
        return explained(connections, account, target.error());
    return target;
}

Error AccountChoice::explained(ConnectionSet &connections, const QString &account, const Error &error)
{
    if (account.isEmpty() || connections.hasAccountCredentials(account) || !connections.hasSystem())
        return error;
    auto info = Discovery::account(connections, account);
    if (!info && info.error().kind() == Error::Kind::NotFound)
        return info.error();
    return error;
}

} // namespace MqttDoctor::Cli
