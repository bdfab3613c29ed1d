#include "sessionfilterproxymodel.h"

#include "models/sessiontablemodel.h"

namespace MqttDoctor {

SessionFilterProxyModel::SessionFilterProxyModel(QObject *parent) : QAbstractProxyModel(parent) {}

SessionFilterProxyModel::~SessionFilterProxyModel() = default;

void SessionFilterProxyModel::setSessionModel(SessionTableModel *model)
{
    beginResetModel();
    if (m_sessions)
        disconnect(m_sessions, nullptr, this, nullptr);
    m_sessions = model;
    setSourceModel(model);
    rebuild();
    endResetModel();
    if (!model)
        return;
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        rebuild();
        endResetModel();
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int first, int last) {
        if (!parent.isValid())
            sourceRowsInserted(first, last);
    });
    // The table only appends, sorts, filters and resets; anything else is taken as a reset.
    connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this] { beginResetModel(); });
    connect(model, &QAbstractItemModel::rowsRemoved, this, [this] {
        rebuild();
        endResetModel();
    });
    connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, &SessionFilterProxyModel::beginLayoutChange);
    connect(model, &QAbstractItemModel::layoutChanged, this, &SessionFilterProxyModel::endLayoutChange);
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
                if (rowCount() == 0)
                    return;
                if (m_all)
                    emit dataChanged(index(topLeft.row(), topLeft.column()), index(bottomRight.row(), bottomRight.column()), roles);
                else // the changed rows may be anywhere among the shown ones
                    emit dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()), roles);
            });
    connect(model, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    connect(model, &SessionTableModel::filterApplied, this, [this] {
        beginLayoutChange();
        endLayoutChange();
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

QModelIndex SessionFilterProxyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex SessionFilterProxyModel::parent(const QModelIndex &) const
{
    return {};
}

int SessionFilterProxyModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_sessions)
        return 0;
    return m_all ? m_allRows : int(m_sourceRows.size());
}

int SessionFilterProxyModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_sessions ? 0 : m_sessions->columnCount();
}

bool SessionFilterProxyModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

QModelIndex SessionFilterProxyModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_sessions || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    const int row = m_all ? proxyIndex.row() : m_sourceRows[size_t(proxyIndex.row())];
    return m_sessions->index(row, proxyIndex.column());
}

QModelIndex SessionFilterProxyModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!m_sessions || !sourceIndex.isValid() || sourceIndex.model() != m_sessions)
        return {};
    if (m_all)
        return index(sourceIndex.row(), sourceIndex.column()); // invalid beyond the rows announced
    const size_t row = size_t(sourceIndex.row());
    return row < m_proxyRows.size() && m_proxyRows[row] >= 0 ? index(m_proxyRows[row], sourceIndex.column()) : QModelIndex();
}

void SessionFilterProxyModel::rebuild()
{
    m_sourceRows.clear();
    m_proxyRows.clear();
    m_all = !m_sessions || m_sessions->appliedFilter().isEmpty();
    m_allRows = m_all && m_sessions ? m_sessions->rowCount() : 0;
    if (m_all)
        return;
    const int rows = m_sessions->rowCount();
    m_proxyRows.assign(size_t(rows), -1);
    for (int r = 0; r < rows; ++r) {
        if (m_sessions->rowMatches(r)) {
            m_proxyRows[size_t(r)] = int(m_sourceRows.size());
            m_sourceRows.push_back(r);
        }
    }
}

void SessionFilterProxyModel::sourceRowsInserted(int first, int last)
{
    if (m_all) {
        beginInsertRows({}, m_allRows, last);
        m_allRows = last + 1;
        endInsertRows();
        return;
    }
    if (size_t(first) != m_proxyRows.size()) { // not an append: start over
        beginResetModel();
        rebuild();
        endResetModel();
        return;
    }
    std::vector<int> shown;
    for (int r = first; r <= last; ++r)
        if (m_sessions->rowMatches(r))
            shown.push_back(r);
    m_proxyRows.resize(size_t(last) + 1, -1);
    if (shown.empty())
        return;
    const int from = int(m_sourceRows.size());
    beginInsertRows({}, from, from + int(shown.size()) - 1);
    for (int r : shown) {
        m_proxyRows[size_t(r)] = int(m_sourceRows.size());
        m_sourceRows.push_back(r);
    }
    endInsertRows();
}

void SessionFilterProxyModel::beginLayoutChange()
{
    if (m_inLayoutChange)
        return;
    m_inLayoutChange = true;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // The few indexes views keep (current, selection) follow their source rows; a million rows do not move here.
    m_layoutProxy = persistentIndexList();
    m_layoutSource.clear();
    m_layoutSource.reserve(m_layoutProxy.size());
    for (const QModelIndex &i : std::as_const(m_layoutProxy))
        m_layoutSource.append(QPersistentModelIndex(mapToSource(i)));
}

void SessionFilterProxyModel::endLayoutChange()
{
    if (!m_inLayoutChange)
        return;
    m_inLayoutChange = false;
    if (!m_all || (m_sessions && !m_sessions->appliedFilter().isEmpty()))
        rebuild();
    QModelIndexList after;
    after.reserve(m_layoutProxy.size());
    for (const QPersistentModelIndex &source : std::as_const(m_layoutSource))
        after.append(mapFromSource(source));
    changePersistentIndexList(m_layoutProxy, after);
    m_layoutProxy.clear();
    m_layoutSource.clear();
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace MqttDoctor
