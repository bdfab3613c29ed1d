#pragma once

#include <atomic>
#include <functional>

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace MqttDoctor {

/**
 * One message as stored in a stream, as Qt values (no nats.c object survives the read). The fields
 * match the record decoders' input (mqtt/storedmessage.h: subject, seq, raw header block, data), so
 * a loader converts without copying bytes (QByteArray is implicitly shared).
 */
struct StreamMessage
{
    QString subject;
    quint64 sequence = 0;
    qint64 timeNs = 0; ///< store time, nanoseconds since the Unix epoch (UTC)
    /**
     * The raw header block (`NATS/1.0\r\nKey:Value\r\n\r\n`), empty when the message has none.
     * The stored block byte for byte (from the ordered reads: as delivered, read without nats.c
     * parsing it; rebuilt from nats.c's parsed headers only if the raw block is not reachable, where an
     * empty stored block reads as none).
     */
    QByteArray headers;
    QByteArray data;
    /** Only from MessageGetter::getBySequences(): the sequence is gone (10037 "no message found"). */
    bool deleted = false;

    QDateTime time() const { return QDateTime::fromMSecsSinceEpoch(timeNs / 1000000, Qt::UTC); }
};

/** How far a read is: `done` messages handed over of about `total` (0 while unknown). */
struct ReadProgress
{
    quint64 done = 0;
    quint64 total = 0;
};

/** How a read ended. A cancel is not an error: `cancelled` is set and `delivered` says how far it got. */
struct ReadSummary
{
    quint64 delivered = 0; ///< messages handed to the batch handler (deleted ones included)
    quint64 deleted = 0; ///< MessageGetter: sequences answered with "no message found"
    quint64 lastSequence = 0; ///< highest stream sequence seen
    bool cancelled = false; ///< stopped early by the cancel flag or by the handler returning false
};

/**
 * How a read of stream messages (StreamReader, MessageGetter) runs. The cancel flag may be set from any
 * thread; a read notices it within `PollMs`.
 */
struct StreamReadOptions
{
    static constexpr int PollMs = 100; ///< how long a read waits for the next message before it looks at the cancel flag

    int batchSize = 1024; ///< messages per handler call (the last batch may be smaller)
    int idleTimeoutMs = 10000; ///< error if the server delivers nothing for this long mid-read
    int inFlight = 256; ///< MessageGetter: requests outstanding at once
    const std::atomic<bool> *cancel = nullptr; ///< set to true (any thread) to stop early

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

/** Receives a read's messages in batches, on the reading thread; returns false to stop the read. */
using StreamBatchHandler = std::function<bool(QList<StreamMessage> &&batch, const ReadProgress &progress)>;

} // namespace MqttDoctor
