#pragma once

#include <QObject>

class QAction;

namespace MqttDoctor {

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

private:
    void updateEnabled();

    ClusterController &m_controller;
    QAction *m_connect;
    QAction *m_refresh;
    QAction *m_cancel;
    QAction *m_quit;
    QAction *m_repair;
    QAction *m_explain;
};

} // namespace MqttDoctor
