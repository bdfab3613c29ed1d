#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "mqtt/consumerconfigjson.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/topicmapping.h"
#include "nats/streamreader.h"
#include "activity/mqttclientevent.h"
#include "nats/systemclient.h"
#include "records/consumerindex.h"

namespace MqttDoctor {

class JsonStreamWriter;
class NatsConnection;

/** A durable consumer a session record references, joined with the consumer's info (if it exists). */
struct SessionConsumer
{
    QString name;
    QString sid; ///< the `cons` key (subject or "<subject> fwc"), or "pubrel"
    QString stream; ///< where it was found (`$MQTT_msgs`, `$MQTT_out`), empty when missing
    bool exists = false;
    qint64 numPending = 0; ///< consumer info `num_pending` (not yet delivered)
    qint64 numAckPending = 0; ///< consumer info `num_ack_pending` (delivered, unacknowledged)
    QJsonObject config; ///< the consumer's actual config (exists and answered), else empty (the record's: SessionEntry::configOf)
    /** What `pending` means in the CLI: num_pending + num_ack_pending. */
    qint64 pending() const { return numPending + numAckPending; }
};

/** One session record of `$MQTT_sess`, decoded and joined (or the reason it could not be decoded). */
struct SessionEntry
{
    QString clientId; ///< empty when undecodable
    QString hash; ///< the subject's hash token
    QString subject;
    quint64 seq = 0;
    QDateTime time; ///< store time (UTC)
    bool clean = false;
    /** How subscriptions() maps the record's NATS subjects to MQTT filters (the server version's dialect). */
    TopicMapping::Dialect dialect = TopicMapping::Dialect::V2_10;
    QList<SessionConsumer> consumers;
    std::optional<bool> connected; ///< nullopt: unknown (no system connection)
    QString server; ///< the server the client is connected to (when connected)
    /**
     * The problems found while decoding and joining that are not a missing durable: "undecodable: ...",
     * "id does not hash to the subject ...", "consumer X exists but did not answer ...", the legacy stream's.
     */
    QStringList otherProblems;
    /** Joined with the account's consumers (known): each durable named that does not exist is a problem. */
    bool durablesChecked = false;
    /**
     * Whether the record's id hashes to `hash`, as the loader found while decoding (one SHA-256 per
     * record, made once); nullopt: not looked at (undecodable, a legacy stream, an entry made by hand).
     */
    std::optional<bool> idMatchesHash;
    std::optional<SessionRecord> record; ///< the decoded record (nullopt when undecodable)
    /** A legacy per-session stream `$MQTT_sess_<hash>` (≤2.4.x) the record is still in; empty: `$MQTT_sess`. */
    QString legacyStream;

