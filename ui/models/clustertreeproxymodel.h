#pragma once

#include <QSortFilterProxyModel>

#include "models/accountsort.h"

namespace MqttDoctor {

class ClusterTreeModel;

/**
 * The cluster tree as the view shows it: accounts filtered by name (AccountFilter::matches; the
 * profile, the groups, the servers and an account's own rows always pass) and sorted by health
 * (problems first) or by name (AccountSort). Everything else keeps the model's order.
 *
 * Sized for 10,000 accounts: sorting compares a problem rank and then the source row (the model
 * keeps its accounts in name order), never names; a new filter text or sort mode rebuilds the
 * mapping once (one layout change: persistent indexes, hence the view's selection and expansion,
 * follow their rows) instead of removing and inserting thousands of scattered row runs one signal
 * each; and whether an account has children is answered from the model, so a view laying out
 * 10,000 collapsed accounts does not make the proxy map each one's children.
 * GUI thread only.
 */
class ClusterTreeProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterTreeProxyModel)

public:
    explicit ClusterTreeProxyModel(QObject *parent = nullptr);
    ~ClusterTreeProxyModel() override;

    /** The model to show (also its source model). */
    void setTreeModel(ClusterTreeModel *model);
    ClusterTreeModel *treeModel() const { return m_tree; }

    /** Shows only the accounts whose name contains `text` (trimmed, ignoring case); empty shows all. */
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }
    void setSortMode(AccountSort::Mode mode);
    AccountSort::Mode sortMode() const { return m_mode; }

    bool hasChildren(const QModelIndex &parent = {}) const override;

Q_SIGNALS:
    /** The rows now follow a new filter text or sort mode. */
    void arrangementChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    ClusterTreeModel *m_tree = nullptr;
    QString m_text;
    AccountSort::Mode m_mode = AccountSort::Mode::ByHealth;
};

} // namespace MqttDoctor
