#include "diagnosisgatherer.h"

#include "diagnosis/checks.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"

namespace MqttDoctor::DiagnosisGatherer {

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
