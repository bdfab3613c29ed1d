#include "sessiontablemodel.h"

#include <QBrush>
#include <QColor>
#include <QFuture>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include "models/sessionsort.h"

namespace MqttDoctor {

SessionTableModel::SessionTableModel(QObject *parent) : QAbstractTableModel(parent) {}

SessionTableModel::~SessionTableModel() = default;

void SessionTableModel::appendBatch(QList<SessionEntry> &&batch)
{
    if (batch.isEmpty())
        return;
    // Kept as it came: const and shared, so the pointers into it stay valid and no entry is copied.
    auto kept = std::make_shared<const QList<SessionEntry>>(std::move(batch));
    // Matched before the rows are announced: a proxy asks rowMatches() while they are inserted.
    if (!m_appliedFilter.isEmpty())
        for (const SessionEntry &e : *kept)
            if (m_appliedFilter.accepts(e))
                m_matching.insert(&e);
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(kept->size()) - 1);
    for (const SessionEntry &e : *kept) {
        m_rows.push_back(&e);
        m_problemRows += e.hasProblems() ? 1 : 0;
    }
    m_batches.push_back(std::move(kept));
    endInsertRows();
}

void SessionTableModel::reserve(qsizetype rows)
{
    if (size_t(rows) > m_rows.capacity())
        m_rows.reserve(size_t(rows));
}

void SessionTableModel::clear()
{
    m_live.clear();
    ++m_sortGeneration;
    ++m_filterGeneration;
    m_sorting = false;
    const bool filterChanged = m_appliedFilter != m_filter;
    if (!m_rows.empty() || !m_batches.empty()) {
        beginResetModel();
        m_rows = {};
        discard(std::exchange(m_batches, {}));
        m_problemRows = 0;
        m_matching = {};
        m_appliedFilter = m_filter; // nothing left to match
        endResetModel();
    } else {
        m_matching = {};
        m_appliedFilter = m_filter;
    }
    if (filterChanged)
        emit filterApplied();
}

void SessionTableModel::setFilterAsync(const SessionFilter &filter)
{
    m_filter = filter;
    const quint64 generation = ++m_filterGeneration; // drops a pending match of another filter
    if (filter == m_appliedFilter)
        return;
    if (filter.isEmpty() || m_rows.size() < size_t(kSyncFilterRows)) {
        applyFilter(filter, filter.isEmpty() ? SessionFilter::MatchSet{} : filter.matching(m_rows));
        return;
    }
    // As sortAsync(): the worker reads the rows it was given (their batches kept alive); batches
    // appended meanwhile (m_batches only grows until clear() or a replace, which drop this result)
    // are matched on the GUI thread when the answer comes, as appendBatch() matches them.
    const size_t batchesBefore = m_batches.size();
    QtConcurrent::run([rows = m_rows, keep = m_batches, filter] {
        return filter.matching(rows);
    }).then(this, [this, generation, batchesBefore, filter](QFuture<SessionFilter::MatchSet> done) {
        if (generation != m_filterGeneration)
            return; // another filter, clear() or a refresh meanwhile
        SessionFilter::MatchSet matching = done.takeResult(); // moved, not copied on the GUI thread
        for (size_t b = batchesBefore; b < m_batches.size(); ++b)
            for (const SessionEntry &e : *m_batches[b])
                if (filter.accepts(e))
                    matching.insert(&e);
        applyFilter(filter, std::move(matching));
    });
}

void SessionTableModel::applyFilter(const SessionFilter &filter, SessionFilter::MatchSet &&matching)
{
    m_appliedFilter = filter;
    m_matching = std::move(matching);
    emit filterApplied();
}

bool SessionTableModel::rowMatches(int row) const
{
    const SessionEntry *e = entryAt(row);
    return e && (m_appliedFilter.isEmpty() || m_matching.contains(e));
}

void SessionTableModel::discard(std::vector<Batch> &&batches)
{
    if (batches.empty())
        return;
    static_cast<void>(QtConcurrent::run([old = std::move(batches)]() mutable { old.clear(); }));
}

