#include "repair/repairtarget.h"

#include "nats/connectionset.h"

namespace MqttDoctor {

Result<RepairTarget> RepairTarget::resolve(ConnectionSet &connections, const QString &account)
{
    const Profile &profile = connections.profile();
    const QString hint = QStringLiteral("connect as a user of the account or add the account's credentials to the profile; "
                                        "the system connection cannot read or change another account's streams");
    if (!account.isEmpty() && connections.hasAccountCredentials(account))
        return connections.account(account).transform([&](auto &&conn) { return fromConnection(profile, conn, account); });
    if (!profile.auth.isSet() && profile.hasSystem())
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("account %1 needs its own credentials: only a system connection was given")
                         .arg(account.isEmpty() ? QStringLiteral("(none given)") : account),
                     hint)
            .withSetting(Error::Setting::AccountCredentials);
    auto conn = connections.primary();
    if (!conn)
        return conn.error();
    auto primaryName = connections.primaryAccountName();
    const QString own = primaryName ? *primaryName : QString();
    if (!account.isEmpty() && !own.isEmpty() && own != account)
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("account %1 needs its own credentials (the connected user belongs to account %2)").arg(account, own),
                     hint)
            .withSetting(Error::Setting::AccountCredentials);
    return fromConnection(profile, *conn, account.isEmpty() ? own : account);
}

RepairTarget RepairTarget::fromConnection(const Profile &profile, std::shared_ptr<NatsConnection> connection, const QString &account)
{
    RepairTarget t;
    t.connection = std::move(connection);
    t.account = account;
    t.apiDomain = profile.jsDomain;
    t.profile = profile;
    return t;
}

Result<void> RepairTarget::checkWritable(const QString &action) const
{
    if (profile.allowChanges)
        return {};
    return Error(Error::Kind::ReadOnly,
                 QStringLiteral("%1 refused: the profile%2 is read-only, nothing was changed")
                     .arg(action, profile.name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(profile.name)),
                 QStringLiteral("allow changes in the connection's settings to write"))
        .withSetting(Error::Setting::AllowChanges);
}

} // namespace MqttDoctor
