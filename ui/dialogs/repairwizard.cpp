#include "repairwizard.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QMutex>
#include <QMutexLocker>

#include "common/asyncrunner.h"
#include "controllers/clustercontroller.h"
#include "dialogs/repairconfirmpage.h"
#include "dialogs/repairfindingspage.h"
#include "dialogs/repairplanpage.h"
#include "dialogs/repairrunpage.h"
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairsession.h"
#include "controllers/guidelivery.h"
#include "models/errortext.h"

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
    QList<std::optional<Error>> errors; ///< per account, in m_runs order
};

struct RepairWizard::RunOutcome
{
    std::optional<Error> error; ///< a round could not start (the first such account's reason)
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

RepairWizard::RepairWizard(ClusterController &controller, const QString &account, const CheckOptions &checkOptions, QWidget *parent)
    : QWizard(parent), m_controller(controller), m_connections(std::make_shared<ConnectionSet>(controller.profile())),
      m_cancel(std::make_shared<std::atomic<bool>>(false)), m_relay(std::make_shared<RepairEventRelay>()),
      m_model(new RepairFindingsModel(this)), m_findingsPage(new RepairFindingsPage(*this)), m_planPage(new RepairPlanPage(*this)),
      m_confirmPage(new RepairConfirmPage(*this)), m_runPage(new RepairRunPage(*this))
{
    addRun(account, checkOptions);
    setUp();
}

RepairWizard::RepairWizard(ClusterController &controller, const QList<Finding> &findings, const CheckOptions &checkOptions, QWidget *parent)
    : QWizard(parent), m_controller(controller), m_connections(std::make_shared<ConnectionSet>(controller.profile())),
      m_cancel(std::make_shared<std::atomic<bool>>(false)), m_relay(std::make_shared<RepairEventRelay>()),
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
        addRun(a, checkOptions);
    if (m_runs.isEmpty())
        addRun({}, checkOptions);
    setUp();
}

void RepairWizard::addRun(const QString &account, const CheckOptions &checkOptions)
{
    RepairSession::Options options;
    options.account = account;
    options.checkOptions = checkOptions;
    options.cancel = m_cancel.get();
    m_runs.append({account, std::make_shared<RepairSession>(*m_connections, options)});
}

void RepairWizard::setUp()
{
    m_relay->wizard = this;
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
    recheck();
}

RepairWizard::~RepairWizard()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->wizard = nullptr;
    }
    m_cancel->store(true);
    // Closing nats.c connections waits for their threads: never on the GUI thread. The sessions go
    // first: they hold the repair targets' connections and refer to the connection set.
    QList<std::shared_ptr<RepairSession>> sessions;
    for (AccountRun &run : m_runs)
        sessions << std::move(run.session);
    static_cast<void>(
        m_controller.runner().run([sessions = std::move(sessions), connections = std::move(m_connections), cancel = m_cancel]() mutable {
            sessions.clear();
            connections.reset();
        }));
}

QStringList RepairWizard::accounts() const
{
    QStringList out;
    for (const AccountRun &run : m_runs)
        out << run.account;
    return out;
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
    if (m_running)
        return;
    const quint64 generation = ++m_generation;
    m_checking = true;
    m_findingsPage->showChecking();
    QList<std::shared_ptr<RepairSession>> sessions;
    for (const AccountRun &run : std::as_const(m_runs))
        sessions << run.session;
    auto work = m_controller.runner().run([sessions, connections = m_connections]() -> CheckOutcome {
        CheckOutcome out;
        for (const std::shared_ptr<RepairSession> &session : sessions) {
            auto checked = session->check();
            out.errors << (checked ? std::nullopt : std::optional<Error>(checked.error()));
        }
        return out;
    });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const CheckOutcome &out) { deliverCheck(out); });
}

void RepairWizard::deliverCheck(const CheckOutcome &out)
{
    m_checking = false;
    m_checkError.reset();
    m_partialErrors.clear();
    QList<Finding> findings;
    QStringList blocked;
    int failed = 0;
    for (qsizetype i = 0; i < m_runs.size(); ++i) {
        AccountRun &run = m_runs[i];
        if (!run.session->account().isEmpty() && run.account.isEmpty()) {
            run.account = run.session->account();
            setWindowTitle(tr("Repair %1").arg(run.account));
        }
        const std::optional<Error> error = out.errors.value(i);
        if (error) {
            ++failed;
            m_checkError = m_checkError.value_or(*error);
            m_partialErrors << tr("Account %1 could not be checked: %2").arg(run.account, error->toString());
            continue;
        }
        findings += run.session->findings();
        if (const auto &reason = run.session->blocked())
            blocked << (m_runs.size() > 1 ? tr("Account %1: %2").arg(run.account, blockedText(reason)) : blockedText(reason));
    }
    if (failed < m_runs.size())
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
    m_model->setShowAccount(m_runs.size() > 1);
    m_model->setFindings(findings);
    if (!m_preselected.isEmpty()) {
        m_model->selectIdentities(m_preselected);
        m_preselected.clear(); // the operator's ticks from now on
    }
    m_findingsPage->showFindings();
    emit checkFinished();
}

void RepairWizard::makePlan()
{
    m_plans.clear();
    const QList<Finding> selected = selectedFindings();
    bool anyRan = false;
    for (const AccountRun &run : std::as_const(m_runs))
        anyRan = anyRan || !run.session->rounds().isEmpty();
    for (const AccountRun &run : std::as_const(m_runs)) {
        RepairSession &session = *run.session;
        if (!anyRan) {
            QList<Finding> mine;
            for (const Finding &f : selected)
                if (f.account == run.account || (f.account.isEmpty() && m_runs.size() == 1))
                    mine << f;
            session.planFirstRound(mine);
        }
        if (session.hasPendingRound())
            m_plans << session.pendingPlan();
    }
    if (!anyRan)
        m_round = 1;
}

