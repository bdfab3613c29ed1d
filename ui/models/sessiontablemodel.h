#pragma once

#include <optional>

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <memory>
#include <vector>

#include "models/sessionfilter.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

/**
 * The MQTT sessions of an account, filled batch by batch while SessionLoader reads `$MQTT_sess`
 * (appendBatch() inserts rows at the end, so a view stays usable during a 100,000-row load). Each
 * batch is kept as it arrived, immutable and shared (no copy of its entries); the rows are pointers
 * into the batches in display order. That lets sorting happen on a worker: sortAsync() hands the
 * row pointers to a worker (SessionSort), which reads the keys and sorts them while new batches
 * keep arriving, and the GUI thread only swaps the pointer order in (one layout change).
 * replaceAllAsync() swaps in a freshly read set of batches (a refresh), sorted on a worker first.
 * Filtering works the same way: setFilterAsync() has a worker find the matching rows of a large
 * table (SessionFilter), the GUI thread swaps the answer in at once (filterApplied()) and
 * rowMatches() only looks it up; rows appended later are matched as they arrive, a refresh matches
 * its rows on its worker. SortRole gives raw values; entryAt() hands the whole SessionEntry to the
 * details pane. GUI thread only.
 */
class SessionTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionTableModel)

public:
    enum Column {
        ClientIdColumn,
        HashColumn,
        ConnectedColumn,
        CleanColumn,
        SubscriptionsColumn,
        ConsumersColumn,
        LastWrittenColumn,
        ProblemsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value of the column
        ClientIdRole, ///< QString, empty when undecodable
        HashRole, ///< QString
        ProblemCountRole, ///< int
    };

    explicit SessionTableModel(QObject *parent = nullptr);
    ~SessionTableModel() override;

    /** Appends a batch (one beginInsertRows for all of it). */
    void appendBatch(QList<SessionEntry> &&batch);
    /** Makes room for `rows` rows in all (the load's total), so appends never move 100,000 entries. */
    void reserve(qsizetype rows);
    void clear();
    /**
     * Sorts by `column` (-1: load order) on a worker; sorted() once the rows are in order. Rows
     * appended meanwhile stay at the end; clear() or a newer sort drops a running one.
     */
    void sortAsync(int column, Qt::SortOrder order);
    /** Replaces every row with those of `batches`, sorted like the last sortAsync() on a worker; replaced() after. */
    void replaceAllAsync(QList<QList<SessionEntry>> batches);
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    bool isSorting() const { return m_sorting; }
    /**
     * Filters by `filter` (rowMatches()): a table of at least kSyncFilterRows rows is matched on a
     * worker, a smaller one at once; filterApplied() when the rows that match are known. Until then
     * rowMatches() answers for the previous filter. A newer filter, clear() or a refresh drops a
     * pending result (a refresh matches its own rows with the filter it started with, then again if
     * the filter changed meanwhile).
     */
    void setFilterAsync(const SessionFilter &filter);
    /** The filter last asked for. */
    const SessionFilter &filter() const { return m_filter; }
    /** The filter rowMatches() answers for (differs from filter() while matching). */
    const SessionFilter &appliedFilter() const { return m_appliedFilter; }
    bool isFiltering() const { return m_appliedFilter != m_filter; }
    /** Whether the row passes the applied filter (a lookup; no matching on the GUI thread). */
    bool rowMatches(int row) const;
    static constexpr int kSyncFilterRows = 4096;

    /**
     * Live connection state from the client events (ActivityFeed) over what the load read: client ID →
     * the server it connected to, or nullopt when it disconnected. Kept until the next clear() or
     * refresh (which reads the connected clients again). Updates the Connected column of those rows.
     */
    void setLiveConnected(const QHash<QString, std::optional<QString>> &updates);
    /** Whether the row's client is connected, live state first ("yes", "no", "?"). */
    QString connectedTextAt(int row) const;

    const SessionEntry *entryAt(int row) const;
    /** The row of the record with this client ID, -1 when absent. */
    int rowOf(const QString &clientId) const;
    qsizetype problemRows() const { return m_problemRows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /** "2/3": existing consumers of the record out of those it names. */
    static QString consumersText(const SessionEntry &entry);
    /** "yes", "no" or "?" (unknown without a system connection). */
    static QString connectedText(const SessionEntry &entry);

Q_SIGNALS:
    void sorted();
    /** appliedFilter() changed: the rows that match are known. */
    void filterApplied();
    /** The rows are about to be swapped (a view can note its selection and scroll position now). */
    void aboutToBeReplaced();
    void replaced();

private:
    using Batch = std::shared_ptr<const QList<SessionEntry>>;
    struct Sorted
    {
        std::vector<const SessionEntry *> rows; ///< the sorted rows
        std::vector<int> newRowOf; ///< old row → new row
    };
    struct Replacement
    {
        std::vector<Batch> batches;
        std::vector<const SessionEntry *> rows;
        qsizetype problemRows = 0;
        SessionFilter filter; ///< the filter `matching` was made with
        SessionFilter::MatchSet matching;
    };

    void applySorted(Sorted &&sorted);
    void applyFilter(const SessionFilter &filter, SessionFilter::MatchSet &&matching);
    /** Frees batches on a worker (100,000 decoded records take ~200 ms to free). */
    static void discard(std::vector<Batch> &&batches);
    QVariant displayData(const SessionEntry &entry, int column) const;
    QVariant sortData(const SessionEntry &entry, int column) const;

    /** The Connected text and sort value of an entry, live state first. */
    QString connectedOf(const SessionEntry &entry) const;
    int connectedRank(const SessionEntry &entry) const;

    QHash<QString, std::optional<QString>> m_live; ///< client ID → server (connected) or nullopt (gone), from events
    std::vector<Batch> m_batches;
    std::vector<const SessionEntry *> m_rows; ///< into m_batches, in display order
    qsizetype m_problemRows = 0;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    quint64 m_sortGeneration = 0; ///< bumped by clear(), sorts and replaces: older results are dropped
    bool m_sorting = false;
    SessionFilter m_filter; ///< asked for
    SessionFilter m_appliedFilter; ///< what m_matching holds the matches of
    SessionFilter::MatchSet m_matching; ///< rows that pass m_appliedFilter (empty when it is empty)
    quint64 m_filterGeneration = 0; ///< bumped by every filter, clear() and replace: older matches are dropped
};

} // namespace MqttDoctor
