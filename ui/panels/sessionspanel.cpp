#include "sessionspanel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "controllers/accountdatacontroller.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"
#include "widgets/sessiondetailsview.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

SessionsPanel::SessionsPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_filter(new QLineEdit(this)), m_problemsOnly(new QCheckBox(tr("Problems only"), this)),
      m_reload(new QPushButton(tr("Reload"), this)),
      m_loadState(new PanelLoadState(controller, Load::Sessions, QStringLiteral("session"), this)), m_model(new SessionTableModel(this)),
      m_proxy(new SessionFilterProxyModel(this)), m_table(new QTableView(this)), m_details(new SessionDetailsView(this)),
      m_filterDelay(new QTimer(this)), m_showDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("sessionsPanel"));
    m_filter->setObjectName(QStringLiteral("sessionFilter"));
    m_filter->setPlaceholderText(tr("Filter by client ID, hash, subject or subscription"));
    m_filter->setClearButtonEnabled(true);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(200);
    m_showDelay->setSingleShot(true);
    m_showDelay->setInterval(kShowIntervalMs);
    connect(m_showDelay, &QTimer::timeout, this, &SessionsPanel::showReceived);

    m_proxy->setSessionModel(m_model);
    m_table->setObjectName(QStringLiteral("sessionTable"));
    m_table->setModel(m_proxy);
    // Appending to an unsorted table is cheap; a click on a header sorts (and a second click reverses).
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSortIndicatorClearable(true);
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and column widths: a view over 100,000 rows must never measure them all.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[SessionTableModel::ColumnCount] = {18, 10, 10, 6, 22, 11, 23, 30};
    for (int column = 0; column < SessionTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    // Several rows at once (Ctrl+A: every row the filter shows); the context menu and the Actions button act on them.
    m_rowActions = new RowActions(
        m_table, QStringLiteral("sessions"),
        RowActions::DeleteSessions | RowActions::Disconnect | RowActions::DropBacklog | RowActions::CopyClientId | RowActions::CopyJson
            | RowActions::BackUp | RowActions::ShowInConsumers,
        [this](RowSelection::Detail detail) {
            const QList<int> rows = RowSelection::sourceRows(m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_model);
            return RowSelection::ofSessions(*m_model, rows, account(), detail);
        },
        RowActions::DeleteSessions);

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addWidget(m_problemsOnly);
    tools->addWidget(m_rowActions->makeToolButton(this));
    tools->addWidget(m_reload);
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tablePane);
    splitter->addWidget(m_details);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_loadState->status());
    layout->addWidget(m_loadState->notice());
    layout->addWidget(m_loadState->progress());
    layout->addWidget(splitter, 1);

    connect(m_filter, &QLineEdit::textChanged, m_filterDelay, qOverload<>(&QTimer::start));
    connect(m_filterDelay, &QTimer::timeout, this, [this] {
        m_proxy->setFilterText(m_filter->text());
        updateStatus();
    });
    connect(m_problemsOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setProblemsOnly(on);
        updateStatus();
    });
    connect(m_proxy, &SessionFilterProxyModel::filterApplied, this, [this] {
        updateStatus();
        if (!m_reveal.isEmpty())
            revealPending();
    });
    connect(this, &SessionsPanel::loadFinished, this, [this] {
        if (!m_reveal.isEmpty())
            revealPending();
    });
    connect(m_reload, &QPushButton::clicked, this, [this] {
        m_controller.refresh(account()); // a new snapshot of the account, for every view of it
        reload();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SessionsPanel::showSelected);
    // The selection and scroll position as they are when the rows are swapped (the person may have
    // moved on while the refresh was reading).
    connect(m_model, &SessionTableModel::aboutToBeReplaced, this, &SessionsPanel::keepView);
    connect(m_model, &SessionTableModel::replaced, this, [this] {
        if (isLoading() && m_quiet)
            completeLoad();
        restoreView();
    });
    connect(m_model, &SessionTableModel::sorted, this, [this] {
        if (!isLoading())
            restoreView();
    });
    connect(&controller, &AccountDataController::sessionsBatch, this, &SessionsPanel::handleBatch);
    connect(&controller, &AccountDataController::sessionsFinished, this, &SessionsPanel::handleFinished);
    connect(&controller, &AccountDataController::rawSessionLoaded, this,
            [this](const QString &account, quint64 seq, const QByteArray &bytes) {
                if (account == this->account() && seq == m_shownSeq)
                    m_details->setRaw(bytes);
            });
    connect(&controller, &AccountDataController::sessionInflightLoaded, this,
            [this](const QString &account, quint64 seq, const SessionInflight &inflight) {
                if (account == this->account() && seq == m_shownSeq)
                    m_details->setInflight(inflight);
            });
    connect(m_loadState, &PanelLoadState::loadFailed, this, &SessionsPanel::handleFailed);
    connect(&controller, &AccountDataController::failed, this, [this](Load load, const QString &account, const Error &error) {
        if (account != this->account())
            return;
        if (load == Load::RawSession)
            m_details->setRawError(tr("The stored record could not be read: %1").arg(error.toString()));
        else if (load == Load::SessionInflight)
            m_details->setInflightError(tr("What is in flight could not be read: %1").arg(error.toString()));
    });
    updateStatus();
}

