#pragma once

#include <QFuture>
#include <QList>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>

#include "nats/streamreader.h"

namespace MqttDoctor {

/**
 * Decodes the batches of a StreamReader read on a worker thread (two with four or more cores) while
 * the reading thread goes on reading, and hands the results back on the reading thread in stream order (internal to the loaders).
 * `decode` must be pure on const inputs (it runs on the worker); `deliver` runs on the thread that calls
 * push()/finish() and returns false to stop. Batches read ahead of a stop are dropped, and
 * adjust() makes the read's summary say what it would have said for an inline decode (delivered,
 * last sequence and cancelled up to the batch that stopped). At most `maxQueued` batches wait for the
 * worker (bounds the memory of undecoded messages). The destructor waits for the worker.
 */
template<typename Decoded>
class DecodePipeline final
{
public:
    using Decode = std::function<Decoded(const QList<StreamMessage> &batch)>;
    using Deliver = std::function<bool(Decoded &&decoded, const ReadProgress &progress)>;

    DecodePipeline(Decode decode, Deliver deliver) : m_decode(std::move(decode)), m_deliver(std::move(deliver))
    {
        // One worker, two where there are cores to spare: reading (and, on a server's own machine,
        // the server) needs the rest.
        m_pool.setMaxThreadCount(QThread::idealThreadCount() >= 4 ? 2 : 1);
    }
    ~DecodePipeline() { m_pool.waitForDone(); }
    DecodePipeline(const DecodePipeline &) = delete;
    DecodePipeline &operator=(const DecodePipeline &) = delete;

    /** The StreamReader batch handler: queues the batch; false once a delivery stopped. */
    bool push(QList<StreamMessage> &&batch, const ReadProgress &progress)
    {
        Item item;
        item.progress = progress;
        item.messages = quint64(batch.size());
        for (const StreamMessage &m : batch)
            item.lastSequence = std::max(item.lastSequence, m.sequence);
        // The messages stay owned here and are freed on this thread (they were allocated here: a free
        // on the worker would take this thread's allocator lock while it reads on).
        item.batch = std::make_unique<const QList<StreamMessage>>(std::move(batch));
        item.future = QtConcurrent::run(&m_pool, [decode = &m_decode, messages = item.batch.get()] { return (*decode)(*messages); });
        m_queue.push_back(std::move(item));
        collect(false);
        while (m_queue.size() > maxQueued && !m_stopped) {
            m_queue.front().future.waitForFinished();
            collect(false);
        }
        return !m_stopped;
    }

    /** Hands over everything still queued (after the read ended or failed). */
    void finish() { collect(true); }

    /** Makes `summary` describe the read up to the delivery that stopped it (no change without a stop). */
    void adjust(ReadSummary &summary) const
    {
        if (!m_stopped)
            return;
        summary.delivered = m_delivered;
        summary.lastSequence = m_lastSequence;
        summary.cancelled = !m_stopWasLast;
    }

private:
    static constexpr size_t maxQueued = 4;

    struct Item
    {
        QFuture<Decoded> future;
        std::unique_ptr<const QList<StreamMessage>> batch;  // read by the worker until `future` is finished
        ReadProgress progress;
        quint64 messages = 0;
        quint64 lastSequence = 0;
    };

    void collect(bool wait)
    {
        while (!m_queue.empty() && (wait || m_queue.front().future.isFinished())) {
            Item item = std::move(m_queue.front());
            m_queue.pop_front();
            Decoded decoded = item.future.takeResult();
            if (m_stopped)
                continue;  // read ahead of the stop: dropped, as if never read
            m_delivered += item.messages;
            m_lastSequence = std::max(m_lastSequence, item.lastSequence);
            if (!m_deliver(std::move(decoded), item.progress)) {
                m_stopped = true;
                // StreamReader does not count a stop on the last batch as a cancel.
                m_stopWasLast = item.progress.total != 0 && item.progress.done >= item.progress.total;
            }
        }
    }

    Decode m_decode;
    Deliver m_deliver;
    std::deque<Item> m_queue;
    bool m_stopped = false;
    bool m_stopWasLast = false;
    quint64 m_delivered = 0;
    quint64 m_lastSequence = 0;
    QThreadPool m_pool;  // last: destroyed first, after waitForDone()
};

} // namespace MqttDoctor
