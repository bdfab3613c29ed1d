#include "clustertreepanel.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTreeView>
#include <QVBoxLayout>

#include "models/accountsort.h"
#include "models/clustertreemodel.h"
#include "models/clustertreeproxymodel.h"
#include "models/displayformat.h"

namespace MqttDoctor {

ClusterTreePanel::ClusterTreePanel(QWidget *parent)
    : QWidget(parent), m_model(new ClusterTreeModel(this)), m_proxy(new ClusterTreeProxyModel(this)), m_filter(new QLineEdit(this)),
      m_sort(new QComboBox(this)), m_matches(new QLabel(this)), m_view(new QTreeView(this)), m_find(new QAction(tr("&Find Account"), this))
{
    setObjectName(QStringLiteral("clusterTreePanel"));

    m_filter->setObjectName(QStringLiteral("accountFilter"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setPlaceholderText(tr("Filter accounts"));
    m_filter->setToolTip(tr("Shows the accounts whose name contains the text, ignoring case (%1)")
                             .arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    m_sort->setObjectName(QStringLiteral("accountSort"));
    m_sort->addItem(tr("Problems first"), int(AccountSort::Mode::ByHealth));
    m_sort->addItem(tr("By name"), int(AccountSort::Mode::ByName));
    m_sort->setToolTip(tr("Order of the accounts: critical, error and warning badges first (then by name), or by name"));
    m_matches->setObjectName(QStringLiteral("accountMatches"));
    m_matches->setVisible(false);
    m_matches->setForegroundRole(QPalette::PlaceholderText);

    m_find->setObjectName(QStringLiteral("actionFindAccount"));
    m_find->setShortcut(QKeySequence::Find);
    m_find->setShortcutContext(Qt::WindowShortcut);
    m_find->setToolTip(tr("Find an account by name (%1)").arg(m_find->shortcut().toString(QKeySequence::NativeText)));
    addAction(m_find);

    m_proxy->setTreeModel(m_model);
    m_view->setObjectName(QStringLiteral("clusterTree"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(ClusterTreeModel::NameColumn, QHeaderView::ResizeToContents);
    // Sizing the name column to its contents reads rows; a few hundred tell the width as well as 10,000.
    m_view->header()->setResizeContentsPrecision(200);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_matches);
    bar->addWidget(m_sort);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    const AccountSort::Mode stored = AccountSort::fromKey(QSettings().value(sortSettingsKey()).toString());
    m_sort->setCurrentIndex(m_sort->findData(int(stored)));
    m_proxy->setSortMode(stored);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &ClusterTreePanel::handleViewCurrentChanged);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &ClusterTreeProxyModel::setFilterText);
    connect(m_filter, &QLineEdit::returnPressed, this, &ClusterTreePanel::goToFirstMatch);
    connect(m_sort, &QComboBox::currentIndexChanged, this, &ClusterTreePanel::applySortChoice);
    connect(m_proxy, &ClusterTreeProxyModel::arrangementChanged, this, &ClusterTreePanel::restoreCurrent);
    connect(m_proxy, &ClusterTreeProxyModel::arrangementChanged, this, &ClusterTreePanel::updateMatchLabel);
    // The number of matches changes with the accounts a refresh brings.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &ClusterTreePanel::updateMatchLabel);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &ClusterTreePanel::updateMatchLabel);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &ClusterTreePanel::updateMatchLabel);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ClusterTreePanel::updateMatchLabel);
    connect(m_view, &QTreeView::expanded, this, [this](const QModelIndex &index) { m_expanded.insert(m_proxy->mapToSource(index)); });
    connect(m_view, &QTreeView::collapsed, this, [this](const QModelIndex &index) { m_expanded.remove(m_proxy->mapToSource(index)); });
    connect(m_find, &QAction::triggered, this, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    m_filter->installEventFilter(this);
}

ClusterTreePanel::~ClusterTreePanel() = default;

QString ClusterTreePanel::sortSettingsKey()
{
    return QStringLiteral("view/accountSort");
}

QString ClusterTreePanel::matchText() const
{
    if (m_proxy->filterText().isEmpty())
        return {};
    const QModelIndex group = m_model->accountGroupIndex();
    const int shown = m_proxy->rowCount(m_proxy->mapFromSource(group));
    return tr("%1 of %2").arg(DisplayFormat::count(shown), DisplayFormat::accountCount(m_model->accountCount()));
}

void ClusterTreePanel::setCurrentSourceIndex(const QModelIndex &source)
{
    if (!source.isValid())
        return;
    QModelIndex proxy = m_proxy->mapFromSource(source);
    if (!proxy.isValid() && !m_proxy->filterText().isEmpty()) {
        m_filter->clear();
        proxy = m_proxy->mapFromSource(source);
    }
    if (!proxy.isValid())
        return;
    m_view->setCurrentIndex(proxy);
    m_view->scrollTo(proxy);
}

void ClusterTreePanel::expandSource(const QModelIndex &source)
{
    const QModelIndex proxy = m_proxy->mapFromSource(source);
    if (proxy.isValid())
        m_view->expand(proxy);
}

bool ClusterTreePanel::isSourceExpanded(const QModelIndex &source) const
{
    const QModelIndex proxy = m_proxy->mapFromSource(source);
    return proxy.isValid() && m_view->isExpanded(proxy);
}

bool ClusterTreePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down) {
        goToFirstMatch();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ClusterTreePanel::handleViewCurrentChanged(const QModelIndex &proxyCurrent)
{
    // An invalid current means a filter hid the node (or the tree was cleared): the node stays current.
    if (!proxyCurrent.isValid())
        return;
    const QModelIndex source = m_proxy->mapToSource(proxyCurrent);
    if (source == m_current)
        return;
    m_current = source;
    emit currentChanged(source);
}

void ClusterTreePanel::applySortChoice()
{
    const auto mode = AccountSort::Mode(m_sort->currentData().toInt());
    QSettings().setValue(sortSettingsKey(), AccountSort::key(mode));
    m_proxy->setSortMode(mode);
}

void ClusterTreePanel::restoreCurrent()
{
    for (auto it = m_expanded.begin(); it != m_expanded.end();) {
        if (!it->isValid()) {
            it = m_expanded.erase(it); // the node left the tree
            continue;
        }
        const QModelIndex proxy = m_proxy->mapFromSource(*it);
        if (proxy.isValid() && !m_view->isExpanded(proxy))
            m_view->expand(proxy);
        ++it;
    }
    if (!m_current.isValid())
        return;
    const QModelIndex proxy = m_proxy->mapFromSource(m_current);
    if (!proxy.isValid())
        return; // hidden by the filter: it stays current all the same
    if (m_view->currentIndex() != proxy)
        m_view->setCurrentIndex(proxy);
    m_view->scrollTo(proxy);
}

void ClusterTreePanel::updateMatchLabel()
{
    const QString text = matchText();
    m_matches->setText(text);
    m_matches->setVisible(!text.isEmpty());
}

void ClusterTreePanel::goToFirstMatch()
{
    const QModelIndex group = m_proxy->mapFromSource(m_model->accountGroupIndex());
    if (!group.isValid() || m_proxy->rowCount(group) == 0)
        return;
    const QModelIndex current = m_proxy->mapFromSource(m_current);
    const QModelIndex target = current.isValid() && current.parent() == group ? current : m_proxy->index(0, 0, group);
    m_view->setCurrentIndex(target);
    m_view->scrollTo(target);
    m_view->setFocus(Qt::OtherFocusReason);
}

} // namespace MqttDoctor
