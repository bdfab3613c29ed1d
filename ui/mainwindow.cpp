#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QTimer>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

#include "actions/actionmanager.h"
#include "actions/operatoractions.h"
#include "actions/reportexport.h"
#include "actions/rowactions.h"
#include "models/findinglistmodel.h"
#include "controllers/accountdatacontroller.h"
#include "controllers/activityfeed.h"
#include "controllers/autorefresh.h"
#include "controllers/clustercontroller.h"
#include "controllers/historycontroller.h"
#include "controllers/recordsweep.h"
#include "dialogs/checkthresholdsdialog.h"
#include "dialogs/connectiondialog.h"
#include "dialogs/logexplainerdialog.h"
#include "dialogs/repairwizard.h"
#include "dialogs/mqttprobedialog.h"
#include "dialogs/upgradereadinessdialog.h"
#include "history/historylocation.h"
#include "models/accountrows.h"
#include "models/clienteventmodel.h"
#include "models/clustertreemodel.h"
#include "models/displayformat.h"
#include "models/healthmap.h"
#include "models/iconfactory.h"
#include "models/sessiontablemodel.h"
#include "panels/accountworkspace.h"
#include "panels/pinnedpanel.h"
#include "panels/activitypanel.h"
#include "panels/clusteroverviewpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/detailpanel.h"
#include "panels/findingspanel.h"
#include "panels/historypanel.h"
#include "panels/sessionspanel.h"
#include "repair/auditlog.h"
#include "settings/checkthresholds.h"
#include "settings/historysettings.h"
#include "settings/recentprofiles.h"
#include "widgets/connectionstatuswidget.h"
#include "widgets/errorbanner.h"

