#pragma once

#include <QHash>
#include <QList>
#include <QMainWindow>

#include "diagnosis/finding.h"
#include "nats/clusterinfo.h"

class QSplitter;
class QTreeView;

namespace MqttDoctor {

class AccountDataController;
class AccountWorkspace;
class ActionManager;
class AutoRefresh;
class ClusterController;
class ClusterTreeModel;
class ConnectionStatusWidget;
class DetailPanel;
class Error;
class ErrorBanner;

/**
 * The shell: the cluster tree on the left, the detail panel on the right, an error banner above
 * them, menus and toolbar from the ActionManager, and the connection status in the status bar.
 * It wires a ClusterController (owned by the caller, which must keep it alive longer) to the
 * panels; the logic lives in those classes. An account's findings, sessions, retained messages and
 * consumers come from an AccountDataController through the AccountWorkspace; it shares the
 * controller's connections, so the status bar's state and reconnect count cover every connection.
 * View › Auto Refresh refreshes on a timer (AutoRefresh), never while a load runs.
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

    ClusterTreeModel *treeModel() const { return m_model; }
    QTreeView *treeView() const { return m_tree; }
    DetailPanel *detailPanel() const { return m_details; }
    AccountWorkspace *workspace() const { return m_workspace; }
    AccountDataController *accountData() const { return m_accountData; }
    ErrorBanner *errorBanner() const { return m_banner; }
    ConnectionStatusWidget *statusWidget() const { return m_status; }
    ActionManager *actions() const { return m_actions; }
    AutoRefresh *autoRefresh() const { return m_autoRefresh; }

    /**
     * F5 and auto refresh: the servers and accounts, then the open account's findings and open tab;
     * selections and scroll positions stay. Does nothing while a load still runs.
     */
    void refreshAll();
    /** True while the cluster or the open account is loading. */
    bool isRefreshing() const;

private:
    void createMenusAndToolBar();
    /** The account of the tree's current node (the account, or the one its stream/data node belongs to). */
    QString currentAccountName() const;
    void showRepairWizard();
    void showLogExplainer();
    void handleProfileChanged();
    void handleLoaded();
    void handleFailed(const Error &error);
    void showCurrentDetails();
    void showNotConnected();
    /**
     * Health badges for every account as soon as the cluster is loaded: the stream-level checks need nothing
     * but discovery (pure, no network). An account whose full findings (records included) were loaded keeps those.
     */
    void badgeAllAccounts();

    ClusterController &m_controller;
    ActionManager *m_actions;
    ClusterTreeModel *m_model;
    QTreeView *m_tree;
    DetailPanel *m_details;
    AccountDataController *m_accountData;
    AccountWorkspace *m_workspace;
    ErrorBanner *m_banner;
    QSplitter *m_splitter;
    ConnectionStatusWidget *m_status;
    AutoRefresh *m_autoRefresh;
    QList<ServerInfo> m_servers;
    QList<AccountInfo> m_accounts;
    QHash<QString, QList<Finding>> m_fullFindings; ///< by account, from the account workspace's loads
};

} // namespace MqttDoctor
