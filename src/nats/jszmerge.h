#pragma once

#include <QHash>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

/**
 * Merges JSZ replies (`account_details` with streams, consumers and configs) of several servers and
 * pages into one entry per account and one per stream. A replicated stream appears in the reply of
 * every server that holds a replica: the leader's view is kept; consumers are groups of their own,
 * so each consumer's view comes from its own leader. Replies are added one at a time, so a big
 * listing need not be held whole. Pure (no network); not thread-safe.
 */
class JszMerge final
{
public:
    /**
     * Adds one server's reply (error replies and servers without JetStream add nothing). A reply whose
     * shape the merge relies on is wrong (details not an array of named objects...) is a Protocol error
     * naming `subject`, and adds nothing. With `only` set, other accounts in the reply are left out
     * (a server asked for one account it does not have may list another one instead). Returns the
     * names of the accounts in the reply that were added, in its order.
     */
    Result<QStringList> add(const SystemClient::Reply &reply, const QString &subject, const QString &only = {});

    bool contains(const QString &account) const { return m_accounts.contains(account); }
    qsizetype accountCount() const { return m_accounts.size(); }
    /** The merged accounts, sorted by name; their streams sorted by name. */
    QList<AccountInfo> accounts() const;
    /** JetStream meta-group peers as the meta leader listed them: name and whether offline. */
    QList<QPair<QString, bool>> metaPeers() const { return m_metaPeers; }

private:
    struct ConsumerPick
    {
        QJsonObject info;
        bool fromLeader = false;
    };
    struct StreamPick
    {
        StreamInfo info;
        bool fromLeader = false;
        QMap<QString, ConsumerPick> consumers;
    };
    struct AccountEntry
    {
        AccountInfo info;
        QMap<QString, StreamPick> streams;
        /** Each server's `api` counters of the account (by server name): summed into info.api. */
        QHash<QString, QPair<qint64, qint64>> apiByServer;
    };

    QHash<QString, AccountEntry> m_accounts;
    QList<QPair<QString, bool>> m_metaPeers;
};

} // namespace MqttDoctor
