#pragma once

#include <QObject>
#include <QString>

#include "common/error.h"
#include "nats/profile.h"

namespace MqttDoctor {

class AsyncRunner;

/**
 * "Test connection": opens the profile's connections on the worker pool (the default one, and the
 * system one when given), asks for the servers, and reports one line. Never blocks the caller; a
 * newer test or cancel() makes an older result disappear. GUI thread only.
 */
class ConnectionTester final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionTester)

public:
    /** runner must outlive the tester's running tests (the ClusterController's pool does). */
    explicit ConnectionTester(AsyncRunner &runner, QObject *parent = nullptr);
    ~ConnectionTester() override;

    void test(const Profile &profile);
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void runningChanged(bool running);
    /** What was reached: "Connected to nats://... (gui1, nats-server 2.9.10) ..." */
    void succeeded(const QString &summary);
    void failed(const MqttDoctor::Error &error);

private:
    void setRunning(bool running);

    AsyncRunner &m_runner;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace MqttDoctor
