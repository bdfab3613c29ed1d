#include "repairwizard.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileInfo>

#include "controllers/clustercontroller.h"
#include "controllers/repaircontroller.h"
#include "dialogs/repairconfirmpage.h"
#include "dialogs/repairfindingspage.h"
#include "dialogs/repairplanpage.h"
#include "dialogs/repairrunpage.h"
#include "dialogs/repairwizardformat.h"
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "models/errortext.h"
#include "repair/auditlog.h"
#include "repair/repairsession.h"

namespace MqttDoctor {

RepairWizard::RepairWizard(ClusterController &controller, const QString &account, const CheckOptions &checkOptions, QWidget *parent)
    : QWizard(parent), m_repair(new RepairController(controller.runner(), controller.profile(), this)),
      m_model(new RepairFindingsModel(this)), m_findingsPage(new RepairFindingsPage(*this)), m_planPage(new RepairPlanPage(*this)),
      m_confirmPage(new RepairConfirmPage(*this)), m_runPage(new RepairRunPage(*this))
{
    m_repair->addAccount(account, checkOptions);
    setUp();
}

RepairWizard::RepairWizard(ClusterController &controller, const QList<Finding> &findings, const CheckOptions &checkOptions, QWidget *parent)
    : QWizard(parent), m_repair(new RepairController(controller.runner(), controller.profile(), this)),
      m_model(new RepairFindingsModel(this)), m_findingsPage(new RepairFindingsPage(*this)), m_planPage(new RepairPlanPage(*this)),
      m_confirmPage(new RepairConfirmPage(*this)), m_runPage(new RepairRunPage(*this))
{
    QStringList accounts;
    for (const Finding &f : findings) {
        m_preselected.insert(f.identity());
        if (!f.account.isEmpty() && !accounts.contains(f.account))
            accounts << f.account;
    }
    for (const QString &a : std::as_const(accounts))
        m_repair->addAccount(a, checkOptions);
    if (accounts.isEmpty())
        m_repair->addAccount({}, checkOptions);
    setUp();
}

void RepairWizard::setUp()
{
    setObjectName(QStringLiteral("repairWizard"));
    const QStringList names = accounts();
    setWindowTitle(names.size() > 1               ? tr("Repair %n account(s)", nullptr, int(names.size()))
                       : names.value(0).isEmpty() ? tr("Repair")
                                                  : tr("Repair %1").arg(names.value(0)));
    setWindowIcon(IconFactory::appIcon());
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage, true);
    setOption(QWizard::NoCancelButtonOnLastPage, false);
    setPage(FindingsPageId, m_findingsPage);
    setPage(PlanPageId, m_planPage);
    setPage(ConfirmPageId, m_confirmPage);
    setPage(RunPageId, m_runPage);
    setStartId(FindingsPageId);
    resize(900, 640);
    connect(m_model, &RepairFindingsModel::selectionChanged, m_findingsPage, &QWizardPage::completeChanged);
    connect(m_repair, &RepairController::checkFinished, this, &RepairWizard::showCheck);
    connect(m_repair, &RepairController::repairEvent, this, &RepairWizard::handleEvent);
    connect(m_repair, &RepairController::runFinished, this, &RepairWizard::showRun);
    recheck();
}

RepairWizard::~RepairWizard() = default;

QStringList RepairWizard::accounts() const
{
    return m_repair->accounts();
}

QString RepairWizard::account() const
{
    return m_repair->accounts().value(0);
}

bool RepairWizard::isChecking() const
{
    return m_repair->isChecking();
}

bool RepairWizard::isRunning() const
{
    return m_repair->isRunning();
}

QString RepairWizard::defaultBackupDir()
{
    // As the CLI: backups/ beside the audit log.
    return QFileInfo(AuditLog::defaultPath()).dir().filePath(QStringLiteral("backups"));
}

QString RepairWizard::backupDir() const
{
    return m_confirmPage->backupDir();
}

void RepairWizard::setBackupDir(const QString &dir)
{
    m_confirmPage->setBackupDir(dir);
}

