#pragma once

#include <QList>
#include <QObject>

class QAction;
class QActionGroup;

namespace MqttDoctor {

class AutoRefresh;
class ClusterController;

/**
 * Owns the main window's actions, so menus, toolbars and context menus share one QAction each,
 * and keeps them enabled according to the controller's state. Actions that open a dialog
 * (repair, explain) only say they were triggered: the window opens RepairWizard or
 * LogExplainerDialog. A disabled action's tooltip says why it is disabled.
 */
class ActionManager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActionManager)

public:
    explicit ActionManager(ClusterController &controller, QObject *parent = nullptr);
    ~ActionManager() override;

    QAction *connectAction() const { return m_connect; }
    QAction *refreshAction() const { return m_refresh; }
    QAction *cancelAction() const { return m_cancel; }
    QAction *quitAction() const { return m_quit; }
    /** "Repair…" (Ctrl+R): enabled when connected with a profile that allows changes. */
    QAction *repairAction() const { return m_repair; }
    /** "Explain Log Lines…" (Ctrl+E): always enabled, needs no connection. */
    QAction *explainAction() const { return m_explain; }
    /**
     * View › Auto Refresh: one checkable action per AutoRefresh::choices() (data: seconds), exclusive,
     * bound to `refresh` (checked: its remembered interval; triggering one sets the interval).
     */
    void bindAutoRefresh(AutoRefresh &refresh);
    QList<QAction *> autoRefreshActions() const;
    /** The auto-refresh action for `seconds`, null when not offered. */
    QAction *autoRefreshAction(int seconds) const;

private:
    void updateEnabled();

    ClusterController &m_controller;
    QAction *m_connect;
    QAction *m_refresh;
    QAction *m_cancel;
    QAction *m_quit;
    QAction *m_repair;
    QAction *m_explain;
    QActionGroup *m_autoRefresh = nullptr;
};

} // namespace MqttDoctor
