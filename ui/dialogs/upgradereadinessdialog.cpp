#include "upgradereadinessdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "controllers/clustercontroller.h"
#include "controllers/upgradecheckcontroller.h"
#include "mqtt/serverversion.h"

namespace MqttDoctor {

namespace {

// The client ID, topic or filter a finding is about.
QString upgradeSubjectOf(const Finding &f)
{
    if (!f.clientId.isEmpty())
        return f.clientId;
    const QJsonObject actual = f.actual.toObject();
    for (const char *key : {"topic", "filter"})
        if (const QString v = actual.value(QLatin1String(key)).toString(); !v.isEmpty())
            return v;
    return f.stream;
}

// "2.11.15 / 2.12.6 / 2.14.0", or a dash.
QString upgradeFromOf(const Finding &f)
{
    const QJsonObject expected = f.expected.toObject();
    for (const char *key : {"refused_from", "skipped_from"})
        if (const QString v = expected.value(QLatin1String(key)).toString(); !v.isEmpty())
            return v;
    return QStringLiteral("—");
}

// Control characters as \xNN, so that a tab or DEL in a topic is visible.
QString upgradeVisible(const QString &text)
{
    QString out;
    for (const QChar c : text)
        out += (c.unicode() < 0x20 || c.unicode() == 0x7f) ? QStringLiteral("\\x%1").arg(int(c.unicode()), 2, 16, QLatin1Char('0'))
                                                           : QString(c);
    return out;
}

} // namespace

UpgradeReadinessDialog::UpgradeReadinessDialog(ClusterController &controller, const QString &account, QWidget *parent)
    : QDialog(parent), m_checker(new UpgradeCheckController(controller.runner(), controller.connectionSet(), account, this))
{
    setWindowTitle(account.isEmpty() ? tr("Upgrade Readiness") : tr("Upgrade Readiness of %1").arg(account));
    auto *intro = new QLabel(tr("What a nats-server version will refuse or change for the MQTT state of %1, against what the "
                                "servers run now: client IDs it refuses (CONNACK 0x02), retained topics it skips, retained "
                                "payloads above max_payload, subscriptions to internal subjects, the 2.9 retained migration. "
                                "Nothing is changed.")
                                 .arg(account.isEmpty() ? tr("the connected user's account") : tr("account %1").arg(account)),
                             this);
    intro->setWordWrap(true);

    m_version = new QLineEdit(this);
    m_version->setObjectName(QStringLiteral("targetVersion"));
    m_version->setPlaceholderText(QStringLiteral("2.14.5"));
    m_check = new QPushButton(tr("&Check"), this);
    m_check->setObjectName(QStringLiteral("checkButton"));
    m_check->setDefault(true);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Target version:"), this));
    row->addWidget(m_version, 1);
    row->addWidget(m_check);

    m_status = new QLabel(tr("Give the version the servers are to be upgraded to."), this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);

    m_results = new QTreeWidget(this);
    m_results->setObjectName(QStringLiteral("results"));
    m_results->setRootIsDecorated(false);
    m_results->setHeaderLabels({tr("Change"), tr("Client ID / topic"), tr("From"), tr("Severity")});
    m_results->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_results->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_results->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_results->header()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_results->header()->setStretchLastSection(false);

    m_detail = new QTextBrowser(this);
    m_detail->setObjectName(QStringLiteral("detail"));
    m_detail->setMaximumHeight(140);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_detail);
    layout->addWidget(buttons);
    resize(820, 520);

    connect(m_check, &QPushButton::clicked, this, &UpgradeReadinessDialog::check);
    connect(m_version, &QLineEdit::returnPressed, this, &UpgradeReadinessDialog::check);
    connect(m_results, &QTreeWidget::currentItemChanged, this, &UpgradeReadinessDialog::showSelected);
    connect(m_checker, &UpgradeCheckController::finished, this, &UpgradeReadinessDialog::showFindings);
    connect(m_checker, &UpgradeCheckController::failed, this, &UpgradeReadinessDialog::showFailure);
}

UpgradeReadinessDialog::~UpgradeReadinessDialog() = default;

bool UpgradeReadinessDialog::isChecking() const
{
    return m_checker->isRunning();
}

void UpgradeReadinessDialog::setTargetVersion(const QString &version)
{
    m_version->setText(version);
}

void UpgradeReadinessDialog::check()
{
    const QString text = m_version->text().trimmed();
    const auto target = ServerVersion::parse(text);
    if (!target || target->majorVersion() != 2) {
        m_status->setText(tr("\"%1\" is not a nats-server version; give one such as 2.11.15 or 2.14.5.").arg(text));
        return;
    }
    if (!m_checker->check(*target)) {
        m_status->setText(tr("Not connected: connect to the cluster first."));
        return;
    }
    m_check->setEnabled(false);
    m_results->clear();
    m_detail->clear();
    m_status->setText(tr("Checking against %1…").arg(target->toString()));
}

void UpgradeReadinessDialog::showFailure(const Error &error)
{
    m_check->setEnabled(true);
    m_status->setText(tr("The check failed: %1").arg(error.toString()));
    emit checked();
}

void UpgradeReadinessDialog::showFindings(const ServerVersion &targetVersion, const QList<Finding> &findings)
{
    m_check->setEnabled(true);
    m_findings = findings;
    const QString target = targetVersion.toString();
    m_status->setText(m_findings.isEmpty()
                          ? tr("Nothing in this account's state is refused or changed by %1.").arg(target)
                          : (m_findings.size() == 1
                                 ? tr("1 thing %1 will refuse or change for this account:").arg(target)
                                 : tr("%1 things %2 will refuse or change for this account:").arg(m_findings.size()).arg(target)));
    for (qsizetype i = 0; i < m_findings.size(); ++i) {
        const Finding &f = m_findings.at(i);
        auto *item = new QTreeWidgetItem(
            m_results, {f.code, upgradeVisible(upgradeSubjectOf(f)), upgradeFromOf(f), Finding::severityName(f.severity)});
        item->setData(0, Qt::UserRole, int(i));
        item->setToolTip(1, f.title.toString());
    }
    if (m_results->topLevelItemCount() > 0)
        m_results->setCurrentItem(m_results->topLevelItem(0));
    emit checked();
}

void UpgradeReadinessDialog::showSelected()
{
    const QTreeWidgetItem *item = m_results->currentItem();
    if (!item) {
        m_detail->clear();
        return;
    }
    const Finding &f = m_findings.at(item->data(0, Qt::UserRole).toInt());
    m_detail->setPlainText(f.title.toString() + QStringLiteral("\n\n") + f.detail.toString());
}

} // namespace MqttDoctor
