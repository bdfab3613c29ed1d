#pragma once

#include <QAbstractProxyModel>
#include <QList>
#include <QPersistentModelIndex>

#include <vector>

namespace MqttDoctor {

class SessionTableModel;

/**
 * Filters a SessionTableModel with the CLI's `--filter` predicate
 * (SessionLoader::matches: client ID, hash, subject or any subscription, case-insensitive), so the
 * table and `sessions --filter` agree. Optionally only rows with problems. The matching itself is
 * the source model's (SessionTableModel::setFilterAsync: on a worker for a large table); this proxy
 * only looks up which rows match and changes its rows in one go when an answer comes (filterApplied
 * of the source), so typing into the filter never matches 100,000 rows on the GUI thread. Sorting
 * (a view's header click) is passed on to SessionTableModel::sortAsync(): the proxy keeps the
 * source's order, so it never sorts 100,000 rows on the GUI thread. Without a filter it maps row to
 * row and keeps no mapping (a QSortFilterProxyModel asked its filter for each of a million rows after
 * every sort: a 390 ms stall); with one it keeps the shown rows, rebuilt when the rows move. GUI
 * thread only.
 */
class SessionFilterProxyModel final : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionFilterProxyModel)

public:
    explicit SessionFilterProxyModel(QObject *parent = nullptr);
    ~SessionFilterProxyModel() override;

    void setSessionModel(SessionTableModel *model);
    /** Filters by `text` (trimmed); the rows change when the source has matched them. */
    void setFilterText(const QString &text);
    /** The text last asked for (the rows may still show the previous one: isFiltering()). */
    QString filterText() const { return m_text; }
    void setProblemsOnly(bool on);
    bool problemsOnly() const { return m_problemsOnly; }
    /** A filter is being matched on a worker; the rows are the previous filter's until filterApplied(). */
    bool isFiltering() const;

    /** Sorts the source model on a worker (SessionTableModel::sortAsync). */
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    /** The rows now follow the filter last asked for (or an earlier one when a newer is pending). */
    void filterApplied();

public:
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;

private:
    void requestFilter();
    /** Which rows show: all (no mapping) or those the source's applied filter matches. */
    void rebuild();
    void sourceRowsInserted(int first, int last);
    /** A change of which rows show or of their order: persistent indexes follow their source rows. */
    void beginLayoutChange();
    void endLayoutChange();

    SessionTableModel *m_sessions = nullptr;
    QString m_text;
    bool m_problemsOnly = false;
    bool m_all = true; ///< every source row shows, in its order (no filter applied)
    int m_allRows = 0; ///< m_all: the rows announced so far (the source's count lags inserts)
    std::vector<int> m_sourceRows; ///< !m_all: proxy row -> source row
    std::vector<int> m_proxyRows; ///< !m_all: source row -> proxy row, -1 when hidden
    QModelIndexList m_layoutProxy; ///< during a layout change: the proxy's persistent indexes
    QList<QPersistentModelIndex> m_layoutSource; ///< ... and the source rows they stand for
    bool m_inLayoutChange = false;
};

} // namespace MqttDoctor