namespace MqttDoctor {

namespace {

// Off by default; QT_LOGGING_RULES=mqttdoctor.load.info=true turns it on. Benches of the whole
// process parse its line (README, Performance), so its wording is fixed.
Q_LOGGING_CATEGORY(lcLoad, "mqttdoctor.load", QtWarningMsg)

} // namespace

MainWindow::MainWindow(ClusterController &controller, QWidget *parent)
    : QMainWindow(parent), m_controller(controller), m_actions(new ActionManager(controller, this)),
      m_treePanel(new ClusterTreePanel(this)), m_model(m_treePanel->model()), m_details(new DetailPanel(this)),
      m_accountData(new AccountDataController(this)), m_workspace(new AccountWorkspace(m_details, *m_accountData, this)),
      m_banner(new ErrorBanner(this)), m_splitter(new QSplitter(Qt::Horizontal, this)),
      m_status(new ConnectionStatusWidget(controller, this)), m_autoRefresh(new AutoRefresh(this)), m_sweep(new RecordSweep(this)),
      m_activity(new ActivityFeed(this)), m_clientEvents(new ClientEventModel(this)), m_sweepLabel(new QLabel(this)),
      m_overviewTimer(new QTimer(this)), m_operatorActions(new OperatorActions(controller, this)), m_history(new HistoryController(this)),
      m_historyPanel(new HistoryPanel(*m_history, this)), m_historyLabel(new QLabel(this)), m_reportExport(new ReportExport(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("NATS MQTT Doctor"));
    setWindowIcon(IconFactory::appIcon());

    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(m_treePanel);
    m_splitter->addWidget(m_workspace);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 5);
    m_splitter->setChildrenCollapsible(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    statusBar()->addPermanentWidget(m_status, 1);
    m_sweepLabel->setObjectName(QStringLiteral("recordSweepLabel"));
    m_sweepLabel->hide();
    statusBar()->addPermanentWidget(m_sweepLabel);
    connectRecordSweep();
    connectHistory();
    connectActivity();
    connectRowActions();

    createMenusAndToolBar();

    connect(&controller, &ClusterController::profileChanged, this, &MainWindow::handleProfileChanged);
    connect(&controller, &ClusterController::serversLoaded, this, [this](const QList<ServerInfo> &servers) {
        m_model->setServers(servers);
        m_workspace->setServers(servers);
        updateHistoryTab();
        handleLoaded();
    });
    connect(&controller, &ClusterController::accountsLoaded, this, [this](const AccountRows &rows) {
        m_model->setAccounts(rows);
        m_overviewAccountsStale = true;
        handleLoaded();
        openRequestedAccount(false);
    });
    connect(m_workspace->sessionsPanel(), &SessionsPanel::firstRowsShown, this, [this](qsizetype rows) {
        qCInfo(lcLoad, "sessions: first %lld rows %lld ms after connect", static_cast<long long>(rows),
               static_cast<long long>(m_controller.msSinceConnect()));
    });
    connect(m_accountData, &AccountDataController::findingsLoaded, this, [this](const QString &, const FindingList &findings) {
        qCInfo(lcLoad, "findings complete: %lld findings %lld ms after connect", static_cast<long long>(findings.size()),
               static_cast<long long>(m_controller.msSinceConnect()));
    });
    connect(m_workspace->sessionsPanel(), &SessionsPanel::loadFinished, this, [this] {
        qCInfo(lcLoad, "sessions complete: %d rows %lld ms after connect", m_workspace->sessionsPanel()->model()->rowCount(),
               static_cast<long long>(m_controller.msSinceConnect()));
    });
    connect(&controller, &ClusterController::healthLoaded, this, &MainWindow::handleHealthLoaded);
    connect(&controller, &ClusterController::failed, this, &MainWindow::handleFailed);
    connect(&controller, &ClusterController::loadingChanged, this, [this](bool loading) {
        if (loading)
            m_banner->dismiss();
    });
    connect(m_treePanel, &ClusterTreePanel::currentChanged, this, &MainWindow::showCurrentDetails);
    // The account's full findings (records included) win over the stream-level badges from then on.
    connect(m_accountData, &AccountDataController::findingsLoaded, m_model, &ClusterTreeModel::setFindings);
    connect(m_accountData, &AccountDataController::connectionsUsed, &controller, &ClusterController::watchNewConnections);
    connect(m_actions->refreshAction(), &QAction::triggered, m_workspace, &AccountWorkspace::reload);
    // The operator's thresholds of the checks, kept from the last run (CheckThresholds).
    m_accountData->setCheckOptions(CheckThresholds::load(m_accountData->checkOptions()));
    m_sweep->setCheckOptions(m_accountData->checkOptions());
    m_autoRefresh->setBusyCheck([this] { return isRefreshing(); });
    connect(m_autoRefresh, &AutoRefresh::refreshDue, this, &MainWindow::refreshAll);
    connect(m_banner, &ErrorBanner::retryRequested, &controller, &ClusterController::refresh);
    connect(m_banner, &ErrorBanner::settingsRequested, this, &MainWindow::showConnectionDialog);

    resize(1280, 760);
    m_splitter->setSizes({410, 870});
    handleProfileChanged();
}

MainWindow::~MainWindow() = default;

QTreeView *MainWindow::treeView() const
{
    return m_treePanel->view();
}

void MainWindow::createMenusAndToolBar()
{
    QMenu *file = menuBar()->addMenu(tr("&Cluster"));
    file->addAction(m_actions->connectAction());
    file->addAction(m_actions->refreshAction());
    file->addAction(m_actions->cancelAction());
    file->addSeparator();
    m_exportReport = file->addAction(tr("&Export Report…"));
    m_exportReport->setObjectName(QStringLiteral("actionExportReport"));
    m_exportReport->setToolTip(tr("The selected account's (or the cluster's) history over the History tab's window, as HTML and PDF"));
    connect(m_exportReport, &QAction::triggered, this, &MainWindow::showExportReport);
    file->addSeparator();
    file->addAction(m_actions->quitAction());

    m_actions->bindAutoRefresh(*m_autoRefresh);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_actions->refreshAction());
    view->addAction(m_treePanel->findAction());
    QMenu *autoRefresh = view->addMenu(tr("&Auto Refresh"));
    autoRefresh->setObjectName(QStringLiteral("menuAutoRefresh"));
    autoRefresh->addActions(m_actions->autoRefreshActions());

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_actions->repairAction());
    tools->addAction(m_actions->explainAction());
    QAction *upgrade = tools->addAction(tr("&Upgrade Readiness…"));
    upgrade->setObjectName(QStringLiteral("actionUpgradeReadiness"));
    upgrade->setToolTip(tr("What a nats-server version will refuse or change for the current account's MQTT state"));
    connect(upgrade, &QAction::triggered, this, &MainWindow::showUpgradeReadiness);
    QAction *probe = tools->addAction(tr("&Probe MQTT…"));
    probe->setObjectName(QStringLiteral("actionProbeMqtt"));
    probe->setToolTip(tr("What a real MQTT client sees of the current account: connect, QoS 1 and retained delivery"));
    connect(probe, &QAction::triggered, this, &MainWindow::showMqttProbe);
    QAction *resume = tools->addAction(tr("&Resume an Operator Action…"));
    resume->setObjectName(QStringLiteral("actionResumeOperatorAction"));
    resume->setToolTip(
        tr("Continue a delete, disconnect, clear or drop that was stopped or killed, from its journal in the backup folder"));
    connect(resume, &QAction::triggered, m_operatorActions, &OperatorActions::resumeFromJournal);
    tools->addSeparator();
    QAction *thresholds = tools->addAction(tr("Check &Thresholds…"));
    thresholds->setObjectName(QStringLiteral("actionCheckThresholds"));
    thresholds->setToolTip(tr("When a session is stale, how many pinned messages or API errors make a finding"));
    connect(thresholds, &QAction::triggered, this, &MainWindow::showCheckThresholds);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About NATS MQTT Doctor"));
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setMovable(false);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(m_actions->connectAction());
    toolBar->addAction(m_actions->refreshAction());

    toolBar->addAction(m_actions->repairAction());
    connect(m_actions->connectAction(), &QAction::triggered, this, &MainWindow::showConnectionDialog);
    connect(m_actions->repairAction(), &QAction::triggered, this, &MainWindow::showRepairWizard);
    connect(m_actions->explainAction(), &QAction::triggered, this, &MainWindow::showLogExplainer);
    connect(m_actions->quitAction(), &QAction::triggered, this, &QWidget::close);
}

