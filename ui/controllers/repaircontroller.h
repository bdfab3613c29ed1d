#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

#include "common/error.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"
#include "nats/profile.h"
#include "repair/repairevent.h"
#include "repair/repairplan.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;
class RepairSession;
struct RepairControllerRelay;

/**
 * The GUI's repair of one or more accounts: one RepairSession per account (docs/safety.md), driven the
 * way the CLI's `repair` drives its session. It checks the accounts, plans the first round from the
 * findings the operator picked, runs a round (each account after the other, Cancel between steps) and
 * hands the session's events and the outcome back on the GUI thread; later rounds are planned by the
 * sessions and confirmed again by the front end.
 *
 * Everything that touches the network runs on `runner`, on a ConnectionSet of the controller's own made
 * from the profile; the results come back through GuiDelivery, the events through a relay that the
 * destructor detaches. It hands data (findings, plans, the sessions' rounds), never sentences: the front
 * end words them. No widgets; GUI thread only. `runner` must outlive the controller (it closes the
 * connections there).
 */
class RepairController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairController)

public:
    /** What the last check said of one account. */
    struct AccountCheck
    {
        QString account; ///< as the session resolved it (the profile user's account when asked for "")
        std::optional<Error> error; ///< the account could not be checked
        std::optional<Error> blocked; ///< why the session may not change anything (read-only, no account credentials)
    };

    RepairController(AsyncRunner &runner, const Profile &profile, QObject *parent = nullptr);
    ~RepairController() override;

    /** Adds an account to repair (empty: the account of the profile's own user), before the first check. */
    void addAccount(const QString &account, const CheckOptions &checkOptions);
    /** The accounts, in the order they were added (an empty name is filled in by the first check). */
    QStringList accounts() const;
    int accountCount() const { return int(m_sessions.size()); }
    /** The session of account `index` (its rounds, report, fixed and remaining findings, probe). */
    const RepairSession &session(int index) const;

    /** Checks every account again; checkFinished() when done. Not while a round runs (false). */
    bool check();
    bool isChecking() const { return m_checking; }
    /** The last check, per account in accounts() order. */
    const QList<AccountCheck> &checks() const { return m_checks; }
    /** The findings of the last check, every account's. */
    QList<Finding> findings() const;

    /**
     * The plans to confirm: before any round ran, each account's first round made from `selected` (the
     * findings of that account among them); after, the rounds the sessions planned themselves.
     */
    QList<RepairPlan> plan(const QList<Finding> &selected);
    /** A round ran in some account. */
    bool anyRoundRan() const;
    /** The number of the round the sessions have planned next (0: none). */
    int pendingRound() const;
    bool hasPendingRound() const;

    /** Runs the pending round of every account that has one, backing up into `backupDir`; false when nothing can run. */
    bool run(const QString &backupDir);
    bool isRunning() const { return m_running; }
    /** Stops a running round between steps (and before the next account). */
    void cancel();
    /** Why the last run could not run a round (the first such account's reason). */
    const std::optional<Error> &runError() const { return m_runError; }
    /** Leaves the planned round of every account unapplied (the front end finished without it). */
    void decline();

Q_SIGNALS:
    void checkFinished();
    /** An event of a running round (step started, backup written, step finished, ...). */
    void repairEvent(const MqttDoctor::RepairEvent &event);
    /** A run ended: the sessions' rounds hold what was done. */
    void runFinished();

private:
    struct CheckOutcome;
    struct RunOutcome;
    void deliverCheck(const CheckOutcome &outcome);

    AsyncRunner &m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<RepairControllerRelay> m_relay;
    QList<std::shared_ptr<RepairSession>> m_sessions;
    QList<AccountCheck> m_checks;
    std::optional<Error> m_runError;
    quint64 m_generation = 0;
    bool m_checking = false;
    bool m_running = false;
};

} // namespace MqttDoctor
