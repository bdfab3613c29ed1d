#include "accountsnapshot.h"

#include "diagnosis/checks.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

bool AccountSnapshot::wantsRecordChecks() const
{
    if (!account.jetstream)
        return false;
    return std::any_of(account.streams.cbegin(), account.streams.cend(),
                       [](const StreamInfo &s) { return s.name == MqttLayout::sessionsStream(); });
}

DiagnosisInput AccountSnapshot::diagnosisInput(const CheckOptions &options) const
{
    DiagnosisInput in;
    in.options = options;
    in.servers = servers;
    in.accounts = {account};
    if (account.limitsKnown)
        in.limits.insert(account.name, account.limits);
    in.includeSystemAccount = true;
    if (wantsRecordChecks() && sessionsComplete && records.consumersKnown)
        in.sessions.insert(account.name, records); // shares the lists: no record is copied
    in.gaps = gaps;
    if (closed)
        in.closedConnections.insert(account.name, *closed);
    if (managers)
        in.mqttManagers = QHash<QString, AccountManagers>{{account.name, *managers}};
    in.sampledAt = loadedAt;
    if (previous)
        in.previousSamples.insert(account.name, *previous);
    return in;
}

FindingList AccountSnapshot::findings(const CheckOptions &options) const
{
    QList<MissingConsumerFindings> apart;
    QList<Finding> listed = MissingConsumerFindings::diagnoseApart(diagnosisInput(options), apart);
    return FindingList(std::move(listed), std::move(apart)).ofAccount(account.name);
}

} // namespace MqttDoctor
