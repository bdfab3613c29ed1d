#include "serverdetailpanel.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "models/displayformat.h"

namespace MqttDoctor {

namespace {

QLabel *valueLabel(QWidget *parent, const char *objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(objectName));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("—") : text;
}

} // namespace

ServerDetailPanel::ServerDetailPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_name(valueLabel(this, "serverName")), m_id(valueLabel(this, "serverId")),
      m_version(valueLabel(this, "serverVersion")), m_cluster(valueLabel(this, "serverCluster")), m_host(valueLabel(this, "serverHost")),
      m_jetstream(valueLabel(this, "serverJetStream")), m_mqtt(valueLabel(this, "serverMqtt")), m_notice(new QLabel(this))
{
    setObjectName(QStringLiteral("serverDetailPanel"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_notice->setWordWrap(true);

    auto *form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignLeft);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Server ID:"), m_id);
    form->addRow(tr("Version:"), m_version);
    form->addRow(tr("Cluster:"), m_cluster);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("JetStream:"), m_jetstream);
    form->addRow(tr("MQTT listener:"), m_mqtt);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(form);
    layout->addWidget(m_notice);
    layout->addStretch();
}

ServerDetailPanel::~ServerDetailPanel() = default;

void ServerDetailPanel::setServer(const ServerInfo &server)
{
    m_server = server;
    m_title->setText(tr("Server %1").arg(server.name.isEmpty() ? server.host : server.name));
    m_name->setText(orDash(server.name));
    m_id->setText(orDash(server.id));
    m_version->setText(server.version.isEmpty() ? tr("unknown") : tr("nats-server %1").arg(server.version));
    m_cluster->setText(server.cluster.isEmpty() ? tr("not clustered") : server.cluster);
    m_host->setText(orDash(server.host));
    QString js = server.jetstream ? tr("enabled") : tr("disabled");
    if (server.jetstream && !server.jsDomain.isEmpty())
        js += tr(" (domain %1)").arg(server.jsDomain);
    m_jetstream->setText(js);
    m_mqtt->setText(DisplayFormat::mqttListener(server));

    QString notice;
    if (!server.mqttKnown)
        notice = tr("The MQTT listener is only visible through a system connection: add system-account "
                    "credentials to the profile.");
    else if (server.mqttPort <= 0)
        notice = tr("This server has no MQTT listener (no mqtt block in its configuration).");
    else if (!server.jetstream)
        notice = tr("MQTT needs JetStream: this server's MQTT clients cannot keep sessions until JetStream is enabled.");
    m_notice->setText(notice);
    m_notice->setVisible(!notice.isEmpty());
}

} // namespace MqttDoctor
