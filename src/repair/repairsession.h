#pragma once

#include <atomic>
#include <functional>
#include <optional>

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "common/result.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "diagnosis/mqttprobe.h"
#include "repair/repairevent.h"
#include "repair/repairplan.h"
#include "repair/repairround.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {

class ConnectionSet;

/**
 * One repair of one account, as both front ends run it (docs/safety.md): check → plan → (the
 * operator's consent) → run a round → check again → plan the next round ... until the account is
 * left with nothing repairable or no further round can help.
 *
 * A round's steps can uncover findings the state hid before: a recreated `$MQTT_sess` leaves the
 * durables of the sessions it lost without a record (ORPHAN_CONSUMER). After each round the session
 * checks the account again and, when the round fixed something and the check shows repairable
 * findings that were not there before the round (within the codes asked for), plans the next round
 * from them. It stops when nothing repairable remains, a round fixes nothing, the round limit is
 * reached, a step fails, the run is cancelled, the check fails or the operator declines the next
 * round, and says which (stopReason()).
 *
 * Consent stays with the front end: runRound() runs only the pending plan; before the next one the
 * caller asks again (a terminal prompt, the wizard's plan and confirm pages) or, with `--yes`, goes on.
 *
 * Blocking: check(), runRound() and dryRun() read and change the servers (a worker thread). One call
 * at a time; between calls the state may be read from another thread that the caller synchronised
 * with (a finished future). Events are delivered on the working thread.
 */
class RepairSession
{
public:
    enum class Stop {
        None, ///< not stopped: a round is pending (or nothing ran yet)
        NothingRepairable, ///< no finding with a repair remains (within the codes asked for); others may
        Unresolved, ///< repairable findings remain that the run's steps did not fix
        NothingFixed, ///< the last round fixed nothing
        RoundLimit, ///< the round limit was reached with repairable findings left
        Declined, ///< the operator did not approve the next round
        StepFailed, ///< a step failed or the state moved on since the plan
        Cancelled,
        CheckFailed, ///< the check after a round could not be made
        NothingToDo, ///< the first plan has no step
        DryRun, ///< the plan was only previewed
    };

    struct Options
    {
        QString account; ///< empty: the account of the profile's own user
        CheckOptions checkOptions;
        QStringList onlyCodes; ///< `--finding`: every round only repairs these codes (empty: all)
        QString backupDir;
        QString auditPath; ///< empty: AuditLog::defaultPath()
        int maxRounds = 3;
        const std::atomic<bool> *cancel = nullptr;
        /** After a step's backups, right before it changes anything (fault tests). */
        std::function<void(const RepairStep &step, const QStringList &backupFiles)> beforeApply;
    };

    using EventHandler = std::function<void(const RepairEvent &event)>;

    RepairSession(ConnectionSet &connections, Options options);
    ~RepairSession();
    RepairSession(const RepairSession &) = delete;
    RepairSession &operator=(const RepairSession &) = delete;

    /**
     * Where changes would go (the account's own connection) and a fresh check of the account. An error
     * when the account cannot be checked at all; a missing repair target (no credentials) is not an
     * error here: blockedReason() says why nothing can be changed. Starts the run afresh.
     */
    Result<void> check();

    /** Where the next round's backups go (the wizard's confirm page chooses it after the check). */
    void setBackupDir(const QString &dir) { m_options.backupDir = dir; }
    /** Options::onlyCodes: the codes the operator named (empty: every repairable finding not marked repairOnlyWhenSelected). */
    const QStringList &onlyCodes() const { return m_options.onlyCodes; }

    /** The account checked (resolved from the profile when Options::account was empty). */
    QString account() const { return m_account; }
    /** The account's findings (and the cluster-level ones) from check(). */
    const QList<Finding> &findings() const { return m_findings; }
    /** What check() could not look at. */
    const QList<CoverageGap> &gaps() const { return m_input.gaps; }
    const std::optional<RepairTarget> &target() const { return m_target; }
    /**
     * Why changes are impossible: no connection of the account's own (Error::Kind::InvalidInput, its
     * credentials are not in the profile) or a read-only profile (Error::Kind::ReadOnly). nullopt when
     * they are allowed. Each front end says how to turn changes on in its own terms.
     */
    const std::optional<Error> &blocked() const { return m_blocked; }