QList<Finding> RepairWizard::findings() const
{
    return m_model->findings();
}

QList<Finding> RepairWizard::selectedFindings() const
{
    return m_model->selected();
}

void RepairWizard::selectCodes(const QStringList &codes)
{
    m_model->selectCodes(codes);
}

const RepairPlan &RepairWizard::plan() const
{
    static const RepairPlan empty;
    return m_plans.isEmpty() ? empty : m_plans.first();
}

QStringList RepairWizard::destructiveAccounts() const
{
    QStringList out;
    for (const RepairPlan &p : m_plans)
        if (p.hasDestructiveSteps())
            out << p.account;
    return out;
}

void RepairWizard::recheck()
{
    if (!m_repair->check())
        return;
    m_findingsPage->showChecking();
}

void RepairWizard::showCheck()
{
    m_checkError.reset();
    m_partialErrors.clear();
    QStringList blocked;
    const QList<RepairController::AccountCheck> &checks = m_repair->checks();
    const bool several = checks.size() > 1;
    int failed = 0;
    for (const RepairController::AccountCheck &c : checks) {
        if (c.error) {
            ++failed;
            m_checkError = m_checkError.value_or(*c.error);
            m_partialErrors << tr("Account %1 could not be checked: %2").arg(c.account, c.error->toString());
            continue;
        }
        if (c.blocked)
            blocked << (several ? tr("Account %1: %2").arg(c.account, RepairWizardFormat::blockedText(c.blocked))
                                : RepairWizardFormat::blockedText(c.blocked));
    }
    if (!several && !checks.isEmpty() && !checks.first().account.isEmpty())
        setWindowTitle(tr("Repair %1").arg(checks.first().account));
    if (failed < checks.size())
        m_checkError.reset(); // some accounts were checked: their findings are shown, the others named
    else
        m_partialErrors.clear();
    // A fresh check starts the run afresh: a later round is planned by the run, never from an old check.
    m_round = 1;
    m_nextRound = false;
    m_plans.clear();
    m_report.reset();
    m_fixed.clear();
    m_remaining.clear();
    m_recheckError.clear();
    m_stopText.clear();
    blocked.removeDuplicates();
    m_blockedReason = blocked.join(u'\n');
    m_model->setShowAccount(several);
    m_model->setFindings(m_repair->findings());
    if (!m_preselected.isEmpty()) {
        m_model->selectIdentities(m_preselected);
        m_preselected.clear(); // the operator's ticks from now on
    }
    m_findingsPage->showFindings();
    emit checkFinished();
}

void RepairWizard::makePlan()
{
    const bool ran = m_repair->anyRoundRan();
    m_plans = m_repair->plan(selectedFindings());
    if (!ran)
        m_round = 1;
}

bool RepairWizard::startRun()
{
    if (m_repair->isRunning() || m_repair->isChecking() || !m_blockedReason.isEmpty() || m_plans.isEmpty())
        return false;
    m_nextRound = false;
    if (!m_repair->run(backupDir()))
        return false;
    button(QWizard::CancelButton)->setEnabled(true);
    return true;
}

void RepairWizard::handleEvent(const RepairEvent &event)
{
    switch (event.kind) {
    case RepairEvent::Kind::StepStarted: m_runPage->stepStarted(event.step); break;
    case RepairEvent::Kind::BackupWritten: m_runPage->backupWritten(event.step, event.backupFile); break;
    case RepairEvent::Kind::StepFinished: m_runPage->stepEnded(event.step, event.outcome); break;
    case RepairEvent::Kind::RoundStarted:
    case RepairEvent::Kind::RoundFinished:
    case RepairEvent::Kind::Done: break; // the outcome page reads the sessions when the round is delivered
    }
}

