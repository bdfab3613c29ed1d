#pragma once

#include <QDateTime>
#include <QList>
#include <QMainWindow>

#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"

class QLabel;
class QTimer;
class QSplitter;
class QTreeView;

namespace MqttDoctor {

class ActivityFeed;
class ClientEventModel;

class AccountDataController;
class AccountWorkspace;
class ActionManager;
class AutoRefresh;
class RecordSweep;
class ClusterController;
class ClusterTreeModel;
class ClusterTreePanel;
class ConnectionStatusWidget;
class DetailPanel;
class Error;
class ErrorBanner;
class HealthMap;
class HistoryController;
class HistoryPanel;
class ReportExport;
class OperatorActions;

/**
 * The shell: the cluster tree on the left, the detail panel on the right, an error banner above
 * them, menus and toolbar from the ActionManager, and the connection status in the status bar.
 * It wires a ClusterController (owned by the caller, which must keep it alive longer) to the
 * panels; the logic lives in those classes. An account's findings, sessions, retained messages and
 * consumers come from an AccountDataController through the AccountWorkspace; it shares the
 * controller's connections, so the status bar's state and reconnect count cover every connection.
 * View › Auto Refresh refreshes on a timer (AutoRefresh), never while a load runs. Each account refresh is
 * recorded into the local history on a worker (HistoryController; "History not recorded: …" in the status
 * bar when it cannot be), which the workspace's History tab (HistoryPanel) reads.
 *
 * The tree (ClusterTreePanel: filter, order, the model behind a proxy) gets every account's
 * stream-level badges from the controller, computed on its pool (ClusterController::healthLoaded);
 * an account whose findings the workspace loaded keeps those (ClusterTreeModel::setFindings). Once
 * per connect, when every account row and its badge are in, the logging category `mqttdoctor.load`
 * (info, off by default) logs "tree complete: N accounts, M servers, T ms after connect" and
 * treeComplete() is emitted; the same category logs "sessions: first N rows T ms after connect" and
 * "sessions complete: N rows T ms after connect" for each load of the sessions table, and "findings
 * complete: N findings T ms after connect" for each load of an account's findings.
 */
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(ClusterController &controller, QWidget *parent = nullptr);
    ~MainWindow() override;

    /** Opens the connection dialog (window-modal, not blocking); accepting connects. */
    void showConnectionDialog();

    ClusterTreePanel *treePanel() const { return m_treePanel; }
    ClusterTreeModel *treeModel() const { return m_model; }
    /** The tree's view; it shows the model through a proxy (see ClusterTreePanel for mapping indexes). */
    QTreeView *treeView() const;
    DetailPanel *detailPanel() const { return m_details; }
    AccountWorkspace *workspace() const { return m_workspace; }
    AccountDataController *accountData() const { return m_accountData; }
    ErrorBanner *errorBanner() const { return m_banner; }
    ConnectionStatusWidget *statusWidget() const { return m_status; }
    ActionManager *actions() const { return m_actions; }
    AutoRefresh *autoRefresh() const { return m_autoRefresh; }
    RecordSweep *recordSweep() const { return m_sweep; }
    /** The local history: each account refresh is recorded there, and the History tab reads it. */
    HistoryController *history() const { return m_history; }
    HistoryPanel *historyPanel() const { return m_historyPanel; }
    /** The workspace's History tab (after AccountWorkspace's own tabs). */
    int historyTabIndex() const;
    /** The status bar's line about the history ("History not recorded: …"); hidden while the history records. */
    QLabel *historyStatusLabel() const { return m_historyLabel; }
    /** Cluster > Export Report…: the history report of the selected account (or the cluster) as HTML and PDF. */
    QAction *exportReportAction() const { return m_exportReport; }
    ReportExport *reportExport() const { return m_reportExport; }
    /**
     * Writes the report of the selected account (the cluster when none) for the History tab's window to
     * `path`'s base name + .html and + .pdf on a worker; the status bar says where, or why not. False when
     * an export is still running.
     */
    bool exportReport(const QString &path, bool hashClientIds);
    /** The operator actions and backups the tables' row actions ask for. */
    OperatorActions *operatorActions() const { return m_operatorActions; }

