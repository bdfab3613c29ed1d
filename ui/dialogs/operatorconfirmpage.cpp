#include "operatorconfirmpage.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "dialogs/operatoractionformat.h"
#include "dialogs/repairwizard.h"
#include "dialogs/repairwizardwidgets.h"

namespace MqttDoctor {

using namespace RepairWizardWidgets;

OperatorConfirmPage::OperatorConfirmPage(OperatorActionDialog &dialog)
    : m_dialog(dialog), m_summary(new QLabel(this)), m_blocked(noticeLabel(QStringLiteral("blockedNotice"), this)),
      m_backupEdit(new QLineEdit(this)), m_browse(new QPushButton(tr("&Browse…"), this)), m_consentLabel(new QLabel(this)),
      m_consentEdit(new QLineEdit(this)), m_form(new QFormLayout)
{
    setTitle(tr("Confirm"));
    setSubTitle(tr("Backups are written before any step deletes something; a step whose backup fails does not run. "
                   "Every applied step is recorded in the audit log, and the run keeps a journal to resume from."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, OperatorActionFormat::commitText(dialog.request().verb));
    m_summary->setObjectName(QStringLiteral("confirmSummary"));
    m_summary->setWordWrap(true);
    m_backupEdit->setObjectName(QStringLiteral("backupDirEdit"));
    m_backupEdit->setText(RepairWizard::defaultBackupDir());
    m_consentEdit->setObjectName(QStringLiteral("confirmEdit"));
    m_consentLabel->setWordWrap(true);
    m_consentLabel->setBuddy(m_consentEdit);

    addConsentRows(m_form, this, m_backupEdit, m_browse, m_consentLabel, m_consentEdit);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_blocked);
    layout->addWidget(m_summary);
    layout->addLayout(m_form);
    layout->addStretch(1);

    connect(m_backupEdit, &QLineEdit::textChanged, this, &OperatorConfirmPage::completeChanged);
    connect(m_consentEdit, &QLineEdit::textChanged, this, &OperatorConfirmPage::completeChanged);
}

OperatorConfirmPage::~OperatorConfirmPage() = default;

void OperatorConfirmPage::initializePage()
{
    const OperatorPlan &plan = m_dialog.controller()->plan();
    const bool consent = m_dialog.needsConsent();
    const QString account = m_dialog.account();
    const QString what = OperatorActionFormat::title(m_dialog.request().verb);
    m_summary->setText(
        consent ? tr("%1 in account %2: %3. What is deleted is backed up to the folder below first.").arg(what, account, plan.counts.text())
                : tr("%1 in account %2: %3. Nothing is deleted.").arg(what, account, plan.counts.text()));
    m_consentLabel->setText(tr("To apply the destructive steps, type the account name <b>%1</b>:").arg(account.toHtmlEscaped()));
    m_form->setRowVisible(m_consentLabel, consent);
    m_form->setRowVisible(m_consentEdit, consent);
    m_consentEdit->clear();
    const QString blocked = m_dialog.blockedReason();
    m_blocked->setText(blocked);
    m_blocked->setVisible(!blocked.isEmpty());
    m_consentEdit->setEnabled(blocked.isEmpty());
    // A resume backs up into its journal's folder.
    m_backupEdit->setEnabled(!m_dialog.controller()->isResume());
    m_browse->setEnabled(!m_dialog.controller()->isResume());
}

bool OperatorConfirmPage::isComplete() const
{
    if (!m_dialog.controller()->canRun())
        return false;
    if (!m_dialog.needsConsent())
        return true;
    return !backupDir().isEmpty() && consentTyped(m_consentEdit->text(), {m_dialog.account()});
}

bool OperatorConfirmPage::validatePage()
{
    return isComplete() && m_dialog.startRun();
}

QString OperatorConfirmPage::backupDir() const
{
    return m_backupEdit->text().trimmed();
}

void OperatorConfirmPage::setBackupDir(const QString &dir)
{
    m_backupEdit->setText(dir);
}

} // namespace MqttDoctor
