#pragma once

#include <QSortFilterProxyModel>

namespace MqttDoctor {

class SessionTableModel;

/**
 * Filters a SessionTableModel with the CLI's `--filter` predicate
 * (SessionLoader::matches: client ID, hash, subject or any subscription, case-insensitive), so the
 * table and `sessions --filter` agree. Optionally only rows with problems. Sorting (a view's header
 * click) is passed on to SessionTableModel::sortAsync(): the proxy keeps the source's order, so it
 * never sorts 100,000 rows on the GUI thread. GUI thread only.
 */
class SessionFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionFilterProxyModel)

public:
    explicit SessionFilterProxyModel(QObject *parent = nullptr);
    ~SessionFilterProxyModel() override;

    void setSessionModel(SessionTableModel *model);
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }
    void setProblemsOnly(bool on);
    bool problemsOnly() const { return m_problemsOnly; }

    /** Sorts the source model on a worker (SessionTableModel::sortAsync). */
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    SessionTableModel *m_sessions = nullptr;
    QString m_text;
    bool m_problemsOnly = false;
};

} // namespace MqttDoctor
