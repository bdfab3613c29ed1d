#include "accountmergeplan.h"

#include "models/accountsort.h"

namespace MqttDoctor {

namespace {

void extend(QList<AccountMergePlan::Run> &runs, int row)
{
    if (!runs.isEmpty() && runs.last().last == row - 1)
        runs.last().last = row;
    else
        runs.append({row, row});
}

} // namespace

AccountMergePlan AccountMergePlan::make(const QStringList &oldNames, const QStringList &newNames)
{
    AccountMergePlan plan;
    const int oldCount = int(oldNames.size());
    const int newCount = int(newNames.size());
    plan.kept.reserve(std::min(oldCount, newCount));
    int i = 0;
    int j = 0;
    while (i < oldCount || j < newCount) {
        // Most rows stay: an equal name is the cheap test, the ordering one only runs where they differ.
        if (i < oldCount && j < newCount && oldNames[i] == newNames[j]) {
            plan.kept.append({i++, j++});
            continue;
        }
        if (j == newCount || (i < oldCount && AccountSort::nameLess(oldNames[i], newNames[j]))) {
            extend(plan.removals, i++);
        } else if (i == oldCount || AccountSort::nameLess(newNames[j], oldNames[i])) {
            extend(plan.insertions, j++);
        } else {
            plan.kept.append({i++, j++});
        }
    }
    return plan;
}

} // namespace MqttDoctor
