#pragma once

#include <QPersistentModelIndex>
#include <QSet>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QTreeView;

namespace MqttDoctor {

class ClusterTreeModel;
class ClusterTreeProxyModel;

/**
 * The left side of the main window: a filter box and the account order above the cluster tree.
 * Owns the ClusterTreeModel and the ClusterTreeProxyModel the view shows it through; everything
 * outside speaks in indexes of the model (currentSourceIndex(), setCurrentSourceIndex(),
 * expandSource()), the mapping through the proxy stays in here.
 *
 * The current node is the one the person chose last: a filter that hides it leaves it current (the
 * detail panel keeps showing it, the repair wizard still acts on it) and it is selected again as
 * soon as a filter shows it; an expanded account a filter hid is expanded again when shown (a proxy
 * forgets the rows it hides). Ctrl+F (findAction()) puts the focus into the filter; Return or Down
 * there goes to the first account that matches. The order (problems first, or by name) is remembered
 * in QSettings. GUI thread.
 */
class ClusterTreePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterTreePanel)

public:
    explicit ClusterTreePanel(QWidget *parent = nullptr);
    ~ClusterTreePanel() override;

    ClusterTreeModel *model() const { return m_model; }
    ClusterTreeProxyModel *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *sortBox() const { return m_sort; }
    /** "Find Account" (Ctrl+F): focuses the filter box. */
    QAction *findAction() const { return m_find; }
    /** "37 of 10,000 accounts" while a filter is set, else empty. */
    QString matchText() const;

    /** The model index of the current node (also while a filter hides it); invalid for none. */
    QModelIndex currentSourceIndex() const { return m_current; }
    /** Makes a model index current and scrolls to it; clears the filter first when it hides the index. */
    void setCurrentSourceIndex(const QModelIndex &source);
    void expandSource(const QModelIndex &source);
    bool isSourceExpanded(const QModelIndex &source) const;

    static QString sortSettingsKey();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    /** The current node changed (a model index; not emitted when a filter merely hides or shows it). */
    void currentChanged(const QModelIndex &source);

private:
    void handleViewCurrentChanged(const QModelIndex &proxyCurrent);
    void applySortChoice();
    /** After the filter or the order changed: select the current node again when it is visible, expand what was. */
    void restoreCurrent();
    void updateMatchLabel();
    void goToFirstMatch();

    ClusterTreeModel *m_model;
    ClusterTreeProxyModel *m_proxy;
    QLineEdit *m_filter;
    QComboBox *m_sort;
    QLabel *m_matches;
    QTreeView *m_view;
    QAction *m_find;
    QPersistentModelIndex m_current; ///< in m_model
    QSet<QPersistentModelIndex> m_expanded; ///< in m_model: what the person expanded (few nodes)
};

} // namespace MqttDoctor
