#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * What the controllers of one account's one-off task (an upgrade check, an MQTT probe) share: the
 * cluster's worker pool and connections, the account, whether a task runs, and the generation that
 * drops the result of a task replaced by a newer one or cancelled. The connections are let go on the
 * pool (closing them waits for nats.c's threads). No widgets; GUI thread only.
 */
class AccountTaskController : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountTaskController)

public:
    ~AccountTaskController() override;

    /** Drops the running task's result. */
    void cancel();
    bool isRunning() const { return m_running; }
    const QString &account() const { return m_account; }

Q_SIGNALS:
    void runningChanged(bool running);

protected:
    /**
     * `runner` (the ClusterController's pool) must outlive the controller's running tasks; `connections`
     * is the cluster's connection set (null: not connected), kept until the controller goes.
     */
    AccountTaskController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent);

    /** A task starts: the generation its result must still have when it arrives. */
    quint64 begin();
    /** The task of `generation` ended (its result is delivered only if it is still current). */
    void end() { setRunning(false); }

    AsyncRunner &m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    QString m_account;
    quint64 m_generation = 0;

private:
    void setRunning(bool running);

    bool m_running = false;
};

} // namespace MqttDoctor
