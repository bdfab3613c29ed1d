#include "accountrows.h"

#include <algorithm>

#include <QHashFunctions>

#include "models/accountsort.h"
#include "models/displayformat.h"

namespace MqttDoctor {

AccountRows AccountRows::prepare(QList<AccountInfo> accounts)
{
    const auto byName = [](const AccountInfo &a, const AccountInfo &b) { return AccountSort::nameLess(a.name, b.name); };
    if (!std::is_sorted(accounts.cbegin(), accounts.cend(), byName))
        std::stable_sort(accounts.begin(), accounts.end(), byName);
    const auto sameName = [](const AccountInfo &a, const AccountInfo &b) { return a.name == b.name; };
    if (std::adjacent_find(accounts.cbegin(), accounts.cend(), sameName) != accounts.cend())
        accounts.erase(std::unique(accounts.begin(), accounts.end(), sameName), accounts.end());
    AccountRows rows;
    rows.m_digests.reserve(accounts.size());
    for (const AccountInfo &account : std::as_const(accounts))
        rows.m_digests.append(childrenDigest(account));
    rows.m_accounts = std::move(accounts);
    return rows;
}

size_t AccountRows::childrenDigest(const AccountInfo &account)
{
    // What ClusterTreeModel shows for a stream row: its name (legacy or not), message count and
    // subjects (the tooltip). The record views follow from there being streams at all. The stream's
    // index in `streams` too: the model's stream rows point at their entry by index.
    size_t digest = 0;
    for (qsizetype i = 0; i < account.streams.size(); ++i) {
        const StreamInfo &s = account.streams.at(i);
        if (s.isMqtt())
            digest = qHashMulti(digest, i, s.name, DisplayFormat::messages(s), DisplayFormat::subjects(s));
    }
    return digest;
}

} // namespace MqttDoctor