bool MainWindow::isRefreshing() const
{
    return m_controller.isLoading() || m_workspace->isLoading();
}

void MainWindow::refreshAll()
{
    if (!m_controller.hasProfile() || isRefreshing())
        return;
    m_controller.refresh();
    m_workspace->reload();
}

void MainWindow::connectRecordSweep()
{
    // The record-level checks of every account the profile can read, in the background: the badges turn
    // from rings (streams only) to filled dots (everything checked) without a click.
    connect(m_sweep, &RecordSweep::accountStarted, this,
            [this](const QString &account) { m_model->setCoverage(account, HealthBadge::Coverage::Checking); });
    connect(m_sweep, &RecordSweep::accountChecked, m_model, &ClusterTreeModel::setFindings);
    // The overview follows the sweep (at most every half second).
    m_overviewTimer->setSingleShot(true);
    m_overviewTimer->setInterval(500);
    connect(m_overviewTimer, &QTimer::timeout, this, [this] {
        if (clusterOverviewShown())
            updateClusterOverview();
    });
    connect(m_sweep, &RecordSweep::accountChecked, m_overviewTimer, qOverload<>(&QTimer::start));
    connect(m_sweep, &RecordSweep::finished, m_overviewTimer, qOverload<>(&QTimer::start));
    connect(m_details->clusterPanel(), &ClusterOverviewPanel::accountActivated, this, [this](const QString &account) {
        const QModelIndex index = m_model->accountIndex(account);
        if (index.isValid())
            m_treePanel->setCurrentSourceIndex(index);
    });
    connect(m_details->clusterPanel(), &ClusterOverviewPanel::repairRequested, this, &MainWindow::showRepairWizardFor);
    connect(m_workspace->pinnedPanel(), &PinnedPanel::repairRequested, this, &MainWindow::showRepairWizardFor);
    connect(m_sweep, &RecordSweep::accountSkipped, this, [this](const QString &account, bool couldNotCheck, const QString &why) {
        m_model->setCoverage(account, couldNotCheck ? HealthBadge::Coverage::CouldNotCheck : HealthBadge::Coverage::StreamsOnly, why);
    });
    connect(m_sweep, &RecordSweep::progress, this, [this](int done, int total) {
        m_sweepLabel->setText(tr("Checking session records: %1 of %2 accounts").arg(done).arg(total));
        m_sweepLabel->setVisible(total > 0 && done < total);
    });
    connect(m_sweep, &RecordSweep::finished, this, [this](int accounts, qint64 ms) {
        m_sweepLabel->hide();
        qCInfo(lcLoad, "records sweep complete: %d accounts %lld ms after connect (%lld ms)", accounts,
               static_cast<long long>(m_controller.msSinceConnect()), static_cast<long long>(ms));
    });
    connect(m_actions->cancelAction(), &QAction::triggered, m_sweep, [this] {
        m_sweep->cancel();
        m_sweepLabel->hide();
    });
}

