#include "clustertreeproxymodel.h"

#include "models/accountfilter.h"
#include "models/clustertreemodel.h"

namespace MqttDoctor {

using NodeKind = ClusterTreeModel::NodeKind;

ClusterTreeProxyModel::ClusterTreeProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    // New and changed rows are placed by the filter and the sort as they come (a refresh's badges).
    setDynamicSortFilter(true);
}

ClusterTreeProxyModel::~ClusterTreeProxyModel() = default;

void ClusterTreeProxyModel::setTreeModel(ClusterTreeModel *model)
{
    m_tree = model;
    setSourceModel(model);
    sort(ClusterTreeModel::NameColumn, Qt::AscendingOrder);
}

void ClusterTreeProxyModel::setFilterText(const QString &text)
{
    const QString normalized = AccountFilter::normalized(text);
    if (normalized == m_text)
        return;
    m_text = normalized;
    // One rebuild (a layout change) rather than invalidateRowsFilter(): typing a character can hide
    // thousands of rows scattered over the list, and removing them run by run costs the proxy and
    // the view time in proportion to the whole list for every run.
    invalidate();
    emit arrangementChanged();
}

void ClusterTreeProxyModel::setSortMode(AccountSort::Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    invalidate();
    emit arrangementChanged();
}

bool ClusterTreeProxyModel::hasChildren(const QModelIndex &parent) const
{
    // An account's own rows are never filtered: the model knows, without a mapping of them.
    if (m_tree && parent.isValid()) {
        const QModelIndex source = mapToSource(parent);
        if (m_tree->kindAt(source) == NodeKind::Account)
            return m_tree->hasChildren(source);
    }
    return QSortFilterProxyModel::hasChildren(parent);
}

bool ClusterTreeProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_text.isEmpty() || !m_tree || m_tree->kindAt(sourceParent) != NodeKind::AccountGroup)
        return true;
    return AccountFilter::matches(m_tree->nameAt(m_tree->index(sourceRow, 0, sourceParent)), m_text);
}

bool ClusterTreeProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (m_tree && m_mode == AccountSort::Mode::ByHealth && m_tree->kindAt(left) == NodeKind::Account) {
        const int a = AccountSort::problemRank(m_tree->healthAt(left));
        const int b = AccountSort::problemRank(m_tree->healthAt(right));
        if (a != b)
            return a < b;
    }
    // The model's order: for accounts that is AccountSort::nameLess.
    return left.row() < right.row();
}

} // namespace MqttDoctor
