#include "mqttprobedialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "controllers/clustercontroller.h"
#include "controllers/mqttprobecontroller.h"

namespace MqttDoctor {

namespace {

QString stepTitle(const QString &name)
{
    if (name == QLatin1String("connect"))
        return MqttProbeDialog::tr("Connect (persistent session)");
    if (name == QLatin1String("qos1"))
        return MqttProbeDialog::tr("QoS 1 message to its subscriber");
    if (name == QLatin1String("retained"))
        return MqttProbeDialog::tr("Retained message to a new subscriber");
    if (name == QLatin1String("clear_retained"))
        return MqttProbeDialog::tr("Clear the retained message");
    if (name == QLatin1String("remove_session"))
        return MqttProbeDialog::tr("Remove the probe's session");
    return name;
}

} // namespace

MqttProbeDialog::MqttProbeDialog(ClusterController &controller, const QString &account, QWidget *parent)
    : QDialog(parent), m_prober(new MqttProbeController(controller.runner(), controller.connectionSet(), account, this))
{
    setWindowTitle(account.isEmpty() ? tr("Probe MQTT") : tr("Probe MQTT of %1").arg(account));
    auto *intro = new QLabel(tr("A real MQTT client checks what devices of %1 see: it connects with a client ID of its "
                                "own, gets its QoS 1 message back, has a retained message delivered to a new subscriber, then "
                                "clears the retained message and removes its session. Everything happens under the topic "
                                "nats-mqtt-doctor/probe/; the user needs permission to publish and subscribe there.")
                                 .arg(account.isEmpty() ? tr("the MQTT user's account") : tr("account %1").arg(account)),
                             this);
    intro->setWordWrap(true);

    m_listener = new QLineEdit(this);
    m_listener->setObjectName(QStringLiteral("listener"));
    m_listener->setPlaceholderText(tr("the servers' MQTT listener"));
    m_user = new QLineEdit(this);
    m_user->setObjectName(QStringLiteral("user"));
    m_password = new QLineEdit(this);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    auto *form = new QFormLayout;
    form->addRow(tr("&Listener:"), m_listener);
    form->addRow(tr("MQTT &user:"), m_user);
    form->addRow(tr("&Password:"), m_password);
    const MqttProbeSettings known = m_prober->profileSettings();
    m_listener->setText(known.listener);
    m_user->setText(known.user);
    m_password->setText(known.password);

    m_probe = new QPushButton(tr("P&robe"), this);
    m_probe->setObjectName(QStringLiteral("probeButton"));
    m_probe->setDefault(true);
    m_status = new QLabel(tr("Give an MQTT user of the account, then Probe."), this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_steps = new QTreeWidget(this);
    m_steps->setObjectName(QStringLiteral("steps"));
    m_steps->setRootIsDecorated(false);
    m_steps->setHeaderLabels({tr("Step"), tr("Result"), tr("What happened"), tr("Time")});
    m_steps->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_steps->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_steps->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_steps->header()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_steps->header()->setStretchLastSection(false);
    m_steps->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_probe, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_steps, 1);
    layout->addWidget(buttons);
    resize(860, 420);

    connect(m_probe, &QPushButton::clicked, this, &MqttProbeDialog::probe);
    connect(m_prober, &MqttProbeController::finished, this, &MqttProbeDialog::deliver);
}

MqttProbeDialog::~MqttProbeDialog() = default;

bool MqttProbeDialog::isProbing() const
{
    return m_prober->isRunning();
}

void MqttProbeDialog::setListener(const QString &listener)
{
    m_listener->setText(listener);
}

void MqttProbeDialog::setUser(const QString &user, const QString &password)
{
    m_user->setText(user);
    m_password->setText(password);
}

void MqttProbeDialog::probe()
{
    const QString listener = m_listener->text().trimmed();
    if (!listener.isEmpty())
        if (auto address = MqttProbeSettings::parseListener(listener, tr("Listener")); !address) {
            m_status->setText(address.error().toString());
            return;
        }
    if (!m_prober->probe(MqttProbeSettings{listener, m_user->text().trimmed(), m_password->text()})) {
        m_status->setText(tr("Not connected: connect to the cluster first."));
        return;
    }
    m_probe->setEnabled(false);
    m_steps->clear();
    m_status->setText(tr("Probing MQTT delivery of %1…").arg(m_prober->account()));
}

void MqttProbeDialog::deliver(const MqttProbeResult &result)
{
    m_probe->setEnabled(true);
    m_result = result;
    QString status = result.summary() + u'.';
    if (!result.leftBehind.isEmpty())
        status += u' ' + tr("Left behind: %1.").arg(result.leftBehind);
    m_status->setText(status);
    for (const MqttProbeStep &s : result.steps) {
        auto *item = new QTreeWidgetItem(m_steps, {stepTitle(s.name), s.ok ? tr("OK") : tr("FAILED"), s.detail, tr("%1 ms").arg(s.ms)});
        item->setToolTip(2, s.detail);
        item->setData(0, Qt::UserRole, s.name);
    }
    emit probed();
}

} // namespace MqttDoctor
