#include "accounttaskcontroller.h"

#include "common/asyncrunner.h"
#include "nats/connectionset.h"

namespace MqttDoctor {

AccountTaskController::AccountTaskController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account,
                                             QObject *parent)
    : QObject(parent), m_runner(runner), m_connections(std::move(connections)), m_account(std::move(account))
{}

AccountTaskController::~AccountTaskController()
{
    ++m_generation;
    // The last reference to the connections may close them, which waits for their threads: never on the GUI thread.
    if (m_connections)
        static_cast<void>(m_runner.run([connections = std::move(m_connections)]() mutable { connections.reset(); }));
}

quint64 AccountTaskController::begin()
{
    setRunning(true);
    return ++m_generation;
}

void AccountTaskController::cancel()
{
    ++m_generation;
    setRunning(false);
}

void AccountTaskController::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace MqttDoctor