int MainWindow::historyTabIndex() const
{
    return m_workspace->indexOf(m_historyPanel);
}

void MainWindow::connectHistory()
{
    // After the workspace's own tabs; its tab bar is hidden while no account is shown.
    m_workspace->addTab(m_historyPanel, tr("History"));
    m_history->setFolder(HistorySettings::folder());
    m_history->setRecording(HistorySettings::recording());
    m_accountData->setHistoryRecording(m_history->isRecording());
    m_historyLabel->setObjectName(QStringLiteral("historyStatusLabel"));
    m_historyLabel->hide();
    statusBar()->addPermanentWidget(m_historyLabel);
    // The record is made on the refresh's worker; it is written on the history's own worker (a Qt SQL
    // connection belongs to the thread that opened it). A failed write never touches the refresh.
    connect(m_accountData, &AccountDataController::checkRecorded, m_history,
            [this](const QString &, std::shared_ptr<const CheckRecord> check) { m_history->record(std::move(check)); });
    connect(m_history, &HistoryController::recordFailed, this, [this](const Error &error) {
        const QString text = tr("History not recorded: %1").arg(error.toString());
        qWarning("%s", qPrintable(text));
        m_historyLabel->setText(text);
        m_historyLabel->setToolTip(text);
        m_historyLabel->show();
    });
    connect(m_reportExport, &ReportExport::finished, this, [this](const QString &html, const QString &pdf, int findings, int checks) {
        m_exportReport->setEnabled(true);
        statusBar()->showMessage(tr("Report written (%1 checks, %2 findings): %3 and %4").arg(checks).arg(findings).arg(html, pdf));
    });
    connect(m_reportExport, &ReportExport::failed, this, [this](const Error &error) {
        m_exportReport->setEnabled(true);
        statusBar()->showMessage(tr("Report not written: %1").arg(error.toString()));
    });
    connect(m_history, &HistoryController::firstSeenLoaded, this,
            [this](const QString &account, const QHash<QString, QDateTime> &firstSeen) {
                if (account == m_workspace->findingsPanel()->account())
                    m_workspace->findingsPanel()->model()->setFirstSeen(firstSeen);
            });
    connect(m_history, &HistoryController::recorded, this, [this] {
        m_historyLabel->hide();
        loadFirstSeen();
        if (m_workspace->currentWidget() == m_historyPanel)
            m_historyPanel->reload();
    });
    connect(m_workspace, &QTabWidget::currentChanged, this, [this] {
        if (m_workspace->currentWidget() == m_historyPanel)
            m_historyPanel->reload();
    });
}

void MainWindow::loadFirstSeen()
{
    if (!m_workspace->hasAccount())
        return;
    QStringList urls;
    if (m_controller.hasProfile())
        urls = m_controller.profile().servers;
    m_history->loadFirstSeen(HistoryLocation::clusterName(m_controller.servers()), urls, m_workspace->accountName());
}