void SessionTableModel::sortAsync(int column, Qt::SortOrder order)
{
    // QTableView asks twice for one header click (the indicator's signal, then sortByColumn itself):
    // the sort already running for the same column and order answers both.
    if (m_sorting && column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    const quint64 generation = ++m_sortGeneration;
    if (m_rows.size() < 2) {
        m_sorting = false;
        emit sorted();
        return;
    }
    m_sorting = true;
    // The worker gets the row pointers and keeps their batches alive; batches appended meanwhile
    // are new objects, so nothing it reads changes under it.
    QtConcurrent::run([rows = m_rows, keep = m_batches, column, order] {
        const std::vector<int> perm = SessionSort::permutation(SessionSort::keys(rows, column), order);
        Sorted out;
        out.rows.reserve(rows.size());
        out.newRowOf.resize(rows.size());
        for (size_t i = 0; i < perm.size(); ++i) {
            out.rows.push_back(rows[size_t(perm[i])]);
            out.newRowOf[size_t(perm[i])] = int(i);
        }
        return out;
    }).then(this, [this, generation](QFuture<Sorted> done) {
        if (generation != m_sortGeneration)
            return; // cleared, replaced or sorted again meanwhile
        m_sorting = false;
        applySorted(done.takeResult()); // moved, not copied on the GUI thread
        emit sorted();
    });
}

void SessionTableModel::applySorted(Sorted &&result)
{
    const size_t sortedRows = result.rows.size();
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<const SessionEntry *> rows = std::move(result.rows);
    rows.reserve(std::max(m_rows.capacity(), m_rows.size()));
    rows.insert(rows.end(), m_rows.begin() + qsizetype(sortedRows), m_rows.end()); // appended while sorting
    m_rows = std::move(rows);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex &index : before) {
        const int row = size_t(index.row()) < sortedRows ? result.newRowOf[size_t(index.row())] : index.row();
        after.append(this->index(row, index.column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void SessionTableModel::replaceAllAsync(QList<QList<SessionEntry>> batches)
{
    m_live.clear(); // the refresh read the connected clients again
    const quint64 generation = ++m_sortGeneration;
    m_sorting = true;
    QtConcurrent::run([batches = std::move(batches), column = m_sortColumn, order = m_sortOrder, filter = m_filter]() mutable {
        Replacement out;
        for (QList<SessionEntry> &b : batches) {
            if (b.isEmpty())
                continue;
            auto kept = std::make_shared<const QList<SessionEntry>>(std::move(b));
            for (const SessionEntry &e : *kept) {
                out.rows.push_back(&e);
                out.problemRows += e.hasProblems() ? 1 : 0;
            }
            out.batches.push_back(std::move(kept));
        }
        const std::vector<int> perm = SessionSort::permutation(SessionSort::keys(out.rows, column), order);
        std::vector<const SessionEntry *> sortedRows;
        sortedRows.reserve(perm.size());
        for (const int i : perm)
            sortedRows.push_back(out.rows[size_t(i)]);
        out.rows = std::move(sortedRows);
        out.filter = filter;
        if (!filter.isEmpty())
            out.matching = filter.matching(out.rows);
        return out;
    }).then(this, [this, generation](QFuture<Replacement> done) {
        Replacement result = done.takeResult(); // moved, not copied on the GUI thread
        if (generation != m_sortGeneration) {
            discard(std::move(result.batches));
            return;
        }
        m_sorting = false;
        ++m_filterGeneration; // a pending match is of the old rows
        emit aboutToBeReplaced();
        beginResetModel();
        m_rows = std::move(result.rows);
        m_problemRows = result.problemRows;
        discard(std::exchange(m_batches, std::move(result.batches)));
        const bool filterChanged = m_appliedFilter != result.filter;
        m_appliedFilter = result.filter;
        m_matching = std::move(result.matching);
        endResetModel();
        if (filterChanged)
            emit filterApplied();
        if (m_appliedFilter != m_filter) // the filter changed while the new rows were read: match them again
            setFilterAsync(m_filter);
        emit replaced();
    });
}

const SessionEntry *SessionTableModel::entryAt(int row) const
{
    return row >= 0 && size_t(row) < m_rows.size() ? m_rows[size_t(row)] : nullptr;
}

QString SessionTableModel::connectedOf(const SessionEntry &e) const
{
    if (!m_live.isEmpty() && e.record)
        if (const auto it = m_live.constFind(e.clientId); it != m_live.cend())
            return it->has_value() ? tr("yes") : tr("no");
    return connectedText(e);
}

int SessionTableModel::connectedRank(const SessionEntry &e) const
{
    if (!m_live.isEmpty() && e.record)
        if (const auto it = m_live.constFind(e.clientId); it != m_live.cend())
            return it->has_value() ? 2 : 1;
    return e.connected ? (*e.connected ? 2 : 1) : 0;
}

QString SessionTableModel::connectedTextAt(int row) const
{
    const SessionEntry *e = entryAt(row);
    return e ? connectedOf(*e) : QString();
}

void SessionTableModel::setLiveConnected(const QHash<QString, std::optional<QString>> &updates)
{
    if (updates.isEmpty())
        return;
    for (auto it = updates.cbegin(); it != updates.cend(); ++it)
        m_live.insert(it.key(), it.value());
    // One pass over the rows for the whole batch; one dataChanged over the rows it touched.
    int first = -1, last = -1;
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i]->record && updates.contains(m_rows[i]->clientId)) {
            first = first < 0 ? int(i) : first;
            last = int(i);
        }
    if (first >= 0)
        emit dataChanged(index(first, ConnectedColumn), index(last, ConnectedColumn), {Qt::DisplayRole});
}

int SessionTableModel::rowOf(const QString &clientId) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i]->record && m_rows[i]->clientId == clientId)
            return int(i);
    return -1;
}

int SessionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SessionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ConsumersColumn)
        return tr("Durable consumers that exist, of those the session record names");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ClientIdColumn: return tr("Client ID");
    case HashColumn: return tr("Hash");
    case ConnectedColumn: return tr("Connected");
    case CleanColumn: return tr("Clean");
    case SubscriptionsColumn: return tr("Subscriptions");
    case ConsumersColumn: return tr("Consumers");
    case LastWrittenColumn: return tr("Last written");
    case ProblemsColumn: return tr("Problems");
    default: return {};
    }
}

QString SessionTableModel::consumersText(const SessionEntry &entry)
{
    const auto ok = std::count_if(entry.consumers.cbegin(), entry.consumers.cend(), [](const SessionConsumer &c) { return c.exists; });
    return QStringLiteral("%1/%2").arg(ok).arg(entry.consumers.size());
}

QString SessionTableModel::connectedText(const SessionEntry &entry)
{
    if (!entry.connected)
        return QStringLiteral("?");
    return *entry.connected ? tr("yes") : tr("no");
}

QVariant SessionTableModel::displayData(const SessionEntry &e, int column) const
{
    switch (column) {
    case ClientIdColumn: return e.record ? e.clientId : tr("(undecodable)");
    case HashColumn: return e.hash;
    case ConnectedColumn: return connectedOf(e);
    case CleanColumn: return e.clean ? tr("yes") : tr("no");
    case SubscriptionsColumn: {
        QStringList filters;
        for (const SessionRecord::Subscription &s : e.subscriptions())
            filters << QStringLiteral("%1 (QoS %2)").arg(s.mqttFilter).arg(s.qos);
        return filters.join(QStringLiteral(", "));
    }
    case ConsumersColumn: return consumersText(e);
    case LastWrittenColumn: return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case ProblemsColumn: return e.problems().join(QStringLiteral("; "));
    default: return {};
    }
}

QVariant SessionTableModel::sortData(const SessionEntry &e, int column) const
{
    switch (column) {
    case ConnectedColumn: return connectedRank(e);
    case CleanColumn: return e.clean;
    case SubscriptionsColumn: return qint64(e.subscriptionCount());
    case ConsumersColumn: {
        const auto ok = std::count_if(e.consumers.cbegin(), e.consumers.cend(), [](const SessionConsumer &c) { return c.exists; });
        // By missing consumers, then by how many the record names.
        return qint64(e.consumers.size() - ok) * 1000000 + qint64(e.consumers.size());
    }
    case LastWrittenColumn: return e.time.toMSecsSinceEpoch();
    case ProblemsColumn: return qint64(e.problemCount());
    default: return displayData(e, column);
    }
}

QVariant SessionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionEntry &e = *m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return displayData(e, index.column());
    case Qt::ToolTipRole:
        if (index.column() == ProblemsColumn && e.hasProblems())
            return e.problems().join(QLatin1Char('\n'));
        if (index.column() == SubscriptionsColumn)
            return displayData(e, index.column());
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ProblemsColumn && e.hasProblems())
            return QBrush(QColor(0xb0, 0x20, 0x20));
        if (index.column() == ClientIdColumn && !e.record)
            return QBrush(QColor(0xb0, 0x20, 0x20));
        return {};
    case SortRole: return sortData(e, index.column());
    case ClientIdRole: return e.clientId;
    case HashRole: return e.hash;
    case ProblemCountRole: return int(e.problemCount());
    default: return {};
    }
}

} // namespace MqttDoctor