    /** Plans the first round from `selected` (findings of findings()); Options::onlyCodes applies too. Pure. */
    void planFirstRound(const QList<Finding> &selected);
    /** Plans the first round from every finding (within Options::onlyCodes). */
    void planFirstRound();

    /** The plan of the round runRound() would run next; empty when none is pending. */
    const RepairPlan &pendingPlan() const { return m_pending; }
    /** Its number (1 for the first round). */
    int pendingRound() const { return int(m_rounds.size()) + 1; }
    bool hasPendingRound() const { return m_stop == Stop::None && !m_pending.steps.isEmpty(); }

    /**
     * Runs the pending round, then checks the account again and plans the next round or stops. An error
     * when the round could not start at all (read-only profile, no backup folder): nothing was changed.
     */
    Result<void> runRound(const EventHandler &events = {});
    /** Runs the pending plan's preconditions only: changes nothing, writes no backups. Stops the run (DryRun). */
    Result<RepairExecutor::Report> dryRun(const EventHandler &events = {});
    /** The operator said no to the pending round: the run stops there (Declined). */
    void decline();

    Stop stopReason() const { return m_stop; }
    /** One line for people: why the run stopped (empty while it has not). */
    QString stopText() const { return m_stopText; }
    /** "nothing_repairable", "unresolved", ... (the JSON's `stop.reason`). */
    static QString stopName(Stop stop);

    const QList<RepairRound> &rounds() const { return m_rounds; }
    /** Every round's steps in one plan (step ids run on across rounds). */
    RepairPlan wholePlan() const;
    /** Every round's outcomes in one report. */
    RepairExecutor::Report wholeReport() const;
    /** Findings some round fixed that the last check no longer shows. */
    QList<Finding> fixed() const;
    /**
     * What the last check shows (within Options::onlyCodes): after the last round, or check()'s
     * findings when no round ran.
     */
    QList<Finding> remaining() const;
    /** What the last check shows outside Options::onlyCodes (left alone by every round). */
    QList<Finding> notSelected() const;
    /** What the last check could not look at. */
    QList<CoverageGap> remainingGaps() const;
    /** Whether the last check after a round succeeded (remaining() is then a fresh result). */
    bool lastCheckSucceeded() const;
    /**
     * What a real MQTT client saw after the last round (MqttProbe), when the profile names the account's
     * MQTT listener and user (`mqtt_probe`, --mqtt-user); nullopt when it does not or no round ran.
     */
    const std::optional<MqttProbeResult> &probe() const { return m_probe; }

    /**
     * The CLI's exit code (docs/cli.md): 2 when a step failed or the last check could not be made;
     * else as `check` for remaining() (0 nothing above info, 1 warnings, 2 errors), and 3 instead of
     * 0 or 1 when the last check could not look at everything; 2 when the MQTT probe failed, 3 instead
     * of 0 or 1 when it could not run.
     */
    int exitCode() const;

    /**
     * docs/cli.md, `repair` JSON: {plan, applied, backups, fixed, remaining, not_selected, not_checked,
     * rounds, stop: {reason, text}, dry_run, probe}.
     */
    QJsonObject toJson() const;

private:
    /** The account's findings (and the cluster-level ones) in `input`, within onlyCodes when `scoped`. */
    QList<Finding> accountFindings(const DiagnosisInput &input) const;
    bool inScope(const Finding &finding) const;
    RepairPlan planFrom(const DiagnosisInput &input, const QList<Finding> &findings, int firstStepId) const;
    void stop(Stop reason, const QString &text);
    /** The findings of the last successful check (check()'s, or a round's). */
    const QList<Finding> &lastFindings() const;
    /** After a checked round: plan the next one or stop. */
    void decideNextRound(const RepairRound &round, const DiagnosisInput &after);

    ConnectionSet &m_connections;
    Options m_options;
    QString m_account;
    std::optional<RepairTarget> m_target;
    std::optional<Error> m_blocked;
    DiagnosisInput m_input; ///< the latest check's input (the next round is planned from it)
    QList<Finding> m_findings; ///< check()'s findings
    QSet<QString> m_seen; ///< identities of every finding any check of this run showed before the last round
    RepairPlan m_pending;
    QList<RepairRound> m_rounds;
    std::optional<RepairExecutor::Report> m_dryRun;
    Stop m_stop = Stop::None;
    QString m_stopText;
    std::optional<MqttProbeResult> m_probe;
};

} // namespace MqttDoctor
