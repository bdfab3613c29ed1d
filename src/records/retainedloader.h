#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "mqtt/retainedrecord.h"
#include "nats/streamreader.h"

namespace MqttDoctor {

class JsonStreamWriter;
class NatsConnection;

/** One message of `$MQTT_rmsgs`, decoded (or the reason it could not be). */
struct RetainedEntry
{
    QString storedSubject; ///< "$MQTT.rmsgs" (2.9) or "$MQTT.rmsgs.<subject>"
    quint64 seq = 0;
    QDateTime time;
    qint64 storedBytes = 0; ///< header block + body as stored
    std::optional<RetainedRecord> record; ///< nullopt when undecodable
    QString problem; ///< "undecodable: ..." when record is nullopt
};

/** What a retained load reads and how. */
struct RetainedLoadOptions
{
    QString domain; ///< JetStream domain for the API subjects (empty: none)
    QString filter; ///< RetainedLoader::matches() topic filter; empty: every message
    int batchSize = 1024;
    const std::atomic<bool> *cancel = nullptr;
};

/**
 * Loading the retained MQTT messages of an account from `$MQTT_rmsgs`, both encodings (JSON: 2.9 on the
 * single subject, 2.10 per subject; headers: 2.11+, delete markers included). The stream is a limits
 * stream: read with an ordered consumer, every message (2.9 keeps all retained messages on one
 * subject). Pure functions on any thread; load() blocks (worker thread).
 */
namespace RetainedLoader {

using BatchHandler = std::function<bool(QList<RetainedEntry> &&batch, const ReadProgress &progress)>;

/** Decodes one stored message; never fails. Pure. */
RetainedEntry fromMessage(const StreamMessage &message);
/**
 * The `--filter TOPIC` predicate: empty matches all; a filter with `+` or `#` levels matches topics the
 * way an MQTT subscription does; anything else must equal the topic. Undecodable entries match only an
 * empty filter. Pure.
 */
bool matches(const RetainedEntry &entry, const QString &filter);
/** MQTT topic-filter matching (`+` one level, `#` the rest, including the parent level). Pure. */
bool topicMatches(const QString &filter, const QString &topic);
/** {topic, subject, qos, size, payload_preview, encoding, origin, source, seq, stored_subject, time, delete_marker, problem}. */
QJsonObject toJson(const RetainedEntry &entry);
/** The same JSON written straight to `w` as an element of its current array. */
void writeJson(JsonStreamWriter &w, const RetainedEntry &entry);

/**
 * Reads `$MQTT_rmsgs`, batch by batch, filtered. Worker thread. A missing stream is a NotFound error.
 * The stream is read on a reading thread of the load's own while this thread decodes and calls
 * `onBatch`, in stream order.
 */
Result<ReadSummary> load(const std::shared_ptr<NatsConnection> &account, const RetainedLoadOptions &options, const BatchHandler &onBatch);

} // namespace RetainedLoader
} // namespace MqttDoctor
