#include "healthmap.h"

#include "diagnosis/checks.h"
#include "diagnosis/diagnosisinput.h"

namespace MqttDoctor {

HealthMap HealthMap::fromFindings(const QList<Finding> &findings, const QList<AccountInfo> &accounts)
{
    HealthMap map;
    map.m_accounts.reserve(accounts.size());
    for (const AccountInfo &account : accounts)
        map.m_accounts.insert(account.name, Account{});
    for (const Finding &f : findings) {
        if (map.m_accounts.contains(f.account))
            map.raise(f.account, f.stream, HealthBadge::fromSeverity(f.severity));
    }
    map.m_findings = findings;
    return map;
}

HealthMap HealthMap::diagnose(const QList<ServerInfo> &servers, const QList<AccountInfo> &accounts)
{
    DiagnosisInput input;
    input.servers = servers;
    input.accounts = accounts;
    return fromFindings(Checks::diagnose(input), accounts);
}

HealthBadge::Health HealthMap::account(const QString &account) const
{
    const auto it = m_accounts.constFind(account);
    return it == m_accounts.cend() ? Health::Unknown : it->health;
}

HealthBadge::Health HealthMap::stream(const QString &account, const QString &stream) const
{
    const auto it = m_accounts.constFind(account);
    return it == m_accounts.cend() ? Health::Unknown : it->stream(stream);
}

const HealthMap::Account *HealthMap::find(const QString &account) const
{
    const auto it = m_accounts.constFind(account);
    return it == m_accounts.cend() ? nullptr : &*it;
}

void HealthMap::raise(const QString &account, const QString &stream, Health health)
{
    // Health's enumerators are in rising order of severity after Unknown and Ok.
    Account &entry = m_accounts[account];
    if (int(health) > int(entry.health))
        entry.health = health;
    if (stream.isEmpty())
        return;
    Health &s = entry.streams[stream];
    if (s == Health::Unknown || int(health) > int(s))
        s = health;
}

} // namespace MqttDoctor
