#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>

#include <optional>
#include <vector>

#include "diagnosis/findinglist.h"

namespace MqttDoctor {

/**
 * The findings of an account as a table, most severe first (the order Checks::diagnose gives):
 * severity, code, title, stream / client, and when the local history first saw it open (setFirstSeen(): empty
 * until the history answers, and for a finding it does not hold). FindingRole hands the whole Finding to the details view.
 * setFindings() resets (a new diagnosis replaces the old one). A row's finding is made when it is
 * shown (FindingList keeps a million per-session findings as references). GUI thread only.
 *
 * The model sorts itself (sort(), the view's header): severity descending is the order the findings
 * come in, so that order costs nothing. Another column's keys are read once per finding and sorted,
 * on a worker when there are many (a title sort of a million findings made each one's title for every
 * comparison in a proxy: seconds of the GUI thread); the rows keep the old order until sorted() and the
 * selection follows its finding.
 */
class FindingListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingListModel)

public:
    enum Column { SeverityColumn, CodeColumn, TitleColumn, WhereColumn, FirstSeenColumn, ColumnCount };
    enum Role {
        FindingRole = Qt::UserRole + 1, ///< Finding
        SortRole, ///< raw value of the column
    };

    explicit FindingListModel(QObject *parent = nullptr);
    ~FindingListModel() override;

    void setFindings(const FindingList &findings);
    void clear();
    /**
     * When the history first saw each open finding, by Finding::identity() (HistoryController::firstSeen):
     * the First seen column ("2026-05-04 10:00:00 · open 2h 5m"). Kept across setFindings() (a refresh
     * keeps the identities of the findings that stay open); an empty map empties the column.
     */
    void setFirstSeen(const QHash<QString, QDateTime> &firstSeen);
    /** When the history first saw the finding shown at `row`; invalid when it does not hold it. */
    QDateTime firstSeenAt(int row) const;
    /** The findings in the order they came (not the shown order). */
    const FindingList &findings() const { return m_findings; }
    /** The finding shown at `row`. */
    std::optional<Finding> findingAt(int row) const;

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    bool isSorting() const { return m_sorting; }
    /** Up to this many findings are sorted at once on the GUI thread, more on a worker. */
    static constexpr qsizetype kSortInPlaceMax = 20000;
    /** "2 errors, 1 warning"; "no findings" when empty. */
    QString summary() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /** The rows are in the order of the last sort() (at once for a few findings, later for many). */
    void sorted();

private:
    /** Where each row's finding is in m_findings, in the shown order, for `column` and `order`. */
    static std::vector<qsizetype> orderOf(const FindingList &findings, const QHash<QString, QDateTime> &firstSeen, int column,
                                          Qt::SortOrder order);
    void applyOrder(std::vector<qsizetype> order);
    qsizetype sourceOf(int row) const { return m_order.empty() ? row : m_order[size_t(row)]; }

    FindingList m_findings;
    QHash<QString, QDateTime> m_firstSeen; ///< Finding::identity() -> first seen (UTC)
    std::vector<qsizetype> m_order; ///< shown row -> index in m_findings; empty: as they came
    int m_sortColumn = SeverityColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    quint64 m_sortGeneration = 0; ///< bumped by setFindings() and sort(): an older worker's result is dropped
    bool m_sorting = false;
};

} // namespace MqttDoctor
