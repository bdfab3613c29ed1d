#include "operatoractioncontroller.h"

#include <QJsonArray>
#include <QMutex>
#include <QMutexLocker>

#include <atomic>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "nats/connectionset.h"
#include "repair/operator/operatorrun.h"

namespace MqttDoctor {

/**
 * Carries a run's events from the worker to the controller: the worker posts under the mutex while the
 * controller is attached, the controller's destructor detaches under the same mutex, so no post targets a
 * controller that is gone.
 */
struct OperatorActionRelay
{
    QMutex mutex;
    OperatorActionController *controller = nullptr;
};

/** What the pool works on: the run and the connections it refers to (the connections outlive it). Pool threads only, one call at a time. */
struct OperatorActionController::Job
{
    explicit Job(std::shared_ptr<ConnectionSet> set) : connections(std::move(set)) {}
    ~Job() { run.reset(); } // before the connections it refers to

    std::shared_ptr<ConnectionSet> connections;
    std::atomic<bool> cancel{false};
    /** The controller's hook, copied in by run() before the worker starts (read by the worker only). */
    std::function<void(const RepairStep &step, const QStringList &backupFiles)> beforeApply;
    std::unique_ptr<OperatorRun> run;
};

struct OperatorActionController::PrepareOutcome
{
    std::optional<Error> error;
    OperatorPlan plan;
    QString account;
    std::optional<Error> blocked;
};

struct OperatorActionController::RunOutcome
{
    std::optional<Error> error;
    std::optional<RepairExecutor::Report> report;
    QList<ClientReturn> returns;
    QString journal;
    int exitCode = 0;
};

OperatorActionController::OperatorActionController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, OperatorRequest request,
                                                   QObject *parent)
    : AccountTaskController(runner, connections, request.account, parent), m_request(std::move(request)),
      m_job(connections ? std::make_shared<Job>(connections) : nullptr), m_relay(std::make_shared<OperatorActionRelay>())
{
    m_relay->controller = this;
}

OperatorActionController::~OperatorActionController()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->controller = nullptr;
    }
    if (m_job) {
        // A running plan stops at its next step (its journal says what is left); the run and its connections
        // are let go on the pool: closing connections waits for nats.c's threads.
        m_job->cancel.store(true);
        static_cast<void>(m_runner.run([job = std::move(m_job)]() mutable { job.reset(); }));
    }
}

bool OperatorActionController::prepare()
{
    return startPrepare({});
}

bool OperatorActionController::setDisconnectFirst(bool on)
{
    if (m_stage == Stage::Preparing || m_stage == Stage::Running)
        return false;
    m_request.disconnectFirst = on;
    return prepare();
}

bool OperatorActionController::prepareResume(const QString &journalPath)
{
    return !journalPath.isEmpty() && startPrepare(journalPath);
}

bool OperatorActionController::startPrepare(const QString &journalPath)
{
    if (!m_job || m_stage == Stage::Preparing || m_stage == Stage::Running)
        return false;
    m_stage = Stage::Preparing;
    m_resumeJournal = journalPath;
    m_prepareError.reset();
    m_blocked.reset();
    m_plan = {};
    const quint64 generation = begin();
    auto work = m_runner.run([job = m_job, request = m_request, journalPath]() -> PrepareOutcome {
        OperatorRun::Options options;
        options.request = request;
        options.cancel = &job->cancel;
        options.beforeApply = [job = job.get()](const RepairStep &step, const QStringList &files) {
            if (job->beforeApply)
                job->beforeApply(step, files);
        };
        job->run = std::make_unique<OperatorRun>(*job->connections, options);
        const Result<void> planned = journalPath.isEmpty() ? job->run->prepare() : job->run->prepareResume(journalPath);
        PrepareOutcome out;
        if (!planned)
            out.error = planned.error();
        out.plan = job->run->plan();
        out.account = job->run->account();
        out.blocked = job->run->blocked();
        return out;
    });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const PrepareOutcome &out) { deliverPrepared(out); });
    return true;
}

void OperatorActionController::deliverPrepared(const PrepareOutcome &outcome)
{
    end();
    m_stage = Stage::Prepared;
    m_prepareError = outcome.error;
    m_plan = outcome.plan;
    m_resolved = outcome.account.isEmpty() ? m_request.account : outcome.account;
    m_blocked = outcome.blocked;
    emit prepared();
}

bool OperatorActionController::canRun() const
{
    return m_job && m_stage == Stage::Prepared && !m_prepareError && !m_blocked && !m_plan.isEmpty();
}

bool OperatorActionController::run(const QString &backupDir)
{
    if (!canRun())
        return false;
    m_stage = Stage::Running;
    m_stopping = false;
    m_stepsDone = 0;
    m_sessionsDone = 0;
    m_report.reset();
    m_runError.reset();
    m_returns.clear();
    m_journal.clear();
    m_job->cancel.store(false);
    m_job->beforeApply = m_beforeApply; // no worker holds the job between calls
    OperatorRun::EventHandler events = [relay = m_relay](const RepairEvent &event) {
        const QMutexLocker lock(&relay->mutex);
        if (OperatorActionController *controller = relay->controller)
            GuiDelivery::post(controller, [controller, event] { controller->countEvent(event); });
    };
    const quint64 generation = begin();
    const QString folder = isResume() ? QString() : backupDir; // a resume backs up into its journal's folder
    auto work = m_runner.run([job = m_job, folder, events]() -> RunOutcome {
        if (!folder.isEmpty())
            job->run->setBackupDir(folder);
        RunOutcome out;
        auto report = job->run->run(events);
        if (report)
            out.report = *report;
        else
            out.error = report.error();
        out.returns = job->run->returns();
        out.journal = job->run->journalPath();
        out.exitCode = job->run->exitCode();
        return out;
    });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const RunOutcome &out) { deliverRun(out); });
    return true;
}

void OperatorActionController::countEvent(const RepairEvent &event)
{
    if (m_stage != Stage::Running)
        return;
    // Done: applied or found done already (a stopped run reports the steps it did not reach as finished, not run).
    if (event.kind == RepairEvent::Kind::StepFinished
        && (event.outcome.state == StepOutcome::State::Applied || event.outcome.state == StepOutcome::State::AlreadyDone)) {
        ++m_stepsDone;
        m_sessionsDone += sessionsIn(event.step);
    }
    emit runEvent(event);
}

void OperatorActionController::deliverRun(const RunOutcome &outcome)
{
    end();
    m_stage = Stage::Finished;
    m_runError = outcome.error;
    m_report = outcome.report;
    m_returns = outcome.returns;
    m_journal = outcome.journal;
    m_exitCode = outcome.exitCode;
    emit runFinished();
}

void OperatorActionController::stop()
{
    if (m_stage != Stage::Running || !m_job)
        return;
    m_stopping = true;
    m_job->cancel.store(true);
}

int OperatorActionController::sessionsIn(const RepairStep &step)
{
    for (const char *key : {"client_ids", "clients", "sessions"})
        if (const QJsonValue v = step.params.value(QLatin1String(key)); v.isArray())
            return int(v.toArray().size());
    return step.clientId.isEmpty() ? 0 : 1;
}

} // namespace MqttDoctor