    bool isLegacy() const { return !legacyStream.isEmpty(); }
    /**
     * The record's subscriptions, MQTT and NATS form (SessionRecord::subscriptions(dialect)); none
     * without a record. Made on each call, not kept: 100,000 loaded entries must not each carry a copy.
     */
    QList<SessionRecord::Subscription> subscriptions() const;
    qsizetype subscriptionCount() const { return record ? record->subs.size() : 0; }
    /**
     * The config the record stores for `c` (one of `consumers`): its `cons` entry, or `pubrel`'s. Read
     * from the record when asked, not kept with each consumer: with a million records most are never shown.
     */
    ConsumerConfigJson recordedConfig(const SessionConsumer &c) const;
    /** `c`'s actual config, or the one the record stores when the consumer is missing or did not answer. */
    QJsonObject configOf(const SessionConsumer &c) const { return c.config.isEmpty() ? recordedConfig(c).toObject() : c.config; }
    /**
     * Every problem of the entry: otherProblems, then "consumer X missing" for each durable that does not
     * exist. Made on each call: a million sessions whose durables are gone keep no text each.
     */
    QStringList problems() const;
    qsizetype problemCount() const;
    bool hasProblems() const { return problemCount() > 0; }
};

/** What a session load reads and how. */
struct SessionLoadOptions
{
    TopicMapping::Dialect dialect = TopicMapping::Dialect::V2_10;
    QString domain; ///< JetStream domain for the API subjects (empty: none)
    QString subjectFilter; ///< e.g. "$MQTT.sess.kBmSuDPK"; empty: the whole stream
    QString filter; ///< SessionLoader::matches() text; empty: every record
    quint64 limit = 0; ///< stop after this many matching records (0: all)
    int batchSize = 1024;
    const std::atomic<bool> *cancel = nullptr;
    /**
     * Also the records left in legacy `$MQTT_sess_<hash>` streams (after `$MQTT_sess`'s, filter and
     * limit applied, only when `subjectFilter` is empty). Listings want them; the record-level checks
     * do not (LEGACY_SESSION_STREAMS covers those streams).
     */
    bool includeLegacy = false;
    /**
     * The account's streams as the caller just read them (name → an object with `config` and `state`;
     * an account snapshot): when set, the `$MQTT_sess` read and the legacy streams are taken from it
     * instead of asking STREAM.INFO and STREAM.NAMES again; a stream it lacks does not exist.
     */
    std::optional<QHash<QString, QJsonObject>> knownStreams;
};

/**
 * Loading the MQTT sessions of an account: `$MQTT_sess` read last-per-subject with an ordered
 * consumer (StreamReader) in batches, each record decoded (SessionRecord) and joined with the durables
 * of `$MQTT_msgs`/`$MQTT_out` (from `CONSUMER.LIST`; no consumer is ever created on those interest
 * streams, docs/safety.md) and with `$SYS` CONNZ `mqtt_client` (when there is a system
 * connection). The pure functions (decode, join, filter, CONNZ parsing) run on any thread; the
 * network functions block and belong on a worker thread.
 */
namespace SessionLoader {

/** `client ID → server name` of the MQTT clients connected now. */
using ConnectedClients = QHash<QString, QString>;

/** Called per decoded batch (after filter, limit and join); return false to stop. Calling thread. */
using BatchHandler = std::function<bool(QList<SessionEntry> &&batch, const ReadProgress &progress)>;

// --- pure, any thread ---
/** Decodes one stored session message; never fails (an undecodable one has a problem "undecodable: ..."). */
SessionEntry fromMessage(const StreamMessage &message, TopicMapping::Dialect dialect);
/** Indexes `CONSUMER.LIST` results by name, remembering the stream. */
void indexConsumers(ConsumerIndex &index, const QString &stream, const QList<QJsonObject> &consumers);
/**
 * Fills `consumers` (every durable of the record, with exists and pending) and adds "consumer X
 * missing" problems. `consumersKnown` false leaves consumers unjoined (exists false, no problems).
 */
void joinConsumers(SessionEntry &entry, const ConsumerIndex &consumers, bool consumersKnown = true);
/** joinConsumers() for every entry, the lookups made together (ConsumerIndex::findMany): what a load does per batch. */
void joinConsumers(std::span<SessionEntry> entries, const ConsumerIndex &consumers, bool consumersKnown = true);
/** Sets `connected`/`server` from CONNZ (nullopt: unknown, leaves `connected` null). */
void joinConnected(SessionEntry &entry, const std::optional<ConnectedClients> &connected);
/** Parses CONNZ replies: every `connections[].mqtt_client` with the answering server's name. Ignores every other field (never the `jwt`). */
ConnectedClients connectedFromConnz(const QList<SystemClient::Reply> &replies);
/**
 * The `--filter TEXT` predicate: empty matches all; else a case-insensitive substring of the client
 * ID, hash, subject, or any subscription (NATS or MQTT form).
 */
bool matches(const SessionEntry &entry, const QString &filter);
/** The JSON of an entry (docs/cli.md): client_id, hash, subject, seq, time, clean, subscriptions, consumers, connected, problems; `detail` adds server, origin and the consumer configs. */
QJsonObject toJson(const SessionEntry &entry, bool detail = false);
/** The same JSON (detail false) written straight to `w` as an element of its current array. */
void writeJson(JsonStreamWriter &w, const SessionEntry &entry);
/** Marks a decoded legacy record (`$MQTT_sess_<hash>`): where it is, and why no server reads it there. */
void markLegacy(SessionEntry &entry, const QString &stream);
/** `$MQTT.sess.<hash>` or `$MQTT.sess.<domain>.<hash>`. */
QString sessionSubject(const QString &clientId, const QString &sessionDomain);

// --- blocking, worker thread ---
/** Every consumer of `$MQTT_msgs` and `$MQTT_out` (a missing stream counts as none). */
Result<ConsumerIndex> loadConsumers(const std::shared_ptr<NatsConnection> &account, const QString &domain);
/**
 * CONNZ through the system connection: `{"acc": account, "mqtt_client": clientId}` (clientId may be
 * empty: every connection of the account), `pageSize` connections per server and request, paged with
 * `offset` while any server's page is full. The `jwt` field is never read. With `closed`, the same
 * walk asks for closed connections too (`state` any) and puts the recently closed MQTT connections
 * there (ClosedConnections::fromConnz: reason, address, stop time): one CONNZ walk for both.
 */
Result<ConnectedClients> loadConnected(SystemClient &system, const QString &account, const QString &clientId = {}, int pageSize = 5000,
                                       QList<MqttClientEvent> *closed = nullptr);
/** The same through a connection of its own (a system user's, or an account user's through its CONNZ import). */
Result<ConnectedClients> loadConnected(const std::shared_ptr<NatsConnection> &connection, const QString &account,
                                       const QString &clientId = {}, int pageSize = 5000);
/**
 * The records of the legacy per-session streams `$MQTT_sess_<hash>`: the last message
 * of each non-empty one, read by sequence (`STREAM.MSG.GET`, never a consumer), decoded, filtered and
 * joined like `$MQTT_sess`'s, marked with markLegacy(). No legacy stream: an empty list.
 */
Result<QList<SessionEntry>> loadLegacy(const std::shared_ptr<NatsConnection> &account, const SessionLoadOptions &options,
                                       const std::optional<ConsumerIndex> &consumers, const std::optional<ConnectedClients> &connected);
/**
 * Reads `$MQTT_sess` and hands over joined entries batch by batch. The stream is read on a reading
 * thread of the load's own while this thread decodes and joins (the pure functions above; the entries
 * are allocated on this thread) and calls `onBatch`, in stream order. `consumers`/`connected` are the
 * join inputs (load them first; nullopt: unknown). Stops at the limit, on cancel or when the handler
 * returns false (summary.cancelled). `truncated` (optional) is set when the limit stopped the read
 * while more records remained (more matching ones in the batch, or more messages in the stream).
 */
Result<ReadSummary> load(const std::shared_ptr<NatsConnection> &account, const SessionLoadOptions &options,
                         const std::optional<ConsumerIndex> &consumers, const std::optional<ConnectedClients> &connected,
                         const BatchHandler &onBatch, bool *truncated = nullptr);

} // namespace SessionLoader
} // namespace MqttDoctor
