#pragma once

#include <atomic>
#include <memory>

#include <QString>

#include "common/result.h"
#include "mqtt/topicmapping.h"
#include "records/accountinflight.h"
#include "records/qos2records.h"
#include "records/sessioninflight.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Reads what is in flight (docs/cli.md, `session` and `inflight`) with message gets only:
 * `STREAM.MSG.GET` `{"seq": N, "next_by_subj": filter}` walks from a durable's ack floor on, matching
 * its filter, `CONSUMER.INFO`/`CONSUMER.LIST` for the durables' sequences, `STREAM.INFO`
 * `subjects_filter` for counts. Never creates a consumer and never changes a stream: browsing leaves
 * message counts and consumer lists as they were (the interest streams `$MQTT_msgs` and `$MQTT_out`
 * would otherwise keep or drop messages for it). Every function blocks: worker thread only.
 */
namespace InflightReader {

struct Options
{
    QString domain; ///< JetStream API domain (empty: none)
    QString sessionDomain; ///< the domain token of `$MQTT.sess.<domain>.<hash>`
    TopicMapping::Dialect dialect = TopicMapping::Dialect::V2_10;
    int limit = 100; ///< the first N of each kind per session (0: all)
    const std::atomic<bool> *cancel = nullptr;
};

/** The messages in flight of one decoded session (its record's durables, client ID and hash). */
Result<SessionInflight> readSession(const std::shared_ptr<NatsConnection> &account, const SessionEntry &entry, const Options &options);

/** Every record of `$MQTT_qos2in` and `$MQTT_out` (a missing stream holds none: `qos2InExists`/`outExists`). */
Result<Qos2Records> readQos2Records(const std::shared_ptr<NatsConnection> &account, const Options &options);

/**
 * The account's sessions with something in flight and the QoS 2 records without a session. The
 * sessions come from `$MQTT_sess`'s subjects (a 10059 error when it does not exist), each session's
 * record is read only when it has something in flight.
 */
Result<AccountInflight> readAccount(const std::shared_ptr<NatsConnection> &account, const QString &accountName, const Options &options);

/** The note for missing QoS 2 streams: 2.9 servers have none, else which stream is missing. */
QString missingQos2StreamsNote(TopicMapping::Dialect dialect, bool qos2InExists, bool outExists);

} // namespace InflightReader
} // namespace MqttDoctor
