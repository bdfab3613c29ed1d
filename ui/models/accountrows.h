#pragma once

#include <QList>
#include <QMetaType>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Accounts made ready for ClusterTreeModel::setAccounts() where there is time for it (ClusterController
 * prepares them on its worker pool): sorted by AccountSort::nameLess, one per name, and for each a
 * digest of what the rows under it show (its MQTT streams' names, message counts and subjects, and
 * where in the account's list of streams each is). A
 * refresh of 10,000 accounts then compares one number per account on the GUI thread instead of
 * reading every stream's JSON there (~20 ms). Pure value type; prepare on any thread.
 */
class AccountRows
{
public:
    AccountRows() = default;
    /** Sorts, drops later accounts with a name seen before, computes the digests. Any thread. */
    static AccountRows prepare(QList<AccountInfo> accounts);
    /** What the rows under an account show, as one number (equal for equal rows). */
    static size_t childrenDigest(const AccountInfo &account);

    const QList<AccountInfo> &accounts() const { return m_accounts; }
    /** childrenDigest() of accounts()[i]. */
    size_t digest(qsizetype i) const { return m_digests.at(i); }
    qsizetype size() const { return m_accounts.size(); }
    bool isEmpty() const { return m_accounts.isEmpty(); }

private:
    QList<AccountInfo> m_accounts;
    QList<size_t> m_digests;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::AccountRows)
