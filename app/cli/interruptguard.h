#pragma once

#include <atomic>

namespace MqttDoctor::Cli {

/**
 * Ctrl-C while a command runs: from construction to destruction SIGINT only raises a flag the command
 * polls (a backup or restore stops cleanly, `events` and `check --watch` end with their summary);
 * the previous handler is put back afterwards. One at a time (the flag is the process's).
 */
class InterruptGuard
{
public:
    /** `alsoTerminate`: SIGTERM too (a service stopped by systemd ends its round cleanly). */
    explicit InterruptGuard(bool alsoTerminate = false);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

    /** Ctrl-C was pressed since the guard was made. */
    bool raised() const { return flag().load(); }
    /** The flag itself, for the core's cancel options. */
    static const std::atomic<bool> &flag();

private:
    using Handler = void (*)(int);
    Handler m_previous;
    Handler m_previousTerminate = nullptr;
    bool m_terminate = false;
};

} // namespace MqttDoctor::Cli
