#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace MqttDoctor {

/**
 * Calls fn(i) for every i in [0, count) on at most `parallel` threads of its own, and returns when
 * every call has returned. For blocking work over many items (one account after another with a
 * bounded number of connections at once). fn must be safe to call from several threads at once.
 * Plain threads, started and joined here, rather than a QThreadPool: the hand-over is then visible to
 * ThreadSanitizer, which cannot see the pool's synchronisation inside an uninstrumented Qt.
 * Blocking: call on a worker thread.
 */
template<typename Fn>
void parallelFor(int count, int parallel, Fn fn)
{
    if (count <= 0)
        return;
    const int threads = std::clamp(parallel, 1, count);
    std::atomic<int> next{0};
    const auto work = [&next, count, &fn] {
        for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1))
            fn(i);
    };
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads - 1));
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work(); // the calling thread takes its share
    for (std::thread &t : pool)
        t.join();
}

} // namespace MqttDoctor
