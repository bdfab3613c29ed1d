#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * How to turn one list of account rows into another when both are sorted by AccountSort::nameLess
 * (ClusterTreeModel keeps its accounts in that order): which old rows go, which new rows come and
 * where, which rows stay. One merge-walk of both lists, O(n); rows that stay never move, so a
 * refresh needs no row moves at all, and contiguous rows form one run (one pair of row signals).
 * Pure; any thread.
 */
struct AccountMergePlan
{
    /** Rows first..last (inclusive). */
    struct Run
    {
        int first = 0;
        int last = 0;
        int count() const { return last - first + 1; }
        friend bool operator==(const Run &, const Run &) = default;
    };
    /** A row that stays: its row in the old list and in the new one. */
    struct Kept
    {
        int oldRow = 0;
        int newRow = 0;
        friend bool operator==(const Kept &, const Kept &) = default;
    };

    QList<Run> removals; ///< rows of the old list, ascending
    QList<Run> insertions; ///< rows of the new list, ascending
    QList<Kept> kept; ///< ascending in both lists

    /** Both lists sorted by AccountSort::nameLess without duplicates. */
    static AccountMergePlan make(const QStringList &oldNames, const QStringList &newNames);

    /** Signal groups the plan needs when applied row by row: one per run. */
    qsizetype runCount() const { return removals.size() + insertions.size(); }
};

} // namespace MqttDoctor