void RepairWizard::showRun()
{
    RepairExecutor::Report whole;
    whole.complete = true;
    QStringList stops;
    QStringList recheckErrors;
    bool anyRound = false;
    m_fixed.clear();
    m_remaining.clear();
    m_roundOutcomes.clear();
    m_nextRound = false;
    const QStringList names = m_repair->accounts();
    const bool several = names.size() > 1;
    for (int i = 0; i < m_repair->accountCount(); ++i) {
        const RepairSession &session = m_repair->session(i);
        const QString &account = names.at(i);
        if (session.rounds().isEmpty())
            continue;
        if (session.rounds().last().number == m_round)
            for (const StepOutcome &o : session.rounds().last().report.outcomes)
                m_roundOutcomes.append({account, o});
        anyRound = true;
        const RepairExecutor::Report report = session.wholeReport();
        whole.outcomes += report.outcomes;
        whole.backups += report.backups;
        whole.complete = whole.complete && report.complete;
        if (!report.stoppedBecause.isEmpty())
            whole.stoppedBecause += (whole.stoppedBecause.isEmpty() ? QString() : QStringLiteral(" "))
                + (several ? tr("Account %1: %2").arg(account, report.stoppedBecause) : report.stoppedBecause);
        m_fixed += session.fixed();
        m_remaining += session.remaining();
        if (const RepairRound &last = session.rounds().last(); last.recheckError)
            recheckErrors << (several ? tr("account %1: %2").arg(account, last.recheckError->message()) : last.recheckError->message());
        m_nextRound = m_nextRound || session.hasPendingRound();
        if (!session.stopText().isEmpty())
            stops << (several ? tr("account %1: %2").arg(account, session.stopText()) : session.stopText());
    }
    const std::optional<Error> &runError = m_repair->runError();
    if (runError) {
        whole.complete = false;
        const QString reason = ErrorText::withHint(*runError, QStringLiteral(" — "));
        whole.stoppedBecause = whole.stoppedBecause.isEmpty() ? reason : whole.stoppedBecause + u' ' + reason;
    }
    if (!anyRound && !runError) {
        whole.complete = false;
        whole.stoppedBecause = tr("Cancelled before any step ran; nothing was changed.");
    }
    m_report = whole;
    m_recheckError = recheckErrors.join(QStringLiteral("; "));
    m_stopText = stops.join(QStringLiteral("; "));
    m_runPage->showOutcome();
    for (int i = 0; i < m_repair->accountCount(); ++i)
        if (!m_repair->session(i).rounds().isEmpty())
            emit repairFinished(names.at(i), m_repair->session(i).wholeReport().complete);
}

QStringList RepairWizard::openGaps() const
{
    QStringList out;
    for (int i = 0; i < m_repair->accountCount(); ++i)
        if (!m_repair->session(i).rounds().isEmpty())
            for (const CoverageGap &g : m_repair->session(i).remainingGaps())
                if (g.leavesVerdictOpen())
                    out << g.text();
    return out;
}

QStringList RepairWizard::probeSummaries(bool *failed) const
{
    QStringList out;
    bool anyFailed = false;
    for (int i = 0; i < m_repair->accountCount(); ++i)
        if (const std::optional<MqttProbeResult> &p = m_repair->session(i).probe()) {
            out << p->summary();
            anyFailed = anyFailed || !p->verified();
        }
    if (failed)
        *failed = anyFailed;
    return out;
}

void RepairWizard::reviewNextRound()
{
    if (!m_nextRound || m_repair->isRunning())
        return;
    m_round = m_repair->pendingRound();
    m_nextRound = false;
    // The round is confirmed as the first was: its plan, then the confirm page (typed names for destructive steps).
    setStartId(PlanPageId);
    restart();
}

void RepairWizard::accept()
{
    if (m_nextRound)
        m_repair->decline(); // finishing leaves the planned round unapplied
    QWizard::accept();
}

void RepairWizard::reject()
{
    if (m_repair->isRunning()) {
        // The executor stops between steps; the outcome page then shows what was done.
        m_repair->cancel();
        m_runPage->showCanceling();
        button(QWizard::CancelButton)->setEnabled(false);
        return;
    }
    if (m_nextRound)
        m_repair->decline();
    QWizard::reject();
}

} // namespace MqttDoctor