void MainWindow::showExportReport()
{
    // Qt's own dialog, for the checkbox under the file list.
    QFileDialog dialog(this, tr("Export Report"));
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilter(tr("Report (*.html *.pdf)"));
    dialog.setDefaultSuffix(QStringLiteral("html"));
    const QString account = currentAccountName();
    dialog.selectFile(account.isEmpty() ? QStringLiteral("report.html") : QStringLiteral("report-%1.html").arg(account));
    auto *hash = new QCheckBox(tr("Replace client IDs by their hashes"), &dialog);
    hash->setObjectName(QStringLiteral("hashClientIds"));
    hash->setToolTip(tr("Each client ID becomes the hash of its $MQTT.sess subject: for a ticket outside your team"));
    if (auto *grid = qobject_cast<QGridLayout *>(dialog.layout()))
        grid->addWidget(hash, grid->rowCount(), 0, 1, grid->columnCount());
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    exportReport(dialog.selectedFiles().constFirst(), hash->isChecked());
}

bool MainWindow::exportReport(const QString &path, bool hashClientIds)
{
    ReportExport::Request request;
    request.folder = m_history->folder();
    request.cluster = HistoryLocation::clusterName(m_controller.servers());
    if (m_controller.hasProfile())
        request.urls = m_controller.profile().servers;
    request.account = currentAccountName();
    request.seconds = m_historyPanel->windowSeconds();
    request.path = path;
    request.hashClientIds = hashClientIds;
    request.auditLogPath = AuditLog::defaultPath();
    if (!m_reportExport->start(request)) {
        statusBar()->showMessage(tr("A report is still being written."), 5000);
        return false;
    }
    m_exportReport->setEnabled(false);
    statusBar()->showMessage(tr("Writing the report…"));
    return true;
}

void MainWindow::updateHistoryTab()
{
    QStringList urls;
    if (m_controller.hasProfile())
        urls = m_controller.profile().servers;
    const bool otherCluster = m_historyPanel->setCluster(HistoryLocation::clusterName(m_controller.servers()), urls);
    const bool shown = m_workspace->hasAccount();
    m_workspace->setTabVisible(historyTabIndex(), shown);
    if (!shown)
        return;
    const bool otherAccount = m_historyPanel->setAccount(m_workspace->accountName());
    if (otherCluster || otherAccount)
        loadFirstSeen();
    if (m_workspace->currentWidget() == m_historyPanel && (otherCluster || otherAccount))
        m_historyPanel->reload();
}

void MainWindow::connectActivity()
{
    // Live client events: the Activity tab, and the sessions table's Connected column without a reload.
    m_workspace->activityPanel()->setSources(m_activity, m_clientEvents);
    connect(m_activity, &ActivityFeed::eventsArrived, this, [this](const QList<MqttClientEvent> &events) {
        m_clientEvents->append(events);
        QHash<QString, std::optional<QString>> live;
        const QString account = m_workspace->accountName();
        for (const MqttClientEvent &e : events)
            if (e.account == account && !e.clientId.isEmpty())
                live.insert(e.clientId, e.kind == MqttClientEvent::Kind::Connect ? std::optional<QString>(e.server) : std::nullopt);
        m_workspace->sessionsPanel()->model()->setLiveConnected(live);
    });
}

void MainWindow::connectRowActions()
{
    QList<RowActions *> tables = m_workspace->rowActions();
    tables << m_details->clusterPanel()->rowActions();
    for (RowActions *rows : std::as_const(tables)) {
        connect(rows, &RowActions::operatorRequested, m_operatorActions, &OperatorActions::open);
        connect(rows, &RowActions::backupRequested, m_operatorActions, &OperatorActions::backUp);
        connect(rows, &RowActions::showInSessions, this, [this](const QString &account, const QString &clientId) {
            showClientIn(account, clientId, AccountWorkspace::SessionsTab);
        });
        connect(rows, &RowActions::showInConsumers, this, [this](const QString &account, const QString &clientId) {
            showClientIn(account, clientId, AccountWorkspace::ConsumersTab);
        });
    }
    // What an action changed shows in the tree, the findings and the open tab.
    connect(m_operatorActions, &OperatorActions::actionFinished, this, &MainWindow::refreshAll);
}

