#include "diagnosisgatherer.h"

#include <atomic>

#include "common/parallelfor.h"
#include "diagnosis/checks.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
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

bool wantsRecords(const DiagnosisInput &input, const AccountInfo &a)
{
    return !(a.isSystem && !input.includeSystemAccount) && a.jetstream && hasSessionsStream(a);
}

QString credentialsNote(const QString &account)
{
    return QStringLiteral("Session records of account %1 not checked: reading them needs the account's credentials "
                          "(add them to the profile, or check the account as one of its users).")
        .arg(account);
}

/** What reading one account's records gave: its check input, or notes saying why not. */
struct RecordOutcome
{
    std::optional<SessionCheckInput> sessions;
    QStringList notes;
};

RecordOutcome readRecords(ConnectionSet &connections, const DiagnosisInput &input, const AccountInfo &a)
{
    RecordOutcome out;
    if (!RecordSource::canResolve(connections, a.name)) {
        out.notes << credentialsNote(a.name);
        return out;
    }
    auto sessions = gatherSessions(connections, a, input.servers);
    if (!sessions) {
        out.notes << QStringLiteral("Session records of account %1 not checked: %2").arg(a.name, sessions.error().toString());
        return out;
    }
    if (!sessions->connected)
        out.notes << QStringLiteral("Account %1: connected clients unknown without a system connection, so SESSION_STALE was "
                                    "not checked and orphan consumers may belong to connected clean-session clients.")
                         .arg(a.name);
    out.sessions = std::move(sessions).value();
    return out;
}

void keep(DiagnosisInput &input, const QString &account, RecordOutcome &&outcome)
{
    input.notes << outcome.notes;
    if (outcome.sessions)
        input.sessions.insert(account, std::move(*outcome.sessions));
}

/**
 * Every account's own view (limits, retained subject counts) where the profile has its credentials,
 * and its records when asked, `parallelAccounts` accounts at once. An account that cannot be read is
 * noted and keeps its system view; the others go on.
 */
void readAccounts(ConnectionSet &connections, const Request &request, DiagnosisInput &input)
{
    // The profile's own user reads its account too (asked of the server once).
    QString primaryAccount;
    if (connections.profile().auth.isSet())
        if (auto name = connections.primaryAccountName())
            primaryAccount = *name;
    QList<int> own;  // accounts read through their own connections
    for (int i = 0; i < input.accounts.size(); ++i) {
        const AccountInfo &a = input.accounts[i];
        if (a.jetstream && (connections.hasAccountCredentials(a.name) || (!primaryAccount.isEmpty() && a.name == primaryAccount)))
            own.append(i);
        else if (request.records && wantsRecords(input, a))
            input.notes << credentialsNote(a.name);
    }
    QList<RecordOutcome> outcomes(own.size());
    std::atomic<int> done{0};
    parallelFor(int(own.size()), request.parallelAccounts, [&](int k) {
        AccountInfo &a = input.accounts[own[k]];
        RecordOutcome &outcome = outcomes[k];
        auto detailed = Discovery::account(connections, a.name);
        if (detailed) {
            const bool isSystem = a.isSystem;
            a = *detailed;
            a.isSystem = isSystem;
        } else {
            outcome.notes << QStringLiteral("Account %1 was checked from the system account's view only: reading it through its "
                                            "own connection failed: %2").arg(a.name, detailed.error().toString());
        }
        if (request.records && wantsRecords(input, a)) {
            RecordOutcome records = readRecords(connections, input, a);
            outcome.sessions = std::move(records.sessions);
            outcome.notes << records.notes;
        }
        if (request.progress)
            request.progress(done.fetch_add(1) + 1, int(own.size()), a.name);
    });
    for (int k = 0; k < own.size(); ++k)
        keep(input, input.accounts[own[k]].name, std::move(outcomes[k]));
    for (const AccountInfo &a : std::as_const(input.accounts))
        if (a.limitsKnown)
            input.limits.insert(a.name, a.limits);
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
        // The limits come with each account's own view below.
        auto accounts = Discovery::accounts(connections, Discovery::AccountLimits::Skip);
        if (!accounts)
            return accounts.error();
        input.accounts = std::move(accounts).value();
        readAccounts(connections, request, input);
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
    if (request.records && wantsRecords(input, *account))
        keep(input, account->name, readRecords(connections, input, *account));
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
