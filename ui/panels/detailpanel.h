#pragma once

#include <QStackedWidget>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

class QLabel;

namespace MqttDoctor {

class AccountDetailPanel;
class ClusterOverviewPanel;
class ServerDetailPanel;

/** The right side of the main window: one page per kind of selection, or a hint. */
class DetailPanel final : public QStackedWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailPanel)

public:
    explicit DetailPanel(QWidget *parent = nullptr);
    ~DetailPanel() override;

    void showMessage(const QString &text);
    /** The cluster overview page (filled by its owner through clusterPanel()). */
    void showCluster();
    void showServer(const ServerInfo &server);
    /** Shows the account; with a stream name, that stream's row is selected. */
    void showAccount(const AccountInfo &account, const QString &stream = {});

    AccountDetailPanel *accountPanel() const { return m_account; }
    ServerDetailPanel *serverPanel() const { return m_server; }
    ClusterOverviewPanel *clusterPanel() const { return m_cluster; }
    QString message() const;

private:
    QLabel *m_message;
    ServerDetailPanel *m_server;
    AccountDetailPanel *m_account;
    ClusterOverviewPanel *m_cluster;
};

} // namespace MqttDoctor
