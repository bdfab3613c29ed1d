#include "operatoractiondialog.h"

#include <QAbstractButton>

#include "controllers/clustercontroller.h"
#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractionformat.h"
#include "dialogs/operatorconfirmpage.h"
#include "dialogs/operatorpreviewpage.h"
#include "dialogs/operatorrunpage.h"
#include "dialogs/repairwizardformat.h"
#include "models/iconfactory.h"

namespace MqttDoctor {

OperatorActionDialog::OperatorActionDialog(ClusterController &cluster, const OperatorRequest &request, QWidget *parent,
                                           const QString &journalPath)
    : QWizard(parent), m_controller(new OperatorActionController(cluster.runner(), cluster.connectionSet(), request, this)),
      m_previewPage(new OperatorPreviewPage(*this)), m_confirmPage(new OperatorConfirmPage(*this)), m_runPage(new OperatorRunPage(*this))
{
    setObjectName(QStringLiteral("operatorActionDialog"));
    setWindowTitle(request.account.isEmpty() ? OperatorActionFormat::title(request.verb)
                                             : tr("%1 — account %2").arg(OperatorActionFormat::title(request.verb), request.account));
    setWindowIcon(IconFactory::appIcon());
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage, true);
    setOption(QWizard::NoCancelButtonOnLastPage, false);
    setPage(PreviewPageId, m_previewPage);
    setPage(ConfirmPageId, m_confirmPage);
    setPage(RunPageId, m_runPage);
    setStartId(PreviewPageId);
    resize(920, 660);
    connect(m_controller, &OperatorActionController::prepared, this, &OperatorActionDialog::showPrepared);
    connect(m_controller, &OperatorActionController::runEvent, m_runPage, &OperatorRunPage::handleEvent);
    connect(m_controller, &OperatorActionController::runFinished, this, &OperatorActionDialog::showFinished);
    if (!(journalPath.isEmpty() ? m_controller->prepare() : m_controller->prepareResume(journalPath)))
        m_previewPage->showNotConnected();
}

OperatorActionDialog::~OperatorActionDialog() = default;

const OperatorRequest &OperatorActionDialog::request() const
{
    return m_controller->request();
}

QString OperatorActionDialog::account() const
{
    return m_controller->resolvedAccount().isEmpty() ? m_controller->request().account : m_controller->resolvedAccount();
}

QString OperatorActionDialog::blockedReason() const
{
    return RepairWizardFormat::blockedText(m_controller->blocked());
}

bool OperatorActionDialog::needsConsent() const
{
    return m_controller->plan().plan.hasDestructiveSteps();
}

QString OperatorActionDialog::backupDir() const
{
    return m_confirmPage->backupDir();
}

void OperatorActionDialog::setBackupDir(const QString &dir)
{
    m_confirmPage->setBackupDir(dir);
}

QString OperatorActionDialog::previewText() const
{
    return m_previewPage->text();
}

QString OperatorActionDialog::resultText() const
{
    return m_runPage->resultText();
}

void OperatorActionDialog::showPrepared()
{
    if (!account().isEmpty())
        setWindowTitle(tr("%1 — account %2").arg(OperatorActionFormat::title(request().verb), account()));
    m_previewPage->showPlan();
}

bool OperatorActionDialog::startRun()
{
    if (!m_controller->run(backupDir()))
        return false;
    button(QWizard::CancelButton)->setEnabled(true);
    return true;
}

void OperatorActionDialog::showFinished()
{
    m_runPage->showOutcome();
    emit actionFinished(account());
}

bool OperatorActionDialog::resume()
{
    if (m_controller->journalPath().isEmpty() || !m_controller->prepareResume(m_controller->journalPath()))
        return false;
    // The rest is confirmed as the first run was: its preview, then the consent.
    setStartId(PreviewPageId);
    restart();
    return true;
}

void OperatorActionDialog::reject()
{
    if (m_controller->stage() == OperatorActionController::Stage::Running) {
        // The run stops between steps; the run page then shows what was done.
        m_controller->stop();
        m_runPage->showStopping();
        button(QWizard::CancelButton)->setEnabled(false);
        return;
    }
    QWizard::reject();
}

} // namespace MqttDoctor
