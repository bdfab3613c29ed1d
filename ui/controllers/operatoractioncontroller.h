#pragma once

#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

#include "common/error.h"
#include "controllers/accounttaskcontroller.h"
#include "repair/operator/operatorplan.h"
#include "repair/operator/operatorrequest.h"
#include "repair/repairevent.h"
#include "repair/repairexecutor.h"

namespace MqttDoctor {

struct OperatorActionRelay;

/**
 * One operator action of the GUI (delete sessions, disconnect clients, clear retained messages, drop a
 * backlog: docs/cli.md, "Operator actions") as the CLI runs it: an OperatorRun on the cluster's connections,
 * prepared on the worker pool (the account read and the plan made), shown by the front end, then run on the
 * pool with the operator's consent (backups, journal, audit per step) and Stop between steps. A stopped or
 * failed run can be resumed from its journal (prepareResume, then run again).
 *
 * It hands data back (the plan, blocked(), the run's events, its report, whether disconnected clients came
 * back), never sentences. The OperatorRun lives on the pool's threads only: what the front end reads is
 * copied out with each delivery. The controller may go while work runs (a dialog closed): the run is told
 * to stop at its next step, its events and result are dropped, and it is let go on the pool. No widgets;
 * GUI thread only.
 */
class OperatorActionController final : public AccountTaskController
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorActionController)

public:
    enum class Stage {
        Idle, ///< nothing asked yet
        Preparing, ///< reading the account and planning (prepare, prepareResume)
        Prepared, ///< the plan (or why there is none) is in
        Running,
        Finished, ///< a run ended (done, stopped or failed): report() and runError()
    };
    Q_ENUM(Stage)

    OperatorActionController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, OperatorRequest request,
                             QObject *parent = nullptr);
    ~OperatorActionController() override;

    const OperatorRequest &request() const { return m_request; }
    Stage stage() const { return m_stage; }

    /** Reads the account and plans the action on the pool; prepared() when done. False (nothing started) without connections or while busy. */
    bool prepare();
    /**
     * DeleteSessions, DropBacklog: disconnect connected clients first (OperatorRequest::disconnectFirst) and plan again;
     * prepared() when done. False (nothing started) while busy.
     */
    bool setDisconnectFirst(bool on);
    /** Plans the rest of the run a journal describes (OperatorRun::prepareResume); prepared() when done. */
    bool prepareResume(const QString &journalPath);
    /** Whether the plan shown continues a journal (prepareResume). */
    bool isResume() const { return !m_resumeJournal.isEmpty(); }

    /** Why the account could not be read or planned (prepare failed); the plan is then empty. */
    const std::optional<Error> &prepareError() const { return m_prepareError; }
    const OperatorPlan &plan() const { return m_plan; }
    /** The account as the run resolved it (the profile user's when the request named none). */
    const QString &resolvedAccount() const { return m_resolved; }
    /** Why nothing may change (read-only profile, no account credentials); nullopt when the plan can run. */
    const std::optional<Error> &blocked() const { return m_blocked; }
    /** Prepared, something to do, not blocked. */
    bool canRun() const;

    /**
     * Runs the plan (consent given) on the pool, backing up into `backupDir` (ignored on a resume: the journal's
     * folder); runEvent() per step, runFinished() at the end. False, nothing started, unless canRun().
     */
    bool run(const QString &backupDir);
    /** A running plan stops after its current step (the report then says what was done). */
    void stop();
    bool isStopping() const { return m_stopping; }

    /** Steps done (applied, or done already) in the running (or last) run, and how many sessions those steps covered. */
    int stepsDone() const { return m_stepsDone; }
    qint64 sessionsDone() const { return m_sessionsDone; }
    /** The last run's report (nullopt when it could not start: runError()). */
    const std::optional<RepairExecutor::Report> &report() const { return m_report; }
    /** Why the last run could not start or stopped with an error of its own (not a step's failure). */
    const std::optional<Error> &runError() const { return m_runError; }
    /** Disconnect: whether each client came back after its connection was closed. */
    const QList<ClientReturn> &returns() const { return m_returns; }
    /** The last run's journal, to resume from (empty when none was written). */
    const QString &journalPath() const { return m_journal; }
    /** OperatorRun::exitCode() of the last run: 0 done, 1 done in part, 2 a step failed, 3 blocked or unread. */
    int exitCode() const { return m_exitCode; }

    /**
     * Called on the worker after a step's backups are written and right before the step changes anything
     * (OperatorRun::Options::beforeApply: tests and fault injection). Taken by the next run().
     */
    void setBeforeApply(std::function<void(const RepairStep &step, const QStringList &backupFiles)> hook)
    {
        m_beforeApply = std::move(hook);
    }

    /** How many sessions a step of an operator plan covers (its batch's client IDs; 1 for a step about one client; else 0). */
    static int sessionsIn(const RepairStep &step);

Q_SIGNALS:
    /** prepare() or prepareResume() ended: plan(), blocked() and prepareError() hold what it found. */
    void prepared();
    /** A step of the running plan started, backed up or finished. */
    void runEvent(const MqttDoctor::RepairEvent &event);
    /** A run ended (done, stopped, failed or could not start). */
    void runFinished();

private:
    struct Job;
    struct PrepareOutcome;
    struct RunOutcome;

    bool startPrepare(const QString &journalPath);
    void deliverPrepared(const PrepareOutcome &outcome);
    void deliverRun(const RunOutcome &outcome);
    void countEvent(const RepairEvent &event);

    OperatorRequest m_request;
    std::function<void(const RepairStep &step, const QStringList &backupFiles)> m_beforeApply;
    std::shared_ptr<Job> m_job;
    std::shared_ptr<OperatorActionRelay> m_relay;
    Stage m_stage = Stage::Idle;
    QString m_resumeJournal;
    std::optional<Error> m_prepareError;
    OperatorPlan m_plan;
    QString m_resolved;
    std::optional<Error> m_blocked;
    bool m_stopping = false;
    int m_stepsDone = 0;
    qint64 m_sessionsDone = 0;
    std::optional<RepairExecutor::Report> m_report;
    std::optional<Error> m_runError;
    QList<ClientReturn> m_returns;
    QString m_journal;
    int m_exitCode = 0;
};

} // namespace MqttDoctor
