#pragma once

#include <optional>

#include <QList>
#include <QSet>
#include <QStringList>
#include <QWizard>

#include "diagnosis/checkoptions.h"
#include "common/error.h"
#include "diagnosis/finding.h"
#include "repair/repairevent.h"
#include "repair/repairexecutor.h"
#include "repair/repairplan.h"

namespace MqttDoctor {

class ClusterController;
class RepairController;
class RepairFindingsModel;
class RepairFindingsPage;
class RepairPlanPage;
class RepairConfirmPage;
class RepairRunPage;

/**
 * The repair wizard (docs/safety.md), a front end of RepairSession as the CLI's `repair` is, for one
 * account or for a selection of findings across accounts (the cluster overview's "Repair these…": one
 * session per account, their plans shown together): pick findings from a fresh check, preview the plan (diff, exact requests, backups,
 * preconditions, undo), choose the backup folder, confirm destructive steps by typing the account
 * name (each account's, across accounts), run the round with per-step progress and Cancel, then show each step's outcome, the backups
 * and the verification (a re-check: fixed and remaining). When the round uncovered new repairable
 * findings, the run page offers the next round, which goes through the plan and confirm pages again.
 *
 * A RepairController runs the sessions: everything that touches the network runs on the cluster
 * controller's pool, on a ConnectionSet of its own made from the profile; results and the sessions'
 * events come back on the GUI thread, and the wizard words them. A read-only profile (Profile::allowChanges false) can look at findings and the plan,
 * but the Repair button stays disabled with the reason and how to turn changes on.
 *
 * Threads: GUI thread. The controller must outlive the wizard (its pool closes the connections).
 */
class RepairWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairWizard)

public:
    enum PageId { FindingsPageId, PlanPageId, ConfirmPageId, RunPageId };

    /**
     * account empty: the account of the profile's own user. Starts the check at once, with
     * `checkOptions` (the thresholds the window checks with, so that it finds what the window shows).
     */
    RepairWizard(ClusterController &controller, const QString &account, const CheckOptions &checkOptions = {}, QWidget *parent = nullptr);
    /**
     * The accounts of `findings`, each checked afresh with `checkOptions`; the findings the fresh checks
     * still show are ticked, the others not. Starts the checks at once.
     */
    RepairWizard(ClusterController &controller, const QList<Finding> &findings, const CheckOptions &checkOptions = {},
                 QWidget *parent = nullptr);
    ~RepairWizard() override;

    /** The account being repaired (known once the check resolved it when none was given); the first of several. */
    QString account() const;
    /** Every account the wizard repairs. */
    QStringList accounts() const;
    bool isChecking() const;
    bool isRunning() const;
    /** A round ran (its outcome is shown). */
    bool hasRun() const { return m_report.has_value(); }
    /** Why changes are impossible and how to turn them on; empty when allowed. */
    QString blockedReason() const { return m_blockedReason; }
    /** The error of the last check when it failed for every account. */
    std::optional<Error> checkError() const { return m_checkError; }
    /** The accounts whose check failed while others' did not, one line each. */
    QStringList partialCheckErrors() const { return m_partialErrors; }

    QList<Finding> findings() const;
    /** The findings ticked in the list. */
    QList<Finding> selectedFindings() const;
    /** Ticks exactly the repairable findings with these codes (all others unticked). */
    void selectCodes(const QStringList &codes);
    RepairFindingsModel *findingsModel() const { return m_model; }

    /** The plan of the round the plan, confirm and run pages show (the first account's when several have one). */
    const RepairPlan &plan() const;
    /** Every account's plan of that round (accounts without a step left out). */
    const QList<RepairPlan> &plans() const { return m_plans; }
    /** The accounts whose plan has a destructive step: their names are typed to confirm. */
    QStringList destructiveAccounts() const;
    /** That round's number (1 for the first). */
    int round() const { return m_round; }
    /** Plans the round the plan page shows: the first from the ticked findings, later ones as the session planned them. */
    void makePlan();

    QString backupDir() const;
    void setBackupDir(const QString &dir);
    static QString defaultBackupDir();

    /** Every round's outcomes so far, in one report. */
    const std::optional<RepairExecutor::Report> &report() const { return m_report; }
    QList<Finding> fixedFindings() const { return m_fixed; }
    QList<Finding> remainingFindings() const { return m_remaining; }
    /** Why the check after the last round failed; empty when it did not. */
    QString recheckError() const { return m_recheckError; }
    /** After a round: the next round the session planned, waiting for the operator (reviewNextRound()). */
    bool hasNextRound() const { return m_nextRound; }
    /** How each step of the round that ran last ended, with its account. */
    const QList<std::pair<QString, StepOutcome>> &roundOutcomes() const { return m_roundOutcomes; }
    /** Why the run stopped (empty while a round is pending or none ran). */
    QString stopText() const { return m_stopText; }
    /** The last checks' gaps that leave the verdict open, as sentences (every account of the run). */
    QStringList openGaps() const;
    /** What the MQTT probe at the end of each account's run saw (summaries), and whether any failed. */
    QStringList probeSummaries(bool *failed = nullptr) const;

    /** Check the account again (the findings page's "Check Again"). */
    void recheck();
    /** The confirm page's commit: runs the round on the pool. */
    bool startRun();
    /** Shows the next round's plan on the plan page, to be confirmed again. */
    void reviewNextRound();
    void reject() override;
    void accept() override;

Q_SIGNALS:
    void checkFinished();
    /** A round ended (complete or stopped); the main window may refresh the account. */
    void repairFinished(const QString &account, bool complete);

private:
    void setUp();
    void showCheck();
    void handleEvent(const RepairEvent &event);
    void showRun();

    RepairController *m_repair;
    QSet<QString> m_preselected; ///< Finding::identity() of the findings to tick after the first check

    std::optional<Error> m_checkError;
    QStringList m_partialErrors;
    QString m_blockedReason;
    QList<RepairPlan> m_plans;
    int m_round = 1;
    bool m_nextRound = false;
    std::optional<RepairExecutor::Report> m_report;
    QList<std::pair<QString, StepOutcome>> m_roundOutcomes;
    QList<Finding> m_fixed;
    QList<Finding> m_remaining;
    QString m_recheckError;
    QString m_stopText;

    RepairFindingsModel *m_model;
    RepairFindingsPage *m_findingsPage;
    RepairPlanPage *m_planPage;
    RepairConfirmPage *m_confirmPage;
    RepairRunPage *m_runPage;
};

} // namespace MqttDoctor
