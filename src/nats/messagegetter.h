#pragma once

#include <memory>

#include <QByteArray>
#include <QList>
#include <QString>

#include "common/result.h"
#include "nats/streamread.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Reads messages of a stream by sequence with raw `STREAM.MSG.GET` `{"seq":N}` requests, many in
 * flight at once over one wildcard reply subscription: never a consumer. This is how the interest
 * streams (`$MQTT_msgs`, `$MQTT_out`) are read, whose messages a consumer could take away
 * (docs/safety.md); StreamIndex says which sequences there are.
 *
 * getBySequences() blocks and must run on a worker thread; one getter may be used by one thread at a
 * time. The batch handler is called on the calling thread. The JetStream domain (empty: none)
 * prefixes every API subject (`$JS.<domain>.API.*`).
 */
class MessageGetter final
{
public:
    using Options = StreamReadOptions;
    using BatchHandler = StreamBatchHandler;

    explicit MessageGetter(std::shared_ptr<NatsConnection> connection, QString domain = {});

    /**
     * The messages at `sequences`. A missing sequence (10037) is delivered as a StreamMessage with
     * `deleted` set. Batches hold replies sorted by sequence within the batch. Worker thread only.
     */
    Result<ReadSummary> getBySequences(const QString &stream, const QList<quint64> &sequences, const Options &options,
                                       const BatchHandler &onBatch);

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
    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
};

} // namespace MqttDoctor
