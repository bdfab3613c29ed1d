#pragma once

#include <QFuture>
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

    /** Drops queued work and waits for running work (bounded by the nats timeouts). */
    void shutdown();

private:
    QThreadPool m_pool;
};

} // namespace MqttDoctor