void MainWindow::showClientIn(const QString &account, const QString &clientId, int tab)
{
    const auto kind = tab == AccountWorkspace::SessionsTab ? ClusterTreeModel::NodeKind::Sessions : ClusterTreeModel::NodeKind::Consumers;
    QModelIndex node = m_model->dataIndex(account, kind);
    if (!node.isValid())
        node = m_model->accountIndex(account);
    if (!node.isValid())
        return;
    m_treePanel->setCurrentSourceIndex(node);
    m_workspace->revealClient(AccountWorkspace::Tab(tab), clientId);
}

void MainWindow::handleHealthLoaded(const HealthMap &health)
{
    m_model->applyHealth(health);
    m_lastRead = QDateTime::currentDateTime();
    if (clusterOverviewShown())
        updateClusterOverview();
    // The account open in the window (or about to be) reads its records itself.
    QStringList open{m_requestedAccount};
    if (!m_workspace->accountName().isEmpty())
        open << m_workspace->accountName();
    m_sweep->start(m_controller.connectionSet(), m_controller.servers(), m_controller.accounts(), open);
    if (m_treeCompleteSeen)
        return;
    m_treeCompleteSeen = true;
    const int accounts = m_model->accountCount();
    const int servers = m_model->rowCount(m_model->serverGroupIndex());
    const qint64 ms = m_controller.msSinceConnect();
    qCInfo(lcLoad, "tree complete: %d accounts, %d servers, %lld ms after connect", accounts, servers, static_cast<long long>(ms));
    emit treeComplete(accounts, servers, ms);
    openRequestedAccount(true);
}

void MainWindow::openAccountSessions(const QString &account)
{
    m_requestedAccount = account;
    openRequestedAccount(false);
}

void MainWindow::openRequestedAccount(bool everyAccountListed)
{
    if (m_requestedAccount.isEmpty())
        return;
    const QModelIndex sessions = m_model->dataIndex(m_requestedAccount, ClusterTreeModel::NodeKind::Sessions);
    if (sessions.isValid()) {
        m_treePanel->setCurrentSourceIndex(sessions);
        m_requestedAccount.clear();
    } else if (everyAccountListed) {
        m_banner->showError(Error(Error::Kind::NotFound, tr("No account \"%1\" with MQTT sessions to open.").arg(m_requestedAccount),
                                  tr("The servers list no such account, or it has no sessions stream; pick one in the tree.")));
        m_requestedAccount.clear();
    }
}

void MainWindow::showConnectionDialog()
{
    auto *dialog = new ConnectionDialog(m_controller.runner(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_controller.hasProfile())
        dialog->setProfile(m_controller.profile());
    else if (const QStringList recent = RecentProfiles::names(); !recent.isEmpty())
        dialog->loadRecent(recent.first());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { m_controller.connectTo(dialog->profile()); });
    dialog->open();
}

QString MainWindow::currentAccountName() const
{
    const QModelIndex current = m_treePanel->currentSourceIndex();
    if (const AccountInfo *account = m_model->accountAt(current))
        return account->name;
    if (const AccountInfo *owner = m_model->accountAt(current.parent()))
        return owner->name;
    return {};
}

