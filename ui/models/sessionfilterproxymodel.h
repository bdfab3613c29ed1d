#pragma once

#include <QSortFilterProxyModel>

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
 * source's order, so it never sorts 100,000 rows on the GUI thread. GUI thread only.
 */
class SessionFilterProxyModel final : public QSortFilterProxyModel
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

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void requestFilter();

    SessionTableModel *m_sessions = nullptr;
    QString m_text;
    bool m_problemsOnly = false;
};

} // namespace MqttDoctor
