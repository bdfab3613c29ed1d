#pragma once

#include <QFuture>
#include <functional>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace MqttDoctor {

/**
 * A private worker pool for blocking core calls (connect, requests). The GUI thread hands work to
 * run() and continues with the returned QFuture; it never waits on the network itself.
 * run() may be called from any thread; shutdown() from the owner's thread.
 */
class AsyncRunner final
{
public:
    /** `priority`: of the pool's threads (background work that must never compete with the GUI: lowest). */
    explicit AsyncRunner(int maxThreads = 4, QThread::Priority priority = QThread::InheritPriority);
    ~AsyncRunner();
    AsyncRunner(const AsyncRunner &) = delete;
    AsyncRunner &operator=(const AsyncRunner &) = delete;

    template<typename Fn>
    auto run(Fn &&fn)
    {
        return QtConcurrent::run(&m_pool, std::forward<Fn>(fn));
    }

    /**
     * Drops queued work, then runs `last` (if any) on a pool thread, and waits for it and the running
     * work (bounded by the nats timeouts). `last` is where an owner drops what must not be freed on
     * its own thread (connections, whose closing waits for nats.c's threads).
     */
    void shutdown(std::function<void()> last = {});

private:
    QThreadPool m_pool;
};

} // namespace MqttDoctor
