#pragma once

#include <QSemaphore>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace MqttDoctor::Test {

/**
 * Holds the global pool's only thread, so a model's worker jobs wait until release() and then run
 * one after the other: what happens "while the worker sorts / matches" is then certain, not a race.
 */
class PoolBlocker
{
public:
    PoolBlocker() : m_oldMax(QThreadPool::globalInstance()->maxThreadCount())
    {
        QThreadPool::globalInstance()->waitForDone();
        QThreadPool::globalInstance()->setMaxThreadCount(1);
        static_cast<void>(QtConcurrent::run([this] { m_gate.acquire(); }));
    }
    ~PoolBlocker()
    {
        release();
        QThreadPool::globalInstance()->waitForDone();
        QThreadPool::globalInstance()->setMaxThreadCount(m_oldMax);
    }
    PoolBlocker(const PoolBlocker &) = delete;
    PoolBlocker &operator=(const PoolBlocker &) = delete;

    void release()
    {
        if (!m_released)
            m_gate.release();
        m_released = true;
    }

private:
    QSemaphore m_gate;
    int m_oldMax;
    bool m_released = false;
};

} // namespace MqttDoctor::Test
