#include "repairwizard.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QMutex>
#include <QMutexLocker>

#include "common/asyncrunner.h"
#include "controllers/clustercontroller.h"
#include "dialogs/repairwizardpages.h"
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairsession.h"

namespace MqttDoctor {

/**
 * Carries the session's events from the worker to the wizard. The worker posts under the mutex while
 * the wizard is attached; the wizard's destructor detaches under the same mutex, so a post never
 * targets a destroyed wizard (Qt drops events posted to an object that is then deleted).
 */
struct RepairEventRelay
{
    QMutex mutex;
    RepairWizard *wizard = nullptr;
};

struct RepairWizard::CheckOutcome
{
    std::optional<Error> error;
};

struct RepairWizard::RunOutcome
{
    std::optional<Error> error;  ///< the round could not start
};

namespace {

/** Why the session may not change anything, and how to turn changes on, in the GUI's terms. */
QString blockedText(const std::optional<Error> &blocked)
{
    if (!blocked)
        return {};
    if (blocked->kind() == Error::Kind::ReadOnly)
        return RepairWizard::tr("Changes are off: this connection is read-only. To repair, turn on \"Allow changes\" in "
                                "the connection settings (Connect…), or run the command-line tool with --allow-changes.");
    return RepairWizard::tr("Changes are not possible: %1. Add the account's own credentials to the connection profile "
                            "(Connect…, Accounts): only they may change the account's streams.")
        .arg(blocked->message());
}

} // namespace

RepairWizard::RepairWizard(ClusterController &controller, const QString &account, QWidget *parent)
    : QWizard(parent), m_controller(controller), m_account(account),
      m_connections(std::make_shared<ConnectionSet>(controller.profile())),
      m_cancel(std::make_shared<std::atomic<bool>>(false)), m_relay(std::make_shared<RepairEventRelay>()),
      m_model(new RepairFindingsModel(this)), m_findingsPage(new RepairFindingsPage(*this)), m_planPage(new RepairPlanPage(*this)),
      m_confirmPage(new RepairConfirmPage(*this)), m_runPage(new RepairRunPage(*this))
{
    RepairSession::Options options;
    options.account = account;
    options.cancel = m_cancel.get();
    m_session = std::make_shared<RepairSession>(*m_connections, options);
    m_relay->wizard = this;
    setObjectName(QStringLiteral("repairWizard"));
    setWindowTitle(account.isEmpty() ? tr("Repair") : tr("Repair %1").arg(account));
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
    recheck();
}

RepairWizard::~RepairWizard()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->wizard = nullptr;
    }
    m_cancel->store(true);
    // Closing nats.c connections waits for their threads: never on the GUI thread. The session goes
    // first: it holds the repair target's connection and refers to the connection set.
    static_cast<void>(m_controller.runner().run(
        [session = std::move(m_session), connections = std::move(m_connections), cancel = m_cancel]() mutable {
            session.reset();
            connections.reset();
        }));
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

void RepairWizard::recheck()
{
    if (m_running)
        return;
    const quint64 generation = ++m_generation;
    m_checking = true;
    m_findingsPage->showChecking();
    m_controller.runner()
        .run([session = m_session, connections = m_connections]() -> CheckOutcome {
            CheckOutcome out;
            if (auto checked = session->check(); !checked)
                out.error = checked.error();
            return out;
        })
        .then(this, [this, generation](const CheckOutcome &out) {
            if (generation == m_generation)
                deliverCheck(out);
        });
}

void RepairWizard::deliverCheck(const CheckOutcome &out)
{
    m_checking = false;
    m_checkError = out.error;
    if (!m_session->account().isEmpty() && m_account.isEmpty()) {
        m_account = m_session->account();
        setWindowTitle(tr("Repair %1").arg(m_account));
    }
    // A fresh check starts the run afresh: a later round is planned by the run, never from an old check.
    m_round = 1;
    m_nextRound = false;
    m_report.reset();
    m_fixed.clear();
    m_remaining.clear();
    m_recheckError.clear();
    m_stopText.clear();
    m_blockedReason = blockedText(m_session->blocked());
    m_model->setFindings(out.error ? QList<Finding>() : m_session->findings());
    m_findingsPage->showFindings();
    emit checkFinished();
}

void RepairWizard::makePlan()
{
    if (m_session->rounds().isEmpty()) {
        m_session->planFirstRound(selectedFindings());
        m_round = 1;
    }
    m_plan = m_session->pendingPlan();
}

bool RepairWizard::startRun()
{
    if (m_running || m_checking || !m_blockedReason.isEmpty() || m_plan.steps.isEmpty() || !m_session->hasPendingRound())
        return false;
    m_running = true;
    m_nextRound = false;
    m_cancel->store(false);
    m_session->setBackupDir(backupDir());
    button(QWizard::CancelButton)->setEnabled(true);

    RepairSession::EventHandler events = [relay = m_relay](const RepairEvent &event) {
        const QMutexLocker lock(&relay->mutex);
        if (RepairWizard *wizard = relay->wizard)
            QMetaObject::invokeMethod(wizard, [wizard, event] { wizard->handleEvent(event); }, Qt::QueuedConnection);
    };
    m_controller.runner()
        .run([session = m_session, connections = m_connections, cancel = m_cancel, events]() -> RunOutcome {
            RunOutcome out;
            if (auto ran = session->runRound(events); !ran)
                out.error = ran.error();
            return out;
        })
        .then(this, [this](const RunOutcome &out) { deliverRun(out); });
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
    case RepairEvent::Kind::Done: break;  // the outcome page reads the session when the round is delivered
    }
}

void RepairWizard::deliverRun(const RunOutcome &out)
{
    m_running = false;
    if (out.error) {
        RepairExecutor::Report failed;
        failed.stoppedBecause = out.error->message() + (out.error->hint().isEmpty() ? QString() : QStringLiteral(" — ") + out.error->hint());
        m_report = failed;
        m_stopText = failed.stoppedBecause;
    } else {
        m_report = m_session->wholeReport();
        m_fixed = m_session->fixed();
        m_remaining = m_session->remaining();
        const RepairRound &last = m_session->rounds().last();
        m_recheckError = last.recheckError ? last.recheckError->message() : QString();
        m_nextRound = m_session->hasPendingRound();
        m_stopText = m_session->stopText();
    }
    m_runPage->showOutcome();
    emit repairFinished(m_account, m_report->complete);
}

void RepairWizard::reviewNextRound()
{
    if (!m_nextRound || m_running)
        return;
    m_round = m_session->pendingRound();
    m_nextRound = false;
    // The round is confirmed as the first was: its plan, then the confirm page (typed name for destructive steps).
    setStartId(PlanPageId);
    restart();
}

void RepairWizard::accept()
{
    if (m_nextRound)
        m_session->decline();  // finishing leaves the planned round unapplied
    QWizard::accept();
}

void RepairWizard::reject()
{
    if (m_running) {
        // The executor stops between steps; the outcome page then shows what was done.
        m_cancel->store(true);
        m_runPage->showCanceling();
        button(QWizard::CancelButton)->setEnabled(false);
        return;
    }
    if (m_nextRound)
        m_session->decline();
    QWizard::reject();
}

} // namespace MqttDoctor
