#pragma once

#include <QWidget>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

class QLabel;

namespace MqttDoctor {

/** One server's identity, version, JetStream and MQTT listener. */
class ServerDetailPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerDetailPanel)

public:
    explicit ServerDetailPanel(QWidget *parent = nullptr);
    ~ServerDetailPanel() override;

    void setServer(const ServerInfo &server);
    QString serverName() const { return m_server.name; }

private:
    ServerInfo m_server;
    QLabel *m_title;
    QLabel *m_name;
    QLabel *m_id;
    QLabel *m_version;
    QLabel *m_cluster;
    QLabel *m_host;
    QLabel *m_jetstream;
    QLabel *m_mqtt;
    QLabel *m_notice;
};

} // namespace MqttDoctor
