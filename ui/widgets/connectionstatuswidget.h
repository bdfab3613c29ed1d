#pragma once

#include <QWidget>

#include "controllers/clustercontroller.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace MqttDoctor {

/**
 * The status bar's right side: connection state (with the URL or the reason), the servers'
 * versions, the reconnect count, and a busy indicator with a cancel button while a load runs.
 * Follows a ClusterController; holds no state of its own.
 */
class ConnectionStatusWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionStatusWidget)

public:
    explicit ConnectionStatusWidget(ClusterController &controller, QWidget *parent = nullptr);
    ~ConnectionStatusWidget() override;

    QString stateText() const;
    QString versionsText() const;
    QString reconnectsText() const;

private:
    void updateState(ClusterController::ConnectionState state, const QString &detail);
    void updateVersions(const QList<ServerInfo> &servers);
    void updateReconnects(int count);
    void updateLoading(bool loading);

    QLabel *m_stateIcon;
    QLabel *m_state;
    QLabel *m_versions;
    QLabel *m_reconnects;
    QProgressBar *m_progress;
    QToolButton *m_cancel;
};

} // namespace MqttDoctor