bool RepairWizard::startRun()
{
    if (m_running || m_checking || !m_blockedReason.isEmpty() || m_plans.isEmpty())
        return false;
    m_running = true;
    m_nextRound = false;
    m_cancel->store(false);
    QList<std::shared_ptr<RepairSession>> sessions;
    for (const AccountRun &run : std::as_const(m_runs)) {
        run.session->setBackupDir(backupDir());
        if (run.session->hasPendingRound())
            sessions << run.session;
    }
    button(QWizard::CancelButton)->setEnabled(true);

    RepairSession::EventHandler events = [relay = m_relay](const RepairEvent &event) {
        const QMutexLocker lock(&relay->mutex);
        if (RepairWizard *wizard = relay->wizard)
            GuiDelivery::post(wizard, [wizard, event] { wizard->handleEvent(event); });
    };
    auto work = m_controller.runner().run([sessions, connections = m_connections, cancel = m_cancel, events]() -> RunOutcome {
        RunOutcome out;
        // One account after the other; Cancel stops between steps and before the next account.
        for (const std::shared_ptr<RepairSession> &session : sessions) {
            if (cancel->load())
                break;
            if (auto ran = session->runRound(events); !ran && !out.error)
                out.error = ran.error();
        }
        return out;
    });
    // A run is never superseded (recheck() waits for it): delivered under the current generation.
    GuiDelivery::whenReady(std::move(work), this, m_generation, m_generation, [this](const RunOutcome &out) { deliverRun(out); });
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

void RepairWizard::deliverRun(const RunOutcome &out)
{
    m_running = false;
    RepairExecutor::Report whole;
    whole.complete = true;
    QStringList stops;
    QStringList recheckErrors;
    bool anyRound = false;
    m_fixed.clear();
    m_remaining.clear();
    m_roundOutcomes.clear();
    m_nextRound = false;
    for (const AccountRun &run : std::as_const(m_runs)) {
        const RepairSession &session = *run.session;
        if (session.rounds().isEmpty())
            continue;
        if (session.rounds().last().number == m_round)
            for (const StepOutcome &o : session.rounds().last().report.outcomes)
                m_roundOutcomes.append({run.account, o});
        anyRound = true;
        const RepairExecutor::Report report = session.wholeReport();
        whole.outcomes += report.outcomes;
        whole.backups += report.backups;
        whole.complete = whole.complete && report.complete;
        if (!report.stoppedBecause.isEmpty())
            whole.stoppedBecause += (whole.stoppedBecause.isEmpty() ? QString() : QStringLiteral(" "))
                + (m_runs.size() > 1 ? tr("Account %1: %2").arg(run.account, report.stoppedBecause) : report.stoppedBecause);
        m_fixed += session.fixed();
        m_remaining += session.remaining();
        if (const RepairRound &last = session.rounds().last(); last.recheckError)
            recheckErrors << (m_runs.size() > 1 ? tr("account %1: %2").arg(run.account, last.recheckError->message())
                                                : last.recheckError->message());
        m_nextRound = m_nextRound || session.hasPendingRound();
        if (!session.stopText().isEmpty())
            stops << (m_runs.size() > 1 ? tr("account %1: %2").arg(run.account, session.stopText()) : session.stopText());
    }
    if (out.error) {
        whole.complete = false;
        const QString reason = ErrorText::withHint(*out.error, QStringLiteral(" — "));
        whole.stoppedBecause = whole.stoppedBecause.isEmpty() ? reason : whole.stoppedBecause + u' ' + reason;
    }
    if (!anyRound && !out.error) {
        whole.complete = false;
        whole.stoppedBecause = tr("Cancelled before any step ran; nothing was changed.");
    }
    m_report = whole;
    m_recheckError = recheckErrors.join(QStringLiteral("; "));
    m_stopText = stops.join(QStringLiteral("; "));
    m_runPage->showOutcome();
    for (const AccountRun &run : std::as_const(m_runs))
        if (!run.session->rounds().isEmpty())
            emit repairFinished(run.account, run.session->wholeReport().complete);
}

QStringList RepairWizard::openGaps() const
{
    QStringList out;
    for (const AccountRun &run : m_runs)
        if (!run.session->rounds().isEmpty())
            for (const CoverageGap &g : run.session->remainingGaps())
                if (g.leavesVerdictOpen())
                    out << g.text();
    return out;
}

QStringList RepairWizard::probeSummaries(bool *failed) const
{
    QStringList out;
    bool anyFailed = false;
    for (const AccountRun &run : m_runs)
        if (const std::optional<MqttProbeResult> &p = run.session->probe()) {
            out << p->summary();
            anyFailed = anyFailed || !p->verified();
        }
    if (failed)
        *failed = anyFailed;
    return out;
}

void RepairWizard::reviewNextRound()
{
    if (!m_nextRound || m_running)
        return;
    int round = 0;
    for (const AccountRun &run : std::as_const(m_runs))
        if (run.session->hasPendingRound())
            round = std::max(round, run.session->pendingRound());
    m_round = round;
    m_nextRound = false;
    // The round is confirmed as the first was: its plan, then the confirm page (typed names for destructive steps).
    setStartId(PlanPageId);
    restart();
}

void RepairWizard::accept()
{
    if (m_nextRound)
        for (const AccountRun &run : std::as_const(m_runs))
            run.session->decline(); // finishing leaves the planned round unapplied
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
        for (const AccountRun &run : std::as_const(m_runs))
            run.session->decline();
    QWizard::reject();
}

} // namespace MqttDoctor
