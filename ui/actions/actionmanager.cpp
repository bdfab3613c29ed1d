#include "actionmanager.h"

#include <QAction>
#include <QActionGroup>
#include <QKeySequence>

#include "controllers/autorefresh.h"
#include "controllers/clustercontroller.h"

namespace MqttDoctor {

ActionManager::ActionManager(ClusterController &controller, QObject *parent)
    : QObject(parent), m_controller(controller), m_connect(new QAction(tr("&Connect…"), this)),
      m_refresh(new QAction(tr("&Refresh"), this)), m_cancel(new QAction(tr("&Stop Loading"), this)),
      m_quit(new QAction(tr("&Quit"), this)), m_repair(new QAction(tr("Re&pair…"), this)),
      m_explain(new QAction(tr("E&xplain Log Lines…"), this))
{
    m_connect->setObjectName(QStringLiteral("actionConnect"));
    m_connect->setShortcut(QKeySequence::Open);
    m_connect->setToolTip(
        tr("Connect to a cluster: servers, credentials, TLS (%1)").arg(m_connect->shortcut().toString(QKeySequence::NativeText)));
    m_refresh->setObjectName(QStringLiteral("actionRefresh"));
    m_refresh->setShortcut(QKeySequence(Qt::Key_F5));
    m_refresh->setToolTip(tr("Load the servers, accounts and the open account's data again (F5)"));
    m_cancel->setObjectName(QStringLiteral("actionCancel"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setToolTip(tr("Stop waiting for the servers (Esc)"));
    m_quit->setObjectName(QStringLiteral("actionQuit"));
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);
    m_repair->setObjectName(QStringLiteral("actionRepair"));
    m_repair->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_explain->setObjectName(QStringLiteral("actionExplainLog"));
    m_explain->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_explain->setToolTip(tr("Paste nats-server log lines and see what each means and what to do (%1)")
                              .arg(m_explain->shortcut().toString(QKeySequence::NativeText)));

    connect(m_refresh, &QAction::triggered, &controller, &ClusterController::refresh);
    connect(m_cancel, &QAction::triggered, &controller, &ClusterController::cancel);
    connect(&controller, &ClusterController::loadingChanged, this, &ActionManager::updateEnabled);
    connect(&controller, &ClusterController::profileChanged, this, &ActionManager::updateEnabled);
    connect(&controller, &ClusterController::connectionStateChanged, this, &ActionManager::updateEnabled);
    updateEnabled();
}

ActionManager::~ActionManager() = default;

void ActionManager::bindAutoRefresh(AutoRefresh &refresh)
{
    delete m_autoRefresh;
    m_autoRefresh = new QActionGroup(this);
    m_autoRefresh->setExclusive(true);
    for (const int seconds : AutoRefresh::choices()) {
        auto *action = new QAction(seconds == 0 ? tr("&Off") : tr("Every %1").arg(AutoRefresh::choiceText(seconds)), m_autoRefresh);
        action->setObjectName(QStringLiteral("actionAutoRefresh%1").arg(seconds));
        action->setCheckable(true);
        action->setData(seconds);
        action->setChecked(seconds == refresh.intervalSeconds());
        action->setStatusTip(seconds == 0 ? tr("Refresh only on request (F5)")
                                          : tr("Refresh the cluster and the open account every %1; a refresh still "
                                               "running is never started again")
                                                .arg(AutoRefresh::choiceText(seconds)));
        connect(action, &QAction::triggered, &refresh, [&refresh, seconds] { refresh.setIntervalSeconds(seconds); });
    }
    connect(&refresh, &AutoRefresh::intervalChanged, m_autoRefresh, [this](int seconds) {
        if (QAction *a = autoRefreshAction(seconds))
            a->setChecked(true);
    });
}

QList<QAction *> ActionManager::autoRefreshActions() const
{
    return m_autoRefresh ? m_autoRefresh->actions() : QList<QAction *>();
}

QAction *ActionManager::autoRefreshAction(int seconds) const
{
    for (QAction *a : autoRefreshActions())
        if (a->data().toInt() == seconds)
            return a;
    return nullptr;
}

void ActionManager::updateEnabled()
{
    m_refresh->setEnabled(m_controller.hasProfile() && !m_controller.isLoading());
    m_cancel->setEnabled(m_controller.isLoading());

    // docs/safety.md, "It changes nothing unless told to": read-only profiles cannot repair; the tooltip says why (the core refuses too).
    const QString shortcut = m_repair->shortcut().toString(QKeySequence::NativeText);
    const ClusterController::ConnectionState state = m_controller.connectionState();
    const bool connected = m_controller.hasProfile()
        && (state == ClusterController::ConnectionState::Connected || state == ClusterController::ConnectionState::Reconnecting);
    QString reason;
    if (!m_controller.hasProfile())
        reason = tr("Connect to a cluster first.");
    else if (!m_controller.profile().allowChanges)
        reason = tr("Read-only profile: turn on \"Allow changes\" in the connection settings to repair.");
    else if (!connected)
        reason = tr("Not connected: %1").arg(ClusterController::stateName(state));
    m_repair->setEnabled(reason.isEmpty());
    m_repair->setToolTip(reason.isEmpty() ? tr("Plan, back up, apply and verify the repair of an account's findings (%1)").arg(shortcut)
                                          : tr("Repair is unavailable. %1").arg(reason));
    m_repair->setStatusTip(m_repair->toolTip());
}

} // namespace MqttDoctor
