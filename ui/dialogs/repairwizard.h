#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include <QList>
#include <QWizard>

#include "common/error.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "repair/repairexecutor.h"
#include "repair/repairplan.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {

class ClusterController;
class ConnectionSet;
class RepairFindingsPage;
class RepairPlanPage;
class RepairConfirmPage;
class RepairRunPage;
struct RepairProgressRelay;

/**
 * The repair wizard for one account (docs/safety.md): pick findings from a fresh check, preview
 * the plan (RepairPlanner: diff, exact requests, backups, preconditions, undo), choose the backup
 * folder, confirm destructive steps by typing the account name, run the plan (RepairExecutor, which
 * backs up, checks preconditions and writes the audit log) with per-step progress and Cancel, then
 * show each step's outcome, the backups and the verification (a re-check: fixed and remaining).
 *
 * Everything that touches the network runs on the controller's pool, on a ConnectionSet of the
 * wizard's own made from the controller's profile; results come back on the GUI thread. A
 * read-only profile (Profile::allowChanges false) can look at findings and the plan, but the
 * Repair button stays disabled with the reason (the core refuses as well).
 *
 * Threads: GUI thread. The controller must outlive the wizard (its pool closes the connections).
 */
class RepairWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairWizard)

public:
    enum PageId { FindingsPageId, PlanPageId, ConfirmPageId, RunPageId };

    /** account empty: the account of the profile's own user. Starts the check at once. */
    RepairWizard(ClusterController &controller, const QString &account, QWidget *parent = nullptr);
    ~RepairWizard() override;

    /** The account being repaired (known once the check resolved it when none was given). */
    QString account() const { return m_account; }
    bool isChecking() const { return m_checking; }
    bool isRunning() const { return m_running; }
    bool hasRun() const { return m_report.has_value(); }
    /** Why changes are impossible (read-only profile, no credentials for the account); empty when allowed. */
    QString blockedReason() const { return m_blockedReason; }
    /** The error of the last check, if it failed. */
    std::optional<Error> checkError() const { return m_checkError; }

    QList<Finding> findings() const { return m_findings; }
    /** The findings checked in the list. */
    QList<Finding> selectedFindings() const;
    /** Checks exactly the repairable findings with these codes (all others unchecked). */
    void selectCodes(const QStringList &codes);
    const RepairPlan &plan() const { return m_plan; }

    QString backupDir() const;
    void setBackupDir(const QString &dir);
    static QString defaultBackupDir();

    const std::optional<RepairExecutor::Report> &report() const { return m_report; }
    QList<Finding> fixedFindings() const { return m_fixed; }
    QList<Finding> remainingFindings() const { return m_remaining; }

    /** Check the account again (the findings page's "Check Again"). */
    void recheck();
    void reject() override;

Q_SIGNALS:
    void checkFinished();
    /** A run ended (complete or stopped); the main window may refresh the account. */
    void repairFinished(const QString &account, bool complete);

private:
    friend class RepairFindingsPage;
    friend class RepairPlanPage;
    friend class RepairConfirmPage;
    friend class RepairRunPage;

    struct CheckOutcome;
    struct RunOutcome;

    void deliverCheck(const CheckOutcome &outcome);
    /** RepairPlanner::plan over the selected findings (pure, so on the GUI thread). */
    void makePlan();
    /** The confirm page's commit: starts RepairExecutor on the pool. */
    bool startRun();
    void handleProgress(const RepairStep &step, const StepOutcome &outcome);
    void deliverRun(const RunOutcome &outcome);

    ClusterController &m_controller;
    QString m_account;
    std::shared_ptr<ConnectionSet> m_connections;
    std::shared_ptr<RepairProgressRelay> m_relay;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0;
    bool m_checking = false;
    bool m_running = false;

    std::optional<RepairTarget> m_target;
    std::optional<Error> m_checkError;
    QString m_blockedReason;
    DiagnosisInput m_input;
    QList<Finding> m_findings;
    RepairPlan m_plan;
    std::optional<RepairExecutor::Report> m_report;
    QList<Finding> m_fixed;
    QList<Finding> m_remaining;
    QString m_recheckError;

    RepairFindingsPage *m_findingsPage;
    RepairPlanPage *m_planPage;
    RepairConfirmPage *m_confirmPage;
    RepairRunPage *m_runPage;
};

} // namespace MqttDoctor
