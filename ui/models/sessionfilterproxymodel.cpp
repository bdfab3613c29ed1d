#include "sessionfilterproxymodel.h"

#include "models/sessiontablemodel.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

SessionFilterProxyModel::SessionFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SessionTableModel::SortRole);
}

SessionFilterProxyModel::~SessionFilterProxyModel() = default;

void SessionFilterProxyModel::setSessionModel(SessionTableModel *model)
{
    m_sessions = model;
    setSourceModel(model);
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
    // Qt 6.4 has no begin/endFilterChange(): invalidateFilter() re-runs filterAcceptsRow.
    m_text = trimmed;
    invalidateFilter();
}

void SessionFilterProxyModel::setProblemsOnly(bool on)
{
    if (on == m_problemsOnly)
        return;
    m_problemsOnly = on;
    invalidateFilter();
}

bool SessionFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || !m_sessions)
        return false;
    const SessionEntry *entry = m_sessions->entryAt(sourceRow);
    if (!entry)
        return false;
    if (m_problemsOnly && entry->problems.isEmpty())
        return false;
    return SessionLoader::matches(*entry, m_text);
}

} // namespace MqttDoctor
