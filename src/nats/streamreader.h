#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * One message as stored in a stream, as Qt values (no nats.c object survives the read). The fields
 * match the record decoders' input (mqtt/storedmessage.h: subject, seq, raw header block, data), so
 * a loader converts without copying bytes (QByteArray is implicitly shared).
 */
struct StreamMessage
{
    QString subject;
    quint64 sequence = 0;
    qint64 timeNs = 0;   ///< store time, nanoseconds since the Unix epoch (UTC)
    /**
     * The raw header block (`NATS/1.0\r\nKey:Value\r\n\r\n`), empty when the message has none.
     * The stored block byte for byte (from the ordered reads: as delivered, read without nats.c
     * parsing it; rebuilt from nats.c's parsed headers only if the raw block is not reachable, where an
     * empty stored block reads as none).
     */
    QByteArray headers;
    QByteArray data;
    /** Only from StreamReader::getBySequences(): the sequence is gone (10037 "no message found"). */
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
    quint64 delivered = 0;     ///< messages handed to the batch handler (deleted ones included)
    quint64 deleted = 0;       ///< getBySequences(): sequences answered with "no message found"
    quint64 lastSequence = 0;  ///< highest stream sequence seen
    bool cancelled = false;    ///< stopped early by the cancel flag or by the handler returning false
};

/** A subject and how many messages the stream holds on it (from `STREAM.INFO` `subjects_filter`). */
struct SubjectCount
{
    QString subject;
    quint64 messages = 0;
};

/** The sequence range of a stream and the deleted sequences inside it (`STREAM.INFO` `deleted_details`). */
struct SequenceMap
{
    quint64 messages = 0;
    quint64 firstSequence = 0;
    quint64 lastSequence = 0;
    QList<quint64> deleted;  ///< sorted
    /** The live sequences: firstSequence..lastSequence without the deleted ones. */
    QList<quint64> liveSequences() const;
};

/**
 * Reads whole JetStream streams fast and without changing them, for the MQTT state streams.
 *
 * - Limits streams (`$MQTT_sess`, `$MQTT_rmsgs`) are drained with an ordered push consumer (an ephemeral,
 *   flow-controlled consumer that nats.c deletes on unsubscribe; never a durable): readLastPerSubject()
 *   or readAll() (2.9's single-subject retained layout).
 * - Interest streams (`$MQTT_msgs`, `$MQTT_out`) are never read with a consumer (docs/safety.md):
 *   getBySequences() sends raw `STREAM.MSG.GET` `{"seq":N}` requests, many in flight at once;
 *   sequenceMap() and subjectCounts() enumerate what to ask for.
 *
 * Every member function blocks (network I/O) and must run on a worker thread, never the GUI thread.
 * One StreamReader may be used by one thread at a time; separate readers on the same connection may
 * run in parallel. The batch handler is called on the calling thread; it may return false to stop.
 * The cancel flag may be set from any thread; a read notices it within about 100 ms.
 * The JetStream domain (empty: none) prefixes every API subject (`$JS.<domain>.API.*`).
 */
class StreamReader final
{
public:
    using BatchHandler = std::function<bool(QList<StreamMessage> &&batch, const ReadProgress &progress)>;

    struct Options
    {
        int batchSize = 1024;             ///< messages per handler call (the last batch may be smaller)
        int idleTimeoutMs = 10000;        ///< error if the server delivers nothing for this long mid-read
        int inFlight = 256;               ///< getBySequences(): requests outstanding at once
        const std::atomic<bool> *cancel = nullptr;  ///< set to true (any thread) to stop early
    };

    explicit StreamReader(std::shared_ptr<NatsConnection> connection, QString domain = {});
    ~StreamReader();
    StreamReader(const StreamReader &) = delete;
    StreamReader &operator=(const StreamReader &) = delete;

    /**
     * The last message of every subject matching `filterSubject` (empty: the whole stream), oldest
     * first, in batches. Ends when the consumer reports nothing pending. A stream whose config keeps
     * one message per subject is read with DeliverAll (same messages, no per-subject start scan on
     * the server). Worker thread only.
     */
    Result<ReadSummary> readLastPerSubject(const QString &stream, const QString &filterSubject,
                                           const Options &options, const BatchHandler &onBatch);
    /**
     * The info (`config` and `state`) of `stream` as the caller just read it (an account snapshot):
     * readLastPerSubject()/readAll() of that stream use it instead of asking STREAM.INFO themselves.
     */
    void setKnownInfo(const QString &stream, const QJsonObject &info);

    /** Every message (e.g. 2.9's retained messages, all on `$MQTT.rmsgs`). Worker thread only. */
    Result<ReadSummary> readAll(const QString &stream, const QString &filterSubject, const Options &options,
                                const BatchHandler &onBatch);

    /**
     * Raw `STREAM.MSG.GET` by sequence, pipelined over one wildcard reply subscription. A missing
     * sequence (10037) is delivered as a StreamMessage with `deleted` set. Batches hold replies sorted
     * by sequence within the batch. Never creates a consumer. Worker thread only.
     */
    Result<ReadSummary> getBySequences(const QString &stream, const QList<quint64> &sequences,
                                       const Options &options, const BatchHandler &onBatch);

    /** First/last sequence and deleted sequences (one `STREAM.INFO`). Worker thread only. */
    Result<SequenceMap> sequenceMap(const QString &stream);
    /**
     * Every subject matching `filter` with its message count (`STREAM.INFO` `subjects_filter`, paged
     * with `offset` beyond the server's 100,000 subjects per reply). Worker thread only.
     */
    Result<QList<SubjectCount>> subjectCounts(const QString &stream, const QString &filter = QStringLiteral(">"));

    /**
     * One raw `STREAM.MSG.GET` reply body for `sequence` of `stream`: the message, one marked `deleted` for "no
     * message found" (10037), or the error (a JetStream error reply, or a Protocol error for a reply of the wrong
     * shape or for another sequence). Pure and total (fuzzed): any thread, any bytes.
     */
    static Result<StreamMessage> parseMessageGetReply(const QByteArray &payload, const QString &stream, quint64 sequence);
    /**
     * Parses RFC 3339 with up to nanoseconds ("2026-12-02T15:50:37.344798216Z") to ns since epoch
     * (Rfc3339Time::parseNs); 0 when it is not one. Any thread.
     */
    static qint64 parseTimeNs(const QString &rfc3339);

private:
    Result<ReadSummary> readOrdered(const QString &stream, const QString &filterSubject, bool lastPerSubject,
                                    const Options &options, const BatchHandler &onBatch);

    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
    QString m_knownStream;
    QJsonObject m_knownInfo;
};

} // namespace MqttDoctor
