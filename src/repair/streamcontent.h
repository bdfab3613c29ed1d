#pragma once

#include <memory>

#include <QJsonObject>
#include <QString>

#include "common/result.h"
#include "nats/streamreader.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Every message of a stream (or of one subject, wildcards allowed), oldest first, the way the safety
 * rules allow: a whole stream by direct gets by sequence (every message, whatever subjects the config
 * lists now); one subject of a limits stream through StreamReader's ordered consumer; interest streams (`$MQTT_msgs`, `$MQTT_out`) never with a consumer (docs/safety.md)
 * but with direct `STREAM.MSG.GET` by sequence (pipelined, in chunks so that batches arrive in
 * sequence order) or, for one subject, `{"seq":N,"next_by_subj":S}` walks. Messages deleted while
 * reading are left out. Blocking: worker thread only. Batches hold strictly increasing sequences.
 */
namespace StreamContent {

/** `config` is the stream's STREAM.INFO config (its retention decides the method). */
Result<ReadSummary> read(const std::shared_ptr<NatsConnection> &connection, const QString &domain, const QString &stream,
                         const QJsonObject &config, const QString &subject, const StreamReader::Options &options,
                         const StreamReader::BatchHandler &onBatch);

/** True for "interest" and "workqueue" retention: read without consumers. */
bool readsWithoutConsumer(const QJsonObject &config);

} // namespace StreamContent

} // namespace MqttDoctor
