#pragma once

// Test data of the benchmarks and of tst_streamedoutput (fill of a local server, expected consumer index).

#include <nats/nats.h>

#include <QByteArray>
#include <QList>

#include <memory>

#include "nats/natsconnection.h"
#include "records/sessionloader.h"

namespace MqttDoctor::BenchData {

inline constexpr const char *User = "acme";
inline constexpr const char *Password = "acmepass";

/** The durable that session record `i` names. */
QByteArray durableOf(const QByteArray &hash, int i);
/** Session record `i` (~300 bytes, one QoS 1 subscription and its durable). */
QByteArray sessionRecord(const QByteArray &clientId, const QByteArray &hash, int i);
/** Prints a failed call; true on NATS_OK. */
bool check(natsStatus s, const char *what);
/** A raw nats.c connection as the benchmark's user. */
natsConnection *rawConnect(const QByteArray &url);
/** Our connection (NatsConnection) as the benchmark's user; null (the error printed) when it fails. */
std::shared_ptr<NatsConnection> ourConnection(const QString &url);
/** The median (0 for none). */
double median(QList<double> values);
/** Session record `i` with one QoS 0 subscription: no durable (~120 bytes). */
QByteArray sessionRecordQos0(const QByteArray &clientId);
/**
 * `$MQTT_sess` with `records` sessions (sessionRecord(), or with `qos0` sessionRecordQos0()) and 2.9's
 * retained layout (`$MQTT.rmsgs`, JSON) with `retained` messages.
 */
bool fill(const QByteArray &url, int records, int retained, bool qos0 = false);
/** `$MQTT_rmsgs` re-created per subject (2.11+) with `retained` messages in the header encoding. */
bool fillRetainedHeaders(const QByteArray &url, int retained);
/** What CONSUMER.LIST returns for the durables of the first `records` sessions, indexed. */
SessionLoader::ConsumerIndex consumerIndex(int records);
/**
 * `$MQTT_msgs` as the servers make it (interest retention, `$MQTT.msgs.>`, file storage) when missing, and on it
 * the durable each of the first `records` session records names (durableOf(), the config sessionRecord() holds),
 * created with `window` CONSUMER.DURABLE.CREATE requests in flight. Prints the time it took. `maxConsumers` > 0
 * goes into the stream's config: nats-server 2.15+ allows 1,000 consumers per stream unless the stream says more.
 */
bool createDurables(const QByteArray &url, int records, int window = 256, int maxConsumers = 0);
/** What the account holds now: messages of `$MQTT_sess`, consumers of `$MQTT_msgs` (-1: not read, the error printed). */
struct SessionCounts
{
    qint64 records = -1;
    qint64 durables = -1;
};
SessionCounts sessionCounts(const QByteArray &url);
/** Every message of `stream` removed (STREAM.PURGE); false, the error printed, when it failed. */
bool purgeStream(const QByteArray &url, const QByteArray &stream);

} // namespace MqttDoctor::BenchData
