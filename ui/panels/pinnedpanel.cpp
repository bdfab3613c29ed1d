#include "pinnedpanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "controllers/accountdatacontroller.h"
#include "diagnosis/findingcodes.h"
#include "models/displayformat.h"
#include "models/pinnedtablemodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

PinnedPanel::PinnedPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller),
      m_loadState(new PanelLoadState(controller, Load::Consumers, QStringLiteral("pinned"), this)), m_model(new PinnedTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)), m_chart(new QChart),
      m_chartView(new QChartView(m_chart, this)), m_repair(new QPushButton(tr("Delete Session (Backed Up)…"), this))
{
    setObjectName(QStringLiteral("pinnedPanel"));
    m_loadState->status()->setWordWrap(true);
    m_repair->setObjectName(QStringLiteral("pinnedRepair"));
    auto *reload = new QPushButton(tr("Reload"), this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PinnedTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("pinnedTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(PinnedTableModel::BytesColumn, Qt::DescendingOrder);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[PinnedTableModel::ColumnCount] = {18, 9, 8, 7, 9, 15, 9, 20};
    for (int column = 0; column < PinnedTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    m_chart->setTitle(tr("Top %1 holders by bytes (estimated)").arg(kChartedHolders));
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chartView->setObjectName(QStringLiteral("pinnedChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumWidth(260);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_chartView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({720, 340});

    m_rowActions =
        new RowActions(m_table, QStringLiteral("pinned"),
                       RowActions::DropBacklog | RowActions::DeleteSessions | RowActions::Disconnect | RowActions::CopyClientId
                           | RowActions::CopyJson | RowActions::BackUp | RowActions::ShowInSessions | RowActions::ShowInConsumers,
                       [this](RowSelection::Detail detail) {
                           const QList<int> rows =
                               RowSelection::sourceRows(m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_model);
                           return RowSelection::ofPinned(*m_model, rows, m_loadState->account(), detail);
                       });

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_loadState->status(), 1);
    tools->addWidget(m_rowActions->makeToolButton(this));
    tools->addWidget(m_repair);
    tools->addWidget(reload);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_loadState->notice());
    layout->addWidget(m_loadState->progress());
    layout->addWidget(split, 1);

    connect(reload, &QPushButton::clicked, this, [this] {
        m_controller.refresh(m_loadState->account());
        this->reload();
    });
    connect(m_repair, &QPushButton::clicked, this, [this] {
        if (const Finding *f = selectedFinding())
            emit repairRequested({*f});
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PinnedPanel::updateRepairButton);
    connect(&controller, &AccountDataController::interestHoldersLoaded, this, &PinnedPanel::handleLoaded);
    connect(&controller, &AccountDataController::findingsLoaded, this,
            [this](const QString &account, const FindingList &findings, const QList<CoverageGap> &) { handleFindings(account, findings); });
    connect(m_loadState, &PanelLoadState::loadFailed, this, &PinnedPanel::handleFailed);
    updateRepairButton();
}

PinnedPanel::~PinnedPanel() = default;

void PinnedPanel::setAccount(const QString &account)
{
    // A running load is the account snapshot that the findings and the consumers view read too.
    if (!m_loadState->setAccount(account, PanelLoadState::RunningLoad::LetRun))
        return;
    m_model->clear();
    m_pinnedFindings.clear();
    m_model->setFlagged({});
    updateChart();
    updateRepairButton();
}

void PinnedPanel::ensureLoaded()
{
    if (m_loadState->needsLoad())
        reload();
}

void PinnedPanel::reload()
{
    m_loadState->begin(tr("Reading the durables and their sessions"));
    m_controller.loadFindings(m_loadState->account()); // which sessions INTEREST_PINNED names
    m_controller.loadConsumers(m_loadState->account());
}

void PinnedPanel::handleLoaded(const QString &account, const QList<InterestHolder> &holders)
{
    if (!m_loadState->accepts(account))
        return;
    m_loadState->finish();
    const QString selected = m_table->currentIndex().isValid()
        ? m_table->currentIndex().siblingAtColumn(PinnedTableModel::HolderColumn).data().toString()
        : QString();
    const bool firstRows = m_model->rowCount() == 0;
    m_model->setHolders(holders);
    if (firstRows && !holders.isEmpty()) {
        // Fitted to the first rows and the headers once; the person's own widths stay after that.
        for (int column = 0; column < PinnedTableModel::DurablesColumn; ++column)
            m_table->resizeColumnToContents(column);
    }
    if (!selected.isEmpty())
        selectHolder(selected);
    qint64 offlineMessages = 0;
    qint64 offlineBytes = 0;
    qsizetype offline = 0;
    bool connectedKnown = true;
    for (const InterestHolder &h : holders) {
        if (h.kind == InterestHolder::Kind::Session && !h.connected)
            connectedKnown = false;
        if (h.kind == InterestHolder::Kind::Session && h.connected == false) {
            ++offline;
            offlineMessages += h.messages;
            offlineBytes += h.bytes;
        }
    }
    const QLocale locale;
    if (holders.isEmpty())
        m_loadState->status()->setText(tr("No durable holds a message: nothing is pinned in $MQTT_msgs or $MQTT_out."));
    else if (!connectedKnown)
        m_loadState->status()->setText(
            tr("%1 holders. Connected state unknown (no system account credentials): offline sessions cannot be told apart.")
                .arg(locale.toString(holders.size())));
    else
        m_loadState->status()->setText(
            tr("%1 holders; %2 offline session(s) keep %3 message(s), about %4. %5 above the INTEREST_PINNED threshold.")
                .arg(locale.toString(holders.size()), locale.toString(qint64(offline)), locale.toString(offlineMessages),
                     DisplayFormat::bytes(offlineBytes), locale.toString(qint64(m_model->flaggedCount()))));
    updateChart();
    updateRepairButton();
    emit loadFinished();
}

void PinnedPanel::handleFindings(const QString &account, const FindingList &findings)
{
    if (account != m_loadState->account())
        return;
    m_pinnedFindings.clear();
    QSet<QString> flagged;
    for (const Finding &f : findings.withCode(FindingCodes::interestPinned()))
        if (!f.clientId.isEmpty()) {
            m_pinnedFindings.insert(f.clientId, f);
            flagged.insert(f.clientId);
        }
    m_model->setFlagged(flagged);
    updateRepairButton();
}

void PinnedPanel::handleFailed(const Error &error)
{
    m_loadState->fail(tr("Who holds messages in %1 could not be read: %2%3"), error);
    updateChart();
    emit loadFinished();
}

void PinnedPanel::updateChart()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    m_charted.clear();
    const QList<InterestHolder> &holders = m_model->holders(); // most bytes first
    const qsizetype shown = std::min<qsizetype>(holders.size(), kChartedHolders);
    if (shown == 0)
        return;
    // One unit for the axis, from the largest holder.
    const qint64 largest = holders.first().bytes;
    const qint64 unit = largest >= (qint64(1) << 30) ? (qint64(1) << 30)
        : largest >= (1 << 20)                       ? (1 << 20)
        : largest >= (1 << 10)                       ? (1 << 10)
                                                     : 1;
    const QString unitName = unit == (qint64(1) << 30) ? tr("GiB")
        : unit == (1 << 20)                            ? tr("MiB")
        : unit == (1 << 10)                            ? tr("KiB")
                                                       : tr("bytes");
    auto *set = new QBarSet(tr("Bytes"));
    QStringList categories;
    // A horizontal bar chart draws its first category at the bottom: the largest goes last.
    for (qsizetype i = shown - 1; i >= 0; --i) {
        const InterestHolder &h = holders.at(i);
        *set << double(h.bytes) / double(unit);
        categories << PinnedTableModel::holderName(h);
    }
    for (qsizetype i = 0; i < shown; ++i)
        m_charted << PinnedTableModel::holderName(holders.at(i));
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    m_chart->addSeries(series);
    auto *names = new QBarCategoryAxis;
    names->append(categories);
    m_chart->addAxis(names, Qt::AlignLeft);
    series->attachAxis(names);
    auto *values = new QValueAxis;
    values->setTitleText(tr("%1 (estimated)").arg(unitName));
    values->setLabelFormat(QStringLiteral("%.1f"));
    values->setMin(0);
    m_chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    // A bar selects its holder in the table.
    connect(set, &QBarSet::clicked, this, [this, categories](int index) {
        if (index >= 0 && index < categories.size())
            selectHolder(categories.at(index));
    });
}

bool PinnedPanel::selectHolder(const QString &name)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, PinnedTableModel::HolderColumn);
        if (index.data().toString() == name) {
            m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_table->scrollTo(index);
            return true;
        }
    }
    return false;
}

const Finding *PinnedPanel::selectedFinding() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return nullptr;
    const QString clientId = current.data(PinnedTableModel::ClientIdRole).toString();
    const auto it = m_pinnedFindings.constFind(clientId);
    return clientId.isEmpty() || it == m_pinnedFindings.cend() ? nullptr : &*it;
}

void PinnedPanel::updateRepairButton()
{
    const bool repairable = selectedFinding() != nullptr;
    m_repair->setEnabled(repairable);
    m_repair->setToolTip(repairable ? tr("Opens the repair: back up the session's record and durables, then delete them. The client "
                                         "starts a clean session when it comes back.")
                                    : tr("Select an offline session that INTEREST_PINNED names (marked bold). Sessions below the "
                                         "threshold, connected clients and orphaned durables are repaired from the Findings tab "
                                         "(SESSION_STALE, ORPHAN_CONSUMER)."));
}

} // namespace MqttDoctor
