#include "actionmanager.h"

#include <QAction>
#include <QKeySequence>

#include "controllers/clustercontroller.h"

namespace MqttDoctor {

ActionManager::ActionManager(ClusterController &controller, QObject *parent)
    : QObject(parent), m_controller(controller), m_connect(new QAction(tr("&Connect…"), this)),
      m_refresh(new QAction(tr("&Refresh"), this)), m_cancel(new QAction(tr("&Stop Loading"), this)),
      m_quit(new QAction(tr("&Quit"), this))
{
    m_connect->setObjectName(QStringLiteral("actionConnect"));
    m_connect->setShortcut(QKeySequence::Open);
    m_connect->setToolTip(tr("Connect to a cluster: servers, credentials, TLS (%1)")
                              .arg(m_connect->shortcut().toString(QKeySequence::NativeText)));
    m_refresh->setObjectName(QStringLiteral("actionRefresh"));
    m_refresh->setShortcut(QKeySequence(Qt::Key_F5));
    m_refresh->setToolTip(tr("Load the servers and accounts again (F5)"));
    m_cancel->setObjectName(QStringLiteral("actionCancel"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setToolTip(tr("Stop waiting for the servers (Esc)"));
    m_quit->setObjectName(QStringLiteral("actionQuit"));
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);

    connect(m_refresh, &QAction::triggered, &controller, &ClusterController::refresh);
    connect(m_cancel, &QAction::triggered, &controller, &ClusterController::cancel);
    connect(&controller, &ClusterController::loadingChanged, this, &ActionManager::updateEnabled);
    connect(&controller, &ClusterController::profileChanged, this, &ActionManager::updateEnabled);
    updateEnabled();
}

ActionManager::~ActionManager() = default;

void ActionManager::updateEnabled()
{
    m_refresh->setEnabled(m_controller.hasProfile() && !m_controller.isLoading());
    m_cancel->setEnabled(m_controller.isLoading());
}

} // namespace MqttDoctor