void MainWindow::showRepairWizard()
{
    auto *wizard = new RepairWizard(m_controller, currentAccountName(), m_accountData->checkOptions(), this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    // The tree (streams, badges) and the workspace both show what the repair changed.
    connect(wizard, &RepairWizard::repairFinished, this, &MainWindow::refreshAll);
    wizard->open();
}

void MainWindow::showRepairWizardFor(const QList<Finding> &findings)
{
    auto *wizard = new RepairWizard(m_controller, findings, m_accountData->checkOptions(), this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &RepairWizard::repairFinished, this, &MainWindow::refreshAll);
    wizard->open();
}

void MainWindow::showUpgradeReadiness()
{
    auto *dialog = new UpgradeReadinessDialog(m_controller, currentAccountName(), this);
    dialog->setObjectName(QStringLiteral("upgradeReadinessDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About NATS MQTT Doctor"),
                       tr("<h3>NATS MQTT Doctor %1</h3>"
                          "<p>Sees, explains and repairs the JetStream streams in which nats-server keeps MQTT state: "
                          "sessions, queued and retained messages, QoS 2 records.</p>"
                          "<p>Licensed under the Apache License, Version 2.0, the license of nats-server and nats.c. "
                          "Built on nats.c, Qt and libmosquitto.</p>")
                           .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

void MainWindow::showMqttProbe()
{
    auto *dialog = new MqttProbeDialog(m_controller, currentAccountName(), this);
    dialog->setObjectName(QStringLiteral("mqttProbeDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showCheckThresholds()
{
    auto *dialog = new CheckThresholdsDialog(m_accountData->checkOptions(), this);
    dialog->setObjectName(QStringLiteral("checkThresholdsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { applyCheckThresholds(dialog->thresholds()); });
    dialog->open();
}

void MainWindow::applyCheckThresholds(const CheckOptions &thresholds)
{
    CheckThresholds::save(thresholds);
    const CheckOptions options = CheckThresholds::applied(m_accountData->checkOptions(), thresholds);
    m_accountData->setCheckOptions(options);
    m_sweep->setCheckOptions(options);
    refreshAll();
}

void MainWindow::showLogExplainer()
{
    auto *dialog = new LogExplainerDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &LogExplainerDialog::accountRequested, this,
            [this](const QString &account) { m_treePanel->setCurrentSourceIndex(m_model->accountIndex(account)); });
    dialog->show();
}

void MainWindow::handleProfileChanged()
{
    m_treeCompleteSeen = false;
    m_overviewAccountsStale = true;
    m_sweep->cancel();
    m_sweepLabel->hide();
    m_banner->dismiss();
    m_workspace->showOverviewOnly();
    m_activity->stop();
    m_clientEvents->clear();
    if (!m_controller.hasProfile()) {
        m_accountData->clearProfile();
        m_model->clear();
        showNotConnected();
        setWindowTitle(tr("NATS MQTT Doctor"));
        return;
    }
    const Profile &profile = m_controller.profile();
    m_accountData->setConnections(m_controller.connectionSet());
    m_activity->start(m_controller.connectionSet());
    m_model->clear();
    m_model->setProfile(profile.name, profile.servers.join(QStringLiteral(", ")));
    m_treePanel->expandSource(m_model->profileIndex());
    m_treePanel->setCurrentSourceIndex(m_model->profileIndex());
    setWindowTitle(tr("%1 — NATS MQTT Doctor").arg(profile.name.isEmpty() ? profile.servers.value(0) : profile.name));
    showCurrentDetails();
}

void MainWindow::handleLoaded()
{
    m_treePanel->expandSource(m_model->profileIndex());
    m_treePanel->expandSource(m_model->serverGroupIndex());
    m_treePanel->expandSource(m_model->accountGroupIndex());
    showCurrentDetails();
}

void MainWindow::handleFailed(const Error &error)
{
    m_banner->showError(error);
    showCurrentDetails();
}

void MainWindow::showNotConnected()
{
    m_details->showMessage(tr("Not connected.\n\nUse Cluster › Connect… (%1) to open a cluster: its servers, "
                              "accounts and the JetStream streams that hold their MQTT state appear here.")
                               .arg(m_actions->connectAction()->shortcut().toString(QKeySequence::NativeText)));
}

void MainWindow::showCurrentDetails()
{
    const QModelIndex current = m_treePanel->currentSourceIndex();
    const auto kind = current.data(ClusterTreeModel::NodeKindRole).value<ClusterTreeModel::NodeKind>();
    if (const AccountInfo *account = m_model->accountAt(current)) {
        m_details->showAccount(*account);
        m_workspace->showAccount(*account);
        updateHistoryTab();
        return;
    }
    if (const AccountInfo *owner = m_model->accountAt(current.parent())) {
        const StreamInfo *stream = m_model->streamAt(current);
        m_details->showAccount(*owner, stream ? stream->name : QString());
        if (stream)
            m_workspace->selectStream(stream->name);
        m_workspace->showAccount(*owner,
                                 kind == ClusterTreeModel::NodeKind::Sessions        ? AccountWorkspace::SessionsTab
                                     : kind == ClusterTreeModel::NodeKind::Retained  ? AccountWorkspace::RetainedTab
                                     : kind == ClusterTreeModel::NodeKind::Consumers ? AccountWorkspace::ConsumersTab
                                                                                     : AccountWorkspace::OverviewTab);
        updateHistoryTab();
        return;
    }
    m_workspace->showOverviewOnly();
    updateHistoryTab();
    if (const ServerInfo *server = m_model->serverAt(current)) {
        m_details->showServer(*server);
    } else if (!m_controller.hasProfile()) {
        showNotConnected();
    } else if (m_controller.connectionState() == ClusterController::ConnectionState::Failed) {
        m_details->showMessage(tr("Could not load the cluster. The message above says why; fix the settings with "
                                  "Connection Settings… or try again with Refresh (F5)."));
    } else if (m_controller.isLoading() && m_model->accountCount() == 0) {
        m_details->showMessage(tr("Loading servers and accounts…"));
    } else if (const ClusterGroup *cluster = m_model->clusterAt(current)) {
        if (!cluster->problem.isEmpty()) {
            m_details->showMessage(tr("Cluster %1 is unreachable: %2.").arg(cluster->name, cluster->problem));
        } else {
            QString text = tr("Cluster %1: %2 (%3).")
                               .arg(cluster->name.isEmpty() ? tr("(not clustered)") : cluster->name,
                                    DisplayFormat::serverCount(cluster->servers.size()), cluster->servers.join(QStringLiteral(", ")));
            if (!cluster->gateways.isEmpty())
                text += QLatin1Char(' ') + tr("Gateways to %1.").arg(cluster->gateways.join(QStringLiteral(", ")));
            m_details->showMessage(text + QStringLiteral("\n\n") + tr("Select a server to see its details."));
        }
    } else if (kind == ClusterTreeModel::NodeKind::ServerGroup) {
        m_details->showMessage(
            tr("%1, nats-server %2.\n\nSelect a server to see its details.")
                .arg(DisplayFormat::serverCount(m_model->servers().size()), DisplayFormat::serverVersions(m_model->servers())));
    } else {
        // The cluster or its Accounts node: what is wrong in this cluster, and where.
        updateClusterOverview();
        m_details->showCluster();
    }
}

void MainWindow::updateClusterOverview()
{
    const QString name = m_controller.hasProfile() ? m_controller.profile().name : QString();
    m_details->clusterPanel()->setState(name.isEmpty() ? m_controller.connectionDetail() : name, m_model->servers(),
                                        m_model->accountCount(), m_model->allFindings(), m_model->coverageCounts(), m_lastRead);
    // docs/safety.md, "It changes nothing unless told to": the same rule as the Repair… action, with how to turn changes on.
    const bool allowed = m_controller.hasProfile() && m_controller.profile().allowChanges;
    m_details->clusterPanel()->setChangesAllowed(
        allowed,
        tr("Changes are off: this connection is read-only. Turn on \"Allow changes\" in the connection settings (Connect…) to repair."));
    // The chart of session records and retained messages ranks the accounts only when they changed (not
    // on each of the record sweep's updates).
    if (std::exchange(m_overviewAccountsStale, false))
        m_details->clusterPanel()->setAccounts(m_model->accounts(), m_controller.hasProfile() && m_controller.profile().hasSystem());
}

bool MainWindow::clusterOverviewShown() const
{
    return m_details->currentWidget() == m_details->clusterPanel();
}

} // namespace MqttDoctor
