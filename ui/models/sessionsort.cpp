#include "sessionsort.h"

#include <algorithm>
#include <numeric>

#include "models/sessiontablemodel.h"

namespace MqttDoctor::SessionSort {

namespace {

SessionSort::Key keyOf(const SessionEntry &e, int column)
{
    using C = SessionTableModel::Column;
    Key k;
    switch (column) {
    case C::ClientIdColumn: k.text = e.record ? e.clientId : QString(); break;
    case C::HashColumn: k.text = e.hash; break;
    case C::ConnectedColumn: k.number = e.connected ? (*e.connected ? 2 : 1) : 0; break;
    case C::CleanColumn: k.number = e.clean ? 1 : 0; break;
    case C::SubscriptionsColumn: k.number = e.subscriptionCount(); break;
    case C::ConsumersColumn: {
        const auto ok = std::count_if(e.consumers.cbegin(), e.consumers.cend(), [](const SessionConsumer &c) { return c.exists; });
        // By missing consumers, then by how many the record names (as SortRole).
        k.number = qint64(e.consumers.size() - ok) * 1000000 + qint64(e.consumers.size());
        break;
    }
    case C::LastWrittenColumn: k.number = e.time.isValid() ? e.time.toMSecsSinceEpoch() : 0; break;
    case C::ProblemsColumn: k.number = e.problemCount(); break;
    default: k.number = qint64(e.seq); break;
    }
    return k;
}

} // namespace

std::vector<Key> keys(const std::vector<const SessionEntry *> &rows, int column)
{
    std::vector<Key> out;
    out.reserve(rows.size());
    for (const SessionEntry *e : rows)
        out.push_back(keyOf(*e, column));
    return out;
}

std::vector<int> permutation(const std::vector<Key> &keys, Qt::SortOrder order)
{
    std::vector<int> perm(keys.size());
    std::iota(perm.begin(), perm.end(), 0);
    const auto less = [&keys](int a, int b) {
        const Key &x = keys[size_t(a)];
        const Key &y = keys[size_t(b)];
        if (x.number != y.number)
            return x.number < y.number;
        return x.text.compare(y.text) < 0;
    };
    if (order == Qt::AscendingOrder)
        std::stable_sort(perm.begin(), perm.end(), less);
    else
        std::stable_sort(perm.begin(), perm.end(), [&less](int a, int b) { return less(b, a); });
    return perm;
}

} // namespace MqttDoctor::SessionSort
