#pragma once

#include <algorithm>
#include <atomic>

#include <QThreadPool>

namespace MqttDoctor {

/**
 * Calls fn(i) for every i in [0, count) on at most `parallel` threads of a private pool, and returns
 * when every call has returned. For blocking work over many items (one account after another with a
 * bounded number of connections at once). fn must be safe to call from several threads at once.
 * Blocking: call on a worker thread.
 */
template<typename Fn>
void parallelFor(int count, int parallel, Fn fn)
{
    if (count <= 0)
        return;
    const int threads = std::clamp(parallel, 1, count);
    QThreadPool pool;
    pool.setMaxThreadCount(threads);
    std::atomic<int> next{0};
    for (int t = 0; t < threads; ++t)
        pool.start([&next, count, &fn] {
            for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1))
                fn(i);
        });
    pool.waitForDone();
}

} // namespace MqttDoctor
