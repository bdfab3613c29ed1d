#include "sessionfilterproxymodel.h"

#include "models/sessiontablemodel.h"

namespace MqttDoctor {

SessionFilterProxyModel::SessionFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SessionTableModel::SortRole);
}

SessionFilterProxyModel::~SessionFilterProxyModel() = default;

void SessionFilterProxyModel::setSessionModel(SessionTableModel *model)
{
    if (m_sessions)
        disconnect(m_sessions, nullptr, this, nullptr);
    m_sessions = model;
    setSourceModel(model);
    if (!model)
        return;
    connect(model, &SessionTableModel::filterApplied, this, [this] {
        // Qt 6.4 has no begin/endFilterChange(): invalidateFilter() asks filterAcceptsRow, a lookup now.
        invalidateFilter();
        emit filterApplied();
    });
    requestFilter();
}

void SessionFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    if (m_sessions)
        m_sessions->sortAsync(column, order);
}

void SessionFilterProxyModel::setFilterText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    requestFilter();
}

void SessionFilterProxyModel::setProblemsOnly(bool on)
{
    if (on == m_problemsOnly)
        return;
    m_problemsOnly = on;
    requestFilter();
}

bool SessionFilterProxyModel::isFiltering() const
{
    return m_sessions && m_sessions->isFiltering();
}

void SessionFilterProxyModel::requestFilter()
{
    if (m_sessions)
        m_sessions->setFilterAsync(SessionFilter{m_text, m_problemsOnly});
}

bool SessionFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    return !sourceParent.isValid() && m_sessions && m_sessions->rowMatches(sourceRow);
}

} // namespace MqttDoctor