    /**
     * F5 and auto refresh: the servers and accounts, then the open account's findings and open tab;
     * selections and scroll positions stay. Does nothing while a load still runs.
     */
    void refreshAll();
    /** True while the cluster or the open account is loading. */
    bool isRefreshing() const;
    /**
     * Opens `account`'s sessions as soon as the tree lists it (`--account` on the command line); once
     * every account is listed without it, the banner says so.
     */
    void openAccountSessions(const QString &account);

Q_SIGNALS:
    /** Once per connect: every account row and its stream-level badge are in the tree. */
    void treeComplete(int accounts, int servers, qint64 msAfterConnect);

private:
    void createMenusAndToolBar();
    /** Export Report…: asks for the file (and whether to hash client IDs), then exportReport(). */
    void showExportReport();
    /** The account of the tree's current node (the account, or the one its stream/data node belongs to). */
    QString currentAccountName() const;
    void showRepairWizard();
    /** The repair wizard for findings across accounts (the cluster overview's "Repair These…"). */
    void showRepairWizardFor(const QList<Finding> &findings);
    void showLogExplainer();
    /** Upgrade readiness of the current account (Tools menu). */
    void showUpgradeReadiness();
    /** Tools > Probe MQTT: a real MQTT client's view of the current account (MqttProbeDialog). */
    void showMqttProbe();
    /** Help > About: version and license. */
    void showAbout();
    /** Tools > Check Thresholds: on "Apply and Refresh", stores them, applies them and refreshes. */
    void showCheckThresholds();
    void applyCheckThresholds(const CheckOptions &thresholds);
    void handleProfileChanged();
    void handleLoaded();
    void handleFailed(const Error &error);
    void showCurrentDetails();
    void showNotConnected();
    void handleHealthLoaded(const HealthMap &health);
    void connectRecordSweep();
    /** Each refresh's check into the history (on its worker); the History tab follows the account shown. */
    void connectHistory();
    /** When the history first saw the open findings of the workspace's account (the Findings tab's column). */
    void loadFirstSeen();
    /** The History tab's account and cluster; reads it when it is the open tab. */
    void updateHistoryTab();
    /** Live client events: the Activity tab and the sessions table's Connected column. */
    void connectActivity();
    void updateClusterOverview();
    bool clusterOverviewShown() const;
    /** The row actions of every table (the account's and the cluster's findings) to the operator actions and to showClientIn(). */
    void connectRowActions();
    /** Opens `account`'s Sessions or Consumers tab (AccountWorkspace::Tab) and selects `clientId`'s rows there. */
    void showClientIn(const QString &account, const QString &clientId, int tab);
    /** Selects the account asked for by openAccountSessions() once it is listed. */
    void openRequestedAccount(bool everyAccountListed);

    ClusterController &m_controller;
    ActionManager *m_actions;
    ClusterTreePanel *m_treePanel;
    ClusterTreeModel *m_model;
    DetailPanel *m_details;
    AccountDataController *m_accountData;
    AccountWorkspace *m_workspace;
    ErrorBanner *m_banner;
    QSplitter *m_splitter;
    ConnectionStatusWidget *m_status;
    AutoRefresh *m_autoRefresh;
    RecordSweep *m_sweep;
    ActivityFeed *m_activity;
    ClientEventModel *m_clientEvents;
    QLabel *m_sweepLabel;
    QTimer *m_overviewTimer;
    OperatorActions *m_operatorActions;
    HistoryController *m_history;
    HistoryPanel *m_historyPanel;
    QLabel *m_historyLabel;
    ReportExport *m_reportExport;
    QAction *m_exportReport = nullptr;
    QDateTime m_lastRead; ///< when the last load's badges arrived
    bool m_treeCompleteSeen = false; ///< since the last connect
    bool m_overviewAccountsStale = true; ///< the tree's accounts changed since the overview's chart last ranked them
    QString m_requestedAccount; ///< openAccountSessions(), until it is opened
};

} // namespace MqttDoctor
