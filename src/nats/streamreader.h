#pragma once

#include <memory>

#include <QJsonObject>
#include <QString>

#include "common/result.h"
#include "nats/streamread.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Reads whole JetStream streams fast and without changing them, for the MQTT state streams.
 *
 * - Limits streams (`$MQTT_sess`, `$MQTT_rmsgs`) are drained with an ordered push consumer (OrderedConsumer:
 *   ephemeral, flow-controlled, deleted when the read ends; never a durable): readLastPerSubject()
 *   or readAll() (2.9's single-subject retained layout).
 * - Interest streams (`$MQTT_msgs`, `$MQTT_out`) are never read with a consumer (docs/safety.md): they
 *   are read by sequence (MessageGetter; StreamIndex says which sequences there are).
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
    using Options = StreamReadOptions;
    using BatchHandler = StreamBatchHandler;

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
    Result<ReadSummary> readLastPerSubject(const QString &stream, const QString &filterSubject, const Options &options,
                                           const BatchHandler &onBatch);
    /**
     * The info (`config` and `state`) of `stream` as the caller just read it (an account snapshot):
     * readLastPerSubject()/readAll() of that stream use it instead of asking STREAM.INFO themselves.
     */
    void setKnownInfo(const QString &stream, const QJsonObject &info);

    /** Every message (e.g. 2.9's retained messages, all on `$MQTT.rmsgs`). Worker thread only. */
    Result<ReadSummary> readAll(const QString &stream, const QString &filterSubject, const Options &options, const BatchHandler &onBatch);

private:
    Result<ReadSummary> readOrdered(const QString &stream, const QString &filterSubject, bool lastPerSubject, const Options &options,
                                    const BatchHandler &onBatch);

    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
    QString m_knownStream;
    QJsonObject m_knownInfo;
};

} // namespace MqttDoctor
