#include "historypanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "common/duration.h"
#include "widgets/historycharts.h"

namespace MqttDoctor {

namespace {

QString when(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

} // namespace

HistoryPanel::HistoryPanel(HistoryController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_window(new QComboBox(this)), m_reload(new QPushButton(tr("Reload"), this)),
      m_summary(new QLabel(this)), m_findings(new QTableWidget(0, 8, this)), m_charts(new HistoryCharts(this)),
      m_changes(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("historyPanel"));
    m_window->setObjectName(QStringLiteral("historyWindow"));
    m_window->addItem(tr("Last hour"), qint64(3600));
    m_window->addItem(tr("Last 6 hours"), qint64(6 * 3600));
    m_window->addItem(tr("Last 24 hours"), qint64(24 * 3600));
    m_window->addItem(tr("Last 7 days"), qint64(7 * 24 * 3600));
    m_window->setCurrentIndex(2);
    m_reload->setObjectName(QStringLiteral("historyReload"));
    m_summary->setObjectName(QStringLiteral("historySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_findings->setObjectName(QStringLiteral("historyFindings"));
    m_findings->setHorizontalHeaderLabels(
        {tr("State"), tr("Severity"), tr("Code"), tr("Client"), tr("Title"), tr("First seen"), tr("Last seen"), tr("Open for")});
    m_findings->verticalHeader()->hide();
    m_findings->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findings->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_findings->setWordWrap(false);
    m_findings->horizontalHeader()->setSectionResizeMode(TitleColumn, QHeaderView::Stretch);
    m_findings->setAlternatingRowColors(true);

    m_changes->setObjectName(QStringLiteral("historyChanges"));
    m_changes->setHeaderLabels({tr("Time"), tr("What changed")});
    m_changes->setRootIsDecorated(false);
    m_changes->setAlternatingRowColors(true);
    m_changes->setUniformRowHeights(true);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Window:"), this));
    top->addWidget(m_window);
    top->addWidget(m_reload);
    top->addStretch(1);

    auto *findingsBox = new QWidget(this);
    auto *findingsLayout = new QVBoxLayout(findingsBox);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(new QLabel(tr("Findings in this window"), findingsBox));
    findingsLayout->addWidget(m_findings, 1);
    auto *changesBox = new QWidget(this);
    auto *changesLayout = new QVBoxLayout(changesBox);
    changesLayout->setContentsMargins(0, 0, 0, 0);
    changesLayout->addWidget(new QLabel(tr("What changed"), changesBox));
    changesLayout->addWidget(m_changes, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_charts);
    split->addWidget(findingsBox);
    split->addWidget(changesBox);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_window, &QComboBox::currentIndexChanged, this, &HistoryPanel::reload);
    connect(m_reload, &QPushButton::clicked, this, &HistoryPanel::reload);
    connect(&controller, &HistoryController::loaded, this, &HistoryPanel::show);
    m_summary->setText(tr("Select an account to see its history."));
}

HistoryPanel::~HistoryPanel() = default;

bool HistoryPanel::setCluster(const QString &cluster, const QStringList &urls)
{
    if (cluster == m_cluster && urls == m_urls)
        return false;
    m_cluster = cluster;
    m_urls = urls;
    m_loaded = false;
    return true;
}

bool HistoryPanel::setAccount(const QString &account)
{
    if (account == m_account)
        return false;
    m_account = account;
    m_loaded = false;
    m_findings->setRowCount(0);
    m_changes->clear();
    m_charts->clear();
    m_summary->setText(tr("Reading the history of %1…").arg(account));
    return true;
}

qint64 HistoryPanel::windowSeconds() const
{
    return m_window->currentData().toLongLong();
}

QString HistoryPanel::summaryText() const
{
    return m_summary->text();
}

void HistoryPanel::reload()
{
    if (m_account.isEmpty())
        return;
    m_loading = true;
    m_loaded = false;
    m_controller.load(m_cluster, m_urls, m_account, windowSeconds());
}

void HistoryPanel::show(const HistoryController::View &view)
{
    if (view.account != m_account)
        return;
    m_loading = false;
    m_loaded = true;
    if (view.error) {
        m_summary->setText(tr("The history could not be read: %1").arg(view.error->toString()));
    } else if (view.checks.count == 0) {
        m_summary->setText(tr("%1: no check of %2 was recorded in this time, so the history cannot tell what happened then.")
                               .arg(m_window->currentText(), m_account));
    } else {
        const QString checks = view.checks.count == 1 ? tr("1 check") : tr("%1 checks").arg(view.checks.count);
        m_summary->setText(tr("%1: %2 of %3 recorded (%4 to %5), %6 of them looked at everything.")
                               .arg(m_window->currentText(), checks, m_account, when(view.checks.first), when(view.checks.last))
                               .arg(view.checks.complete));
    }
    showFindings(view.findings);
    showChanges(view.changes);
    if (view.error)
        m_charts->clear();
    else
        m_charts->setPoints(view.window.since, view.window.until, view.severities, view.counts);
    emit loadFinished();
}

void HistoryPanel::showFindings(const QList<HistoryQuery::FindingSpan> &findings)
{
    m_findings->setSortingEnabled(false);
    m_findings->setRowCount(int(findings.size()));
    const QBrush closedText = palette().brush(QPalette::PlaceholderText);
    for (int row = 0; row < int(findings.size()); ++row) {
        const HistoryQuery::FindingSpan &f = findings.at(row);
        const bool open = !f.closedAt.isValid();
        const QDateTime end = open ? f.lastSeen : f.closedAt;
        const QStringList texts{open ? tr("open") : tr("closed %1").arg(when(f.closedAt)),
                                f.severity,
                                f.code,
                                f.clientId,
                                f.title,
                                when(f.firstSeen),
                                when(f.lastSeen),
                                formatAge(f.firstSeen.secsTo(end))};
        for (int column = 0; column < int(texts.size()); ++column) {
            QTableWidgetItem *item = cell(texts.at(column));
            if (!open)
                item->setForeground(closedText); // a closed problem reads as past
            if (column == TitleColumn)
                item->setToolTip(f.title);
            m_findings->setItem(row, column, item);
        }
    }
    m_findings->resizeColumnsToContents();
    m_findings->horizontalHeader()->setSectionResizeMode(TitleColumn, QHeaderView::Stretch);
}

void HistoryPanel::showChanges(const QList<HistoryQuery::Entry> &changes)
{
    m_changes->clear();
    QList<QTreeWidgetItem *> items;
    items.reserve(changes.size());
    for (const HistoryQuery::Entry &e : changes) {
        auto *item = new QTreeWidgetItem({when(e.at), e.text});
        item->setToolTip(1, e.text);
        item->setData(0, Qt::UserRole, e.kind);
        items << item;
    }
    m_changes->addTopLevelItems(items);
    m_changes->resizeColumnToContents(0);
}

} // namespace MqttDoctor
