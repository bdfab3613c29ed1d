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

InterruptGuard::InterruptGuard()
{
    g_interrupted.store(false);
    m_previous = std::signal(SIGINT, onInterrupt);
}

InterruptGuard::~InterruptGuard()
{
    std::signal(SIGINT, m_previous);
}

const std::atomic<bool> &InterruptGuard::flag()
{
    return g_interrupted;
}

} // namespace MqttDoctor::Cli
