#include "repairconfirmpage.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QTextBrowser>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "dialogs/repairwizard.h"
#include "dialogs/repairwizardformat.h"
#include "dialogs/repairwizardwidgets.h"
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "widgets/errorbanner.h"

namespace MqttDoctor {

using namespace RepairWizardWidgets;

RepairConfirmPage::RepairConfirmPage(RepairWizard &wizard)
    : m_wizard(wizard), m_summary(new QLabel(this)), m_blocked(noticeLabel(QStringLiteral("blockedNotice"), this)),
      m_backupEdit(new QLineEdit(this)), m_browse(new QPushButton(tr("&Browse…"), this)), m_confirmLabel(new QLabel(this)),
      m_confirmEdit(new QLineEdit(this))
{
    setTitle(tr("Confirm"));
    setSubTitle(tr("Backups are written before any destructive step; a step whose backup fails does not run. "
                   "Every applied step is recorded in the audit log."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Repair"));
    m_summary->setObjectName(QStringLiteral("confirmSummary"));
    m_summary->setWordWrap(true);
    m_backupEdit->setObjectName(QStringLiteral("backupDirEdit"));
    m_backupEdit->setText(RepairWizard::defaultBackupDir());
    m_confirmEdit->setObjectName(QStringLiteral("confirmEdit"));
    m_confirmLabel->setWordWrap(true);
    m_confirmLabel->setBuddy(m_confirmEdit);

    m_form = new QFormLayout;
    addConsentRows(m_form, this, m_backupEdit, m_browse, m_confirmLabel, m_confirmEdit);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_blocked);
    layout->addWidget(m_summary);
    layout->addLayout(m_form);
    layout->addStretch(1);

    connect(m_backupEdit, &QLineEdit::textChanged, this, &RepairConfirmPage::completeChanged);
    connect(m_confirmEdit, &QLineEdit::textChanged, this, &RepairConfirmPage::completeChanged);
}

RepairConfirmPage::~RepairConfirmPage() = default;

void RepairConfirmPage::initializePage()
{
    int steps = 0;
    QStringList accounts;
    for (const RepairPlan &plan : m_wizard.plans()) {
        steps += int(plan.steps.size());
        accounts << plan.account;
    }
    const QStringList destructive = m_wizard.destructiveAccounts();
    m_summary->setText(!destructive.isEmpty() ? tr("The plan has %n step(s). Some delete or overwrite data in account(s) %1: they are "
                                                   "backed up to the folder below first.",
                                                   nullptr, steps)
                                                    .arg(destructive.join(QStringLiteral(", ")))
                                              : tr("The plan has %n step(s) for account(s) %1; none deletes anything.", nullptr, steps)
                                                    .arg(accounts.join(QStringLiteral(", "))));
    m_confirmLabel->setText(
        destructive.size() > 1
            ? tr("To apply the destructive steps, type the names of these accounts, separated by spaces: <b>%1</b>")
                  .arg(destructive.join(u' ').toHtmlEscaped())
            : tr("To apply the destructive steps, type the account name <b>%1</b>:").arg(destructive.value(0).toHtmlEscaped()));
    m_form->setRowVisible(m_confirmLabel, !destructive.isEmpty());
    m_form->setRowVisible(m_confirmEdit, !destructive.isEmpty());
    m_confirmEdit->clear();
    m_blocked->setText(m_wizard.blockedReason());
    m_blocked->setVisible(!m_wizard.blockedReason().isEmpty());
    m_confirmEdit->setEnabled(m_wizard.blockedReason().isEmpty());
}

bool RepairConfirmPage::isComplete() const
{
    if (!m_wizard.blockedReason().isEmpty() || m_wizard.plans().isEmpty() || m_wizard.isRunning())
        return false;
    const QStringList destructive = m_wizard.destructiveAccounts();
    if (destructive.isEmpty())
        return true;
    if (m_backupEdit->text().trimmed().isEmpty())
        return false;
    return consentTyped(m_confirmEdit->text(), destructive);
}

bool RepairConfirmPage::validatePage()
{
    return isComplete() && m_wizard.startRun();
}

QString RepairConfirmPage::backupDir() const
{
    return m_backupEdit->text().trimmed();
}

void RepairConfirmPage::setBackupDir(const QString &dir)
{
    m_backupEdit->setText(dir);
}

} // namespace MqttDoctor
