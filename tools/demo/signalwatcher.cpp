#include "signalwatcher.h"

#include <atomic>
#include <csignal>

namespace MqttDoctor::Demo {

namespace {

std::atomic<int> s_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

constexpr int WatchedSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void storeSignal(int signalNumber)
{
    s_signal.store(signalNumber);
}

} // namespace

SignalWatcher::SignalWatcher(QObject *parent) : QObject(parent)
{
    struct sigaction action
    {};
    action.sa_handler = storeSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signalNumber : WatchedSignals)
        ::sigaction(signalNumber, &action, nullptr);

    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &SignalWatcher::poll);
    m_timer.start();
}

SignalWatcher::~SignalWatcher()
{
    for (const int signalNumber : WatchedSignals)
        ::signal(signalNumber, SIG_DFL);
}

int SignalWatcher::pendingSignal()
{
    return s_signal.load();
}

void SignalWatcher::poll()
{
    const int signalNumber = s_signal.load();
    if (signalNumber != 0 && !m_reported) {
        m_reported = true;
        Q_EMIT terminationRequested(signalNumber);
    }
}

} // namespace MqttDoctor::Demo
