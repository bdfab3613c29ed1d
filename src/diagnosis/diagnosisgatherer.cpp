#include "diagnosisgatherer.h"

#include <atomic>

#include "common/parallelfor.h"
#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/checks.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/systemclient.h"

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

/** The record-level check input and notes of one loaded account, kept in `input`. */
void keep(DiagnosisInput &input, AccountSnapshot &&snapshot)
{
    input.gaps << snapshot.gaps;
    const DiagnosisInput own = snapshot.diagnosisInput(input.options);
    for (auto it = own.sessions.cbegin(); it != own.sessions.cend(); ++it)
        input.sessions.insert(it.key(), it.value());
}

/**
 * Every account's own view (limits, retained subject counts) where the profile has its credentials,
 * and its records when asked, `parallelAccounts` accounts at once (AccountSnapshotLoader, the servers
 * known). An account that cannot be read is noted and keeps its system view; the others go on.
 */
void readAccounts(ConnectionSet &connections, const Request &request, DiagnosisInput &input)
{
    // The profile's own user reads its account too (asked of the server once).
    QString primaryAccount;
    if (connections.profile().auth.isSet())
        if (auto name = connections.primaryAccountName())
            primaryAccount = *name;
    QList<int> own; // accounts read through their own connections
    for (int i = 0; i < input.accounts.size(); ++i) {
        const AccountInfo &a = input.accounts[i];
        if (a.jetstream && (connections.hasAccountCredentials(a.name) || (!primaryAccount.isEmpty() && a.name == primaryAccount)))
            own.append(i);
        else if (request.records && wantsRecords(input, a))
            input.gaps << CoverageGap::recordsNeedCredentials(a.name);
        else if (!request.records && wantsRecords(input, a))
            input.gaps << CoverageGap::recordsNotAsked(a.name);
    }
    QList<AccountSnapshot> snapshots(own.size());
    std::atomic<int> done{0};
    parallelFor(int(own.size()), request.parallelAccounts, [&](int k) {
        const AccountInfo &a = input.accounts[own[k]];
        AccountSnapshotLoader loader(connections);
        AccountSnapshotLoader::Options options;
        options.records = request.records && !(a.isSystem && !input.includeSystemAccount);
        options.recordsOnlyWhenChecked = true;
        options.retainedTopics = request.options.targetVersion.has_value();
        snapshots[k] = loader.load(input.servers, a, true, options);
        if (request.progress)
            request.progress(done.fetch_add(1) + 1, int(own.size()), a.name);
    });
    for (int k = 0; k < own.size(); ++k) {
        input.accounts[own[k]] = snapshots[k].account;
        keep(input, std::move(snapshots[k]));
    }
    for (const AccountInfo &a : std::as_const(input.accounts))
        if (a.limitsKnown)
            input.limits.insert(a.name, a.limits);
}

/** Every account's MQTT set-up on the servers (one SUBSZ ping for all of them), resolved where a consumer is missing. */
void readManagers(ConnectionSet &connections, DiagnosisInput &input)
{
    auto sys = connections.systemClient();
    auto read = sys ? MqttManagers::read(*sys) : Result<QHash<QString, QList<MqttManager>>>(sys.error());
    if (!read) {
        for (const AccountInfo &a : std::as_const(input.accounts))
            if (MqttManagers::rmsgsConsumers(a))
                input.gaps << CoverageGap{
                    a.name, CoverageGap::Level::ServerState, CoverageGap::Cause::Failed,
                    QStringLiteral("reading the servers' subscriptions (SUBSZ) failed: %1").arg(read.error().toString())};
        return;
    }
    QHash<QString, AccountManagers> managers;
    for (const AccountInfo &a : std::as_const(input.accounts))
        if (read->contains(a.name))
            managers.insert(a.name, MqttManagers::complete(*sys, a, read->value(a.name)));
    input.mqttManagers = std::move(managers);
}

} // namespace

Result<DiagnosisInput> gather(ConnectionSet &connections, const Request &request)
{
    const bool everyAccount = request.allAccounts || (request.account.isEmpty() && !connections.profile().auth.isSet());
    if (!everyAccount) {
        // One account: one snapshot (the servers as the set knows them, each read once).
        AccountSnapshotLoader loader(connections);
        AccountSnapshotLoader::Options options;
        options.records = request.records;
        options.recordsOnlyWhenChecked = true;
        options.retainedTopics = request.options.targetVersion.has_value();
        auto snapshot = loader.load(request.account, options);
        if (!snapshot)
            return snapshot.error();
        AccountSnapshotLoader::readManagers(connections, *snapshot);
        if (!request.records && snapshot->wantsRecordChecks())
            snapshot->gaps << CoverageGap::recordsNotAsked(snapshot->account.name);
        DiagnosisInput one = snapshot->diagnosisInput(request.options);
        one.previousSamples = request.previousSamples;
        return one;
    }

    DiagnosisInput input;
    input.options = request.options;
    input.sampledAt = QDateTime::currentDateTimeUtc();
    input.previousSamples = request.previousSamples;
    auto servers = Discovery::knownServers(connections);
    if (!servers)
        return servers.error();
    input.servers = *servers;
    if (!connections.hasSystem())
        return Error(Error::Kind::NoSystemAccess, QStringLiteral("checking every account needs a system connection"),
                     QStringLiteral("give the system account's credentials, or check one account"))
            .withSetting(Error::Setting::SystemCredentials);
    // The limits come with each account's own view below.
    auto accounts = Discovery::accounts(connections, Discovery::AccountLimits::Skip);
    if (!accounts)
        return accounts.error();
    input.accounts = std::move(accounts).value();
    readAccounts(connections, request, input);
    readManagers(connections, input);
    return input;
}

QHash<QString, AccountSample> samplesOf(const DiagnosisInput &input)
{
    QHash<QString, AccountSample> out;
    for (const AccountInfo &a : input.accounts)
        out.insert(a.name, AccountSample::of(a, input.sampledAt));
    return out;
}

Result<QList<Finding>> check(ConnectionSet &connections, const Request &request)
{
    return gather(connections, request).transform([&](auto &&value) { return Checks::diagnose(value); });
}

} // namespace MqttDoctor::DiagnosisGatherer