SessionsPanel::~SessionsPanel() = default;

void SessionsPanel::setAccount(const QString &account)
{
    if (!m_loadState->setAccount(account))
        return;
    m_quiet = false;
    dropReceived();
    m_pending.clear();
    m_pendingRows = 0;
    m_keepClient.clear();
    m_keepScroll = -1;
    m_reveal.clear();
    m_model->clear();
    m_details->setEntry(nullptr);
    updateStatus();
}

void SessionsPanel::ensureLoaded()
{
    if (m_loadState->needsLoad())
        reload();
}

void SessionsPanel::keepView()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const SessionEntry *entry = current.isValid() ? m_model->entryAt(m_proxy->mapToSource(current).row()) : nullptr;
    m_keepClient = entry && entry->record ? entry->clientId : QString();
    m_keepScroll = m_table->verticalScrollBar()->value();
}

void SessionsPanel::reload()
{
    keepView();
    m_quiet = m_model->rowCount() > 0;
    dropReceived();
    m_pending.clear();
    m_pendingRows = 0;
    if (!m_quiet) {
        m_model->clear();
        m_details->setEntry(nullptr);
    }
    m_cancelled = false;
    m_loadState->begin(m_quiet ? tr("Refreshing sessions") : tr("Loading sessions"));
    m_controller.loadSessions(account());
    updateStatus();
}

void SessionsPanel::handleBatch(const QString &account, const QList<SessionEntry> &batch, quint64 done, quint64 total)
{
    if (!m_loadState->accepts(account))
        return;
    m_received.push_back(batch);
    m_receivedDone = done;
    m_receivedTotal = total;
    if (!m_quiet && m_model->rowCount() == 0)
        showReceived(); // the first rows at once
    else if (!m_showDelay->isActive())
        m_showDelay->start();
}

void SessionsPanel::showReceived()
{
    m_showDelay->stop();
    if (m_received.isEmpty())
        return;
    if (m_quiet) {
        for (const QList<SessionEntry> &batch : std::as_const(m_received))
            m_pendingRows += batch.size();
        m_pending.append(std::exchange(m_received, {}));
    } else {
        const bool wasEmpty = m_model->rowCount() == 0;
        m_model->reserve(qsizetype(m_receivedTotal));
        for (QList<SessionEntry> &batch : m_received)
            m_model->appendBatch(std::move(batch)); // kept as its own batch: no entry is copied
        m_received.clear();
        if (wasEmpty && m_model->rowCount() > 0)
            emit firstRowsShown(m_model->rowCount());
    }
    m_loadState->progress()->setProgress(m_receivedDone, m_receivedTotal);
    updateStatus();
}

void SessionsPanel::dropReceived()
{
    m_showDelay->stop();
    m_received.clear();
    m_receivedDone = m_receivedTotal = 0;
}

