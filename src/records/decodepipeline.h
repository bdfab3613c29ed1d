#pragma once

#include <QList>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "common/result.h"
#include "nats/streamreader.h"

namespace MqttDoctor {

/**
 * Reads a stream on a reading thread of the pipeline's own while the calling thread decodes the batches
 * and hands them over in stream order (internal to the loaders).
 *
 * `handle` (decode a batch and deliver it) runs on the calling thread: the entries are allocated where
 * the caller lives (the CLI's main thread: glibc's main heap, which grows in large steps; a thread arena
 * grows one mprotect() per page). The reading thread makes the messages and frees them again once they
 * are handled (freed where they were allocated: no allocator lock shared across threads for them). At
 * most `maxQueued` batches wait (bounds the memory of unhandled messages).
 *
 * `handle` returns false to stop: the read stops at its next batch, batches read ahead of the stop are
 * dropped, and the summary says what an inline decode would have said (delivered, last sequence, and
 * cancelled unless the stop came with the last batch). A read that fails hands over what it read before
 * the failure first, then returns the error.
 */
class DecodePipeline final
{
public:
    /** The read to run on the reading thread: calls the handler per batch (StreamReader's read functions). */
    using Read = std::function<Result<ReadSummary>(const StreamReader::BatchHandler &onBatch)>;
    /** Decodes and delivers one batch; false to stop. */
    using Handle = std::function<bool(const QList<StreamMessage> &batch, const ReadProgress &progress)>;

    explicit DecodePipeline(Handle handle) : m_handle(std::move(handle)) {}
    DecodePipeline(const DecodePipeline &) = delete;
    DecodePipeline &operator=(const DecodePipeline &) = delete;

    /** Runs `read` on the reading thread and handles its batches here; returns when the read has ended. Once. */
    Result<ReadSummary> run(const Read &read)
    {
        std::thread reading([this, &read] {
            Result<ReadSummary> result =
                read([this](QList<StreamMessage> &&batch, const ReadProgress &progress) { return enqueue(std::move(batch), progress); });
            std::lock_guard<std::mutex> lock(m_mutex);
            m_result.emplace(std::move(result));
            m_cond.notify_all();
        });
        for (;;) {
            Item item;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_cond.wait(lock, [this] { return !m_queue.empty() || m_result.has_value(); });
                if (m_queue.empty())
                    break; // the read ended and everything it read is handled
                item = std::move(m_queue.front());
                m_queue.pop_front();
                m_cond.notify_all(); // room for the reading thread
            }
            handle(item);
            std::lock_guard<std::mutex> lock(m_mutex);
            m_spent.push_back(std::move(item.batch)); // freed by the reading thread at its next batch
        }
        reading.join();
        m_spent.clear();
        Result<ReadSummary> result = std::move(*m_result);
        if (result && m_stopped) {
            result->delivered = m_delivered;
            result->lastSequence = m_lastSequence;
            result->cancelled = !m_stopWasLast;
        }
        return result;
    }

private:
    static constexpr size_t maxQueued = 4;

    struct Item
    {
        QList<StreamMessage> batch;
        ReadProgress progress;
    };

    // Reading thread: waits for room, queues the batch, frees the batches decoded meanwhile.
    bool enqueue(QList<StreamMessage> &&batch, const ReadProgress &progress)
    {
        std::vector<QList<StreamMessage>> spent; // destroyed last: after the lock is released
        std::unique_lock<std::mutex> lock(m_mutex);
        m_cond.wait(lock, [this] { return m_queue.size() < maxQueued || m_stopped; });
        spent.swap(m_spent);
        if (m_stopped)
            return false;
        m_queue.push_back(Item{std::move(batch), progress});
        m_cond.notify_all();
        return true;
    }

    // Calling thread: one batch (none after a stop: read ahead, dropped). m_stopped is written only here.
    void handle(const Item &item)
    {
        if (m_stopped)
            return;
        m_delivered += quint64(item.batch.size());
        for (const StreamMessage &m : item.batch)
            m_lastSequence = std::max(m_lastSequence, m.sequence);
        if (!m_handle(item.batch, item.progress)) {
            // StreamReader does not count a stop on the last batch as a cancel.
            m_stopWasLast = item.progress.total != 0 && item.progress.done >= item.progress.total;
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stopped = true;
            m_cond.notify_all();
        }
    }

    Handle m_handle;
    std::mutex m_mutex;
    std::condition_variable m_cond;
    // Guarded by m_mutex (m_stopped: written under it by the calling thread, which also reads it without):
    std::deque<Item> m_queue;
    std::vector<QList<StreamMessage>> m_spent;
    std::optional<Result<ReadSummary>> m_result;
    bool m_stopped = false;
    // Calling thread only:
    bool m_stopWasLast = false;
    quint64 m_delivered = 0;
    quint64 m_lastSequence = 0;
};

} // namespace MqttDoctor
