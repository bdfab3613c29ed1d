#include "connectionstatuswidget.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include "models/displayformat.h"
#include "models/iconfactory.h"

namespace MqttDoctor {

namespace {

QFrame *separator(QWidget *parent)
{
    auto *line = new QFrame(parent);
    line->setFrameShape(QFrame::VLine);
    line->setFrameShadow(QFrame::Sunken);
    return line;
}

} // namespace

ConnectionStatusWidget::ConnectionStatusWidget(ClusterController &controller, QWidget *parent)
    : QWidget(parent), m_stateIcon(new QLabel(this)), m_state(new QLabel(this)), m_versions(new QLabel(this)),
      m_reconnects(new QLabel(this)), m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this))
{
    m_state->setObjectName(QStringLiteral("connectionState"));
    m_versions->setObjectName(QStringLiteral("serverVersions"));
    m_reconnects->setObjectName(QStringLiteral("reconnectCount"));
    m_progress->setObjectName(QStringLiteral("loadingProgress"));
    m_progress->setRange(0, 0); // busy: a load has no known length
    m_progress->setMaximumWidth(120);
    m_progress->setMaximumHeight(16);
    m_progress->setTextVisible(false);
    m_progress->setToolTip(tr("Loading servers and accounts…"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop waiting for the servers (Esc)"));
    m_cancel->setAutoRaise(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stateIcon);
    layout->addWidget(m_state);
    layout->addStretch(1);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    layout->addWidget(separator(this));
    layout->addWidget(m_versions);
    layout->addWidget(separator(this));
    layout->addWidget(m_reconnects);

    connect(&controller, &ClusterController::connectionStateChanged, this, &ConnectionStatusWidget::updateState);
    connect(&controller, &ClusterController::serversLoaded, this, &ConnectionStatusWidget::updateVersions);
    connect(&controller, &ClusterController::reconnectCountChanged, this, &ConnectionStatusWidget::updateReconnects);
    connect(&controller, &ClusterController::loadingChanged, this, &ConnectionStatusWidget::updateLoading);
    connect(&controller, &ClusterController::profileChanged, this, [this] { updateVersions({}); });
    connect(m_cancel, &QToolButton::clicked, &controller, &ClusterController::cancel);

    updateState(controller.connectionState(), controller.connectionDetail());
    updateVersions(controller.servers());
    updateReconnects(controller.reconnectCount());
    updateLoading(controller.isLoading());
}

ConnectionStatusWidget::~ConnectionStatusWidget() = default;

QString ConnectionStatusWidget::stateText() const
{
    return m_state->text();
}

QString ConnectionStatusWidget::versionsText() const
{
    return m_versions->text();
}

QString ConnectionStatusWidget::reconnectsText() const
{
    return m_reconnects->text();
}

void ConnectionStatusWidget::updateState(ClusterController::ConnectionState state, const QString &detail)
{
    using State = ClusterController::ConnectionState;
    IconFactory::Kind icon = IconFactory::Kind::Warning;
    QString text = ClusterController::stateName(state);
    switch (state) {
    case State::Connected:
        icon = IconFactory::Kind::Ok;
        text = detail.isEmpty() ? text : detail;
        break;
    case State::Failed: icon = IconFactory::Kind::Error; break;
    case State::NotConnected:
    case State::Connecting:
    case State::Reconnecting: text = detail.isEmpty() ? text : detail; break;
    }
    m_stateIcon->setPixmap(IconFactory::icon(icon).pixmap(14, 14));
    m_state->setText(text);
    m_state->setToolTip(detail);
}

void ConnectionStatusWidget::updateVersions(const QList<ServerInfo> &servers)
{
    const QString versions = DisplayFormat::serverVersions(servers);
    m_versions->setText(versions.isEmpty() ? tr("nats-server: —")
                                           : tr("nats-server %1 (%2)").arg(versions, DisplayFormat::serverCount(servers.size())));
}

void ConnectionStatusWidget::updateReconnects(int count)
{
    m_reconnects->setText(tr("Reconnects: %1").arg(count));
    m_reconnects->setToolTip(tr("How often nats.c reconnected since the profile was opened"));
}

void ConnectionStatusWidget::updateLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
}

} // namespace MqttDoctor