void SessionsPanel::handleFinished(const QString &account, bool cancelled, const QString &note)
{
    if (!m_loadState->accepts(account))
        return;
    showReceived();
    m_cancelled = cancelled && !m_quiet; // a canceled refresh keeps the rows it had
    m_loadState->progress()->finish(); // the load itself ends when the rows are in (completeLoad())
    m_loadState->notice()->showNotice(note, NoticeLabel::Kind::Info);
    if (m_quiet && !cancelled) {
        m_pendingRows = 0;
        m_model->replaceAllAsync(std::exchange(m_pending, {})); // completeLoad() on replaced()
        return;
    }
    if (!m_quiet && m_model->sortColumn() >= 0)
        m_model->sortAsync(m_model->sortColumn(), m_model->sortOrder()); // rows arrived in load order
    completeLoad();
}

void SessionsPanel::completeLoad()
{
    m_loadState->finish();
    m_quiet = false;
    m_pending.clear();
    m_pendingRows = 0;
    updateStatus();
    emit loadFinished();
}

void SessionsPanel::restoreView()
{
    updateStatus();
    if (m_keepClient.isEmpty())
        return;
    const int row = m_model->rowOf(m_keepClient);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (index.isValid())
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (m_keepScroll >= 0)
        m_table->verticalScrollBar()->setValue(m_keepScroll);
    m_keepClient.clear();
    m_keepScroll = -1;
}

void SessionsPanel::handleFailed(const Error &error)
{
    showReceived(); // what was read before the failure stays in the table
    m_quiet = false;
    m_pending.clear();
    m_pendingRows = 0;
    m_loadState->fail(tr("The sessions of %1 could not be read: %2%3"), error);
    updateStatus();
    emit loadFinished();
}

bool SessionsPanel::selectClient(const QString &clientId)
{
    const int row = m_model->rowOf(clientId);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void SessionsPanel::revealClient(const QString &clientId)
{
    m_reveal = clientId;
    if (isLoaded() && !isLoading())
        revealPending();
}

void SessionsPanel::revealPending()
{
    if (m_reveal.isEmpty() || isLoading() || !isLoaded())
        return;
    if (selectClient(m_reveal)) {
        m_reveal.clear();
        m_table->setFocus();
        return;
    }
    if (m_model->rowOf(m_reveal) >= 0) {
        if (m_proxy->isFiltering())
            return; // filterApplied() comes back here
        if (!m_proxy->filterText().isEmpty() || m_proxy->problemsOnly()) {
            // Hidden by the filter: show every row, then select it (filterApplied, maybe at once).
            const QString client = std::exchange(m_reveal, QString());
            m_filter->clear();
            m_proxy->setFilterText(QString());
            m_problemsOnly->setChecked(false);
            m_reveal = client;
            if (!m_proxy->isFiltering())
                revealPending();
            return;
        }
    }
    m_loadState->notice()->showNotice(tr("No session record of client ID \"%1\" in account %2.").arg(m_reveal, account()),
                                      NoticeLabel::Kind::Info);
    m_reveal.clear();
}

void SessionsPanel::showSelected()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const SessionEntry *entry = current.isValid() ? m_model->entryAt(m_proxy->mapToSource(current).row()) : nullptr;
    m_details->setEntry(entry);
    m_shownSeq = entry ? entry->seq : 0;
    if (entry)
        m_controller.loadRawSession(account(), entry->seq);
    if (entry && entry->record && !entry->isLegacy())
        m_controller.loadSessionInflight(account(), *entry);
}

void SessionsPanel::updateStatus()
{
    const QLocale locale;
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    QString text;
    if (isLoading() && m_quiet)
        text = tr("Refreshing… %1 sessions read, %2 shown until done").arg(locale.toString(m_pendingRows), locale.toString(total));
    else if (isLoading())
        text = tr("Loading… %1 sessions so far").arg(locale.toString(total));
    else if (!isLoaded())
        text = tr("Not loaded yet");
    else if (total == 0)
        text = tr("No MQTT sessions");
    else
        text = tr("%1 sessions, %2 with problems").arg(locale.toString(total), locale.toString(qint64(m_model->problemRows())));
    if (isLoaded() && m_cancelled)
        text += tr(" (canceled: the table holds the sessions read until then)");
    if (shown != total)
        text += tr(" · %1 shown").arg(locale.toString(shown));
    if (m_proxy->isFiltering())
        text += tr(" · filtering…");
    m_loadState->status()->setText(text);
}

} // namespace MqttDoctor
