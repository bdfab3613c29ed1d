#include "detailpanel.h"

#include <QLabel>

#include "panels/accountdetailpanel.h"
#include "panels/clusteroverviewpanel.h"
#include "panels/serverdetailpanel.h"

namespace MqttDoctor {

DetailPanel::DetailPanel(QWidget *parent)
    : QStackedWidget(parent), m_message(new QLabel(this)), m_server(new ServerDetailPanel(this)), m_account(new AccountDetailPanel(this)),
      m_cluster(new ClusterOverviewPanel(this))
{
    setObjectName(QStringLiteral("detailPanel"));
    m_message->setObjectName(QStringLiteral("detailMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setMargin(24);
    QPalette pal = m_message->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Disabled, QPalette::WindowText));
    m_message->setPalette(pal);
    addWidget(m_message);
    addWidget(m_server);
    addWidget(m_account);
    addWidget(m_cluster);
}

void DetailPanel::showCluster()
{
    setCurrentWidget(m_cluster);
}

DetailPanel::~DetailPanel() = default;

void DetailPanel::showMessage(const QString &text)
{
    m_message->setText(text);
    setCurrentWidget(m_message);
}

void DetailPanel::showServer(const ServerInfo &server)
{
    m_server->setServer(server);
    setCurrentWidget(m_server);
}

void DetailPanel::showAccount(const AccountInfo &account, const QString &stream)
{
    m_account->setAccount(account);
    if (!stream.isEmpty())
        m_account->selectStream(stream);
    setCurrentWidget(m_account);
}

QString DetailPanel::message() const
{
    return m_message->text();
}

} // namespace MqttDoctor
