#include "interruptguard.h"

#include <csignal>

namespace MqttDoctor::Cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

} // namespace

InterruptGuard::InterruptGuard(bool alsoTerminate) : m_terminate(alsoTerminate)
{
    g_interrupted.store(false);
    m_previous = std::signal(SIGINT, onInterrupt);
    if (m_terminate)
        m_previousTerminate = std::signal(SIGTERM, onInterrupt);
}

InterruptGuard::~InterruptGuard()
{
    std::signal(SIGINT, m_previous);
    if (m_terminate)
        std::signal(SIGTERM, m_previousTerminate);
}

const std::atomic<bool> &InterruptGuard::flag()
{
    return g_interrupted;
}

} // namespace MqttDoctor::Cli
