#include "diagnosisgatherer.h"

#include "diagnosis/checks.h"
#include "nats/connectionset.h"
#include "mqtt/mqttlayout.h"
#include "nats/discovery.h"
#include "records/recordsource.h"

namespace MqttDoctor::DiagnosisGatherer {

namespace {

bool hasSessionsStream(const AccountInfo &account)
{
    for (const StreamInfo &s : account.streams)
        if (s.name == MqttLayout::sessionsStream())
            return true;
    return false;
}

/** Record-level inputs of the accounts whose records can be read; notes for the others. */
void gatherRecords(ConnectionSet &connections, DiagnosisInput &input)
{
    for (const AccountInfo &a : input.accounts) {
        if ((a.isSystem && !input.includeSystemAccount) || !a.jetstream || !hasSessionsStream(a))
            continue;
        if (!RecordSource::canResolve(connections, a.name)) {
            input.notes << QStringLiteral("Session records of account %1 not checked: reading them needs the account's credentials "
                                          "(add them to the profile, or check the account as one of its users).")
                               .arg(a.name);
            continue;
        }
        auto sessions = gatherSessions(connections, a);
        if (!sessions) {
            input.notes << QStringLiteral("Session records of account %1 not checked: %2").arg(a.name, sessions.error().toString());
            continue;
        }
        if (!sessions->connected)
            input.notes << QStringLiteral("Account %1: connected clients unknown without a system connection, so SESSION_STALE was "
                                          "not checked and orphan consumers may belong to connected clean-session clients.")
                               .arg(a.name);
        input.sessions.insert(a.name, std::move(sessions).value());
    }
}

} // namespace

Result<DiagnosisInput> gather(ConnectionSet &connections, const Request &request)
{
    DiagnosisInput input;
    input.options = request.options;
    auto servers = Discovery::servers(connections);
    if (!servers)
        return servers.error();
    input.servers = *servers;

    const bool everyAccount = request.allAccounts || (request.account.isEmpty() && !connections.profile().auth.isSet());
    if (everyAccount) {
        if (!connections.hasSystem())
            return Error(Error::Kind::NoSystemAccess, QStringLiteral("checking every account needs a system connection"),
                         QStringLiteral("give --system-user/--system-password (or --system-creds), or check one account with --account"));
        auto accounts = Discovery::accounts(connections);
        if (!accounts)
            return accounts.error();
        for (AccountInfo &a : *accounts) {
            // The account's own API sees more than JSZ (limits, retained subject counts): use it when we can.
            if (a.jetstream && connections.hasAccountCredentials(a.name)) {
                auto detailed = Discovery::account(connections, a.name);
                if (!detailed)
                    return detailed.error();
                const bool isSystem = a.isSystem;
                a = *detailed;
                a.isSystem = isSystem;
            }
            if (a.limitsKnown)
                input.limits.insert(a.name, a.limits);
        }
        input.accounts = *accounts;
        if (request.records)
            gatherRecords(connections, input);
        return input;
    }

    auto account = Discovery::account(connections, request.account);
    if (!account)
        return account.error();
    if (account->limitsKnown)
        input.limits.insert(account->name, account->limits);
    // The operator asked about this account: it is meant to serve MQTT.
    input.mqttAccounts = {account->name};
    input.accounts = {*account};
    input.includeSystemAccount = true;
    if (request.records)
        gatherRecords(connections, input);
    return input;
}

Result<QList<Finding>> check(ConnectionSet &connections, const Request &request)
{
    auto input = gather(connections, request);
    if (!input)
        return input.error();
    return Checks::diagnose(*input);
}

} // namespace MqttDoctor::DiagnosisGatherer
