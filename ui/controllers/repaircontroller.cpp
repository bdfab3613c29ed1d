#include "repaircontroller.h"

#include <QMutex>
#include <QMutexLocker>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "nats/connectionset.h"
#include "repair/repairsession.h"

namespace MqttDoctor {

/**
 * Carries the sessions' events from the worker to the controller. The worker posts under the mutex while
 * the controller is attached; the controller's destructor detaches under the same mutex, so a post never
 * targets a destroyed controller.
 */
struct RepairControllerRelay
{
    QMutex mutex;
    RepairController *controller = nullptr;
};

struct RepairController::CheckOutcome
{
    QList<std::optional<Error>> errors; ///< per account, in m_sessions order
};

struct RepairController::RunOutcome
{
    std::optional<Error> error;
};

RepairController::RepairController(AsyncRunner &runner, const Profile &profile, QObject *parent)
    : QObject(parent), m_runner(runner), m_connections(std::make_shared<ConnectionSet>(profile)),
      m_cancel(std::make_shared<std::atomic<bool>>(false)), m_relay(std::make_shared<RepairControllerRelay>())
{
    m_relay->controller = this;
}

RepairController::~RepairController()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->controller = nullptr;
    }
    m_cancel->store(true);
    // Closing nats.c connections waits for their threads: never on the GUI thread. The sessions go first:
    // they hold the repair targets' connections and refer to the connection set. A round still running
    // holds its sessions too and ends at the next step (cancelled).
    static_cast<void>(m_runner.run([sessions = std::move(m_sessions), connections = std::move(m_connections)]() mutable {
        sessions.clear();
        connections.reset();
    }));
}

void RepairController::addAccount(const QString &account, const CheckOptions &checkOptions)
{
    RepairSession::Options options;
    options.account = account;
    options.checkOptions = checkOptions;
    options.cancel = m_cancel.get();
    m_sessions.append(std::make_shared<RepairSession>(*m_connections, options));
    m_checks.append({account, std::nullopt, std::nullopt});
}

QStringList RepairController::accounts() const
{
    QStringList out;
    for (const AccountCheck &c : m_checks)
        out << c.account;
    return out;
}

const RepairSession &RepairController::session(int index) const
{
    return *m_sessions.at(index);
}

bool RepairController::check()
{
    if (m_running)
        return false;
    const quint64 generation = ++m_generation;
    m_checking = true;
    auto work = m_runner.run([sessions = m_sessions, connections = m_connections]() -> CheckOutcome {
        CheckOutcome out;
        for (const std::shared_ptr<RepairSession> &session : sessions) {
            auto checked = session->check();
            out.errors << (checked ? std::nullopt : std::optional<Error>(checked.error()));
        }
        return out;
    });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const CheckOutcome &out) { deliverCheck(out); });
    return true;
}

void RepairController::deliverCheck(const CheckOutcome &outcome)
{
    m_checking = false;
    for (qsizetype i = 0; i < m_sessions.size(); ++i) {
        const RepairSession &session = *m_sessions.at(i);
        AccountCheck &c = m_checks[i];
        if (c.account.isEmpty())
            c.account = session.account();
        c.error = outcome.errors.value(i);
        c.blocked = c.error ? std::nullopt : session.blocked();
    }
    emit checkFinished();
}

QList<Finding> RepairController::findings() const
{
    QList<Finding> out;
    for (qsizetype i = 0; i < m_sessions.size(); ++i)
        if (!m_checks.at(i).error)
            out += m_sessions.at(i)->findings();
    return out;
}

bool RepairController::anyRoundRan() const
{
    for (const std::shared_ptr<RepairSession> &s : m_sessions)
        if (!s->rounds().isEmpty())
            return true;
    return false;
}

QList<RepairPlan> RepairController::plan(const QList<Finding> &selected)
{
    QList<RepairPlan> plans;
    const bool ran = anyRoundRan();
    for (qsizetype i = 0; i < m_sessions.size(); ++i) {
        RepairSession &session = *m_sessions.at(i);
        if (!ran) {
            QList<Finding> mine;
            for (const Finding &f : selected)
                if (f.account == m_checks.at(i).account || (f.account.isEmpty() && m_sessions.size() == 1))
                    mine << f;
            session.planFirstRound(mine);
        }
        if (session.hasPendingRound())
            plans << session.pendingPlan();
    }
    return plans;
}

int RepairController::pendingRound() const
{
    int round = 0;
    for (const std::shared_ptr<RepairSession> &s : m_sessions)
        if (s->hasPendingRound())
            round = std::max(round, s->pendingRound());
    return round;
}

bool RepairController::hasPendingRound() const
{
    return pendingRound() > 0;
}

bool RepairController::run(const QString &backupDir)
{
    if (m_running || m_checking)
        return false;
    QList<std::shared_ptr<RepairSession>> sessions;
    for (const std::shared_ptr<RepairSession> &s : std::as_const(m_sessions)) {
        s->setBackupDir(backupDir);
        if (s->hasPendingRound())
            sessions << s;
    }
    if (sessions.isEmpty())
        return false;
    m_running = true;
    m_runError.reset();
    m_cancel->store(false);
    RepairSession::EventHandler events = [relay = m_relay](const RepairEvent &event) {
        const QMutexLocker lock(&relay->mutex);
        if (RepairController *controller = relay->controller)
            GuiDelivery::post(controller, [controller, event] { emit controller->repairEvent(event); });
    };
    auto work = m_runner.run([sessions, connections = m_connections, cancel = m_cancel, events]() -> RunOutcome {
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
    // A run is never superseded (check() waits for it): delivered under the current generation.
    GuiDelivery::whenReady(std::move(work), this, m_generation, m_generation, [this](const RunOutcome &out) {
        m_running = false;
        m_runError = out.error;
        emit runFinished();
    });
    return true;
}

void RepairController::cancel()
{
    if (m_running)
        m_cancel->store(true);
}

void RepairController::decline()
{
    for (const std::shared_ptr<RepairSession> &s : std::as_const(m_sessions))
        s->decline();
}

} // namespace MqttDoctor
