#include "accountsnapshotloader.h"

#include <QHash>
#include <QJsonObject>

#include <algorithm>

#include "common/rfc3339time.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"
#include "nats/streamreader.h"
#include "nats/systemclient.h"
#include "records/inflightreader.h"
#include "records/retainedloader.h"

namespace MqttDoctor {

namespace {

using Gap = CoverageGap;

/** The account's streams were listed by its own API (Discovery::account with the same connection), not the system view. */
bool listedByOwnApi(const AccountInfo &account)
{
    return account.source == QLatin1String("api") && account.streamsKnown;
}

/** The streams as the account's own API listed them (config and state): nullopt for the system view. */
std::optional<QHash<QString, QJsonObject>> knownStreams(const AccountInfo &account)
{
    if (!listedByOwnApi(account))
        return std::nullopt;
    QHash<QString, QJsonObject> out;
    for (const StreamInfo &s : account.streams)
        out.insert(s.name, QJsonObject{{QStringLiteral("config"), s.config}, {QStringLiteral("state"), s.state}});
    return out;
}

/**
 * The durables of `$MQTT_msgs`/`$MQTT_out` from the account's own `CONSUMER.LIST` (Discovery::account
 * through the API read them with the same connection); nullopt when it did not (the system view).
 */
std::optional<SessionLoader::ConsumerIndex> consumersOf(const AccountInfo &account)
{
    if (!listedByOwnApi(account))
        return std::nullopt;
    SessionLoader::ConsumerIndex index;
    for (const StreamInfo &s : account.streams) {
        if (s.name != MqttLayout::messagesStream() && s.name != MqttLayout::outStream())
            continue;
        if (!s.consumersKnown)
            return std::nullopt;
        SessionLoader::indexConsumers(index, s.name, s.consumers);
    }
    return index;
}

/** A read of the records failed: recordsError, and a gap where the checks look at the records. */
void recordsNotChecked(AccountSnapshot &snapshot, const Error &error)
{
    snapshot.recordsError = error;
    if (snapshot.wantsRecordChecks())
        snapshot.gaps << Gap{snapshot.account.name, Gap::Level::Records, Gap::Cause::Failed, error.toString()};
}

/** The access the records are read with (recordAccess); false when there is none (recordsError says why). */
bool resolveRecordAccess(ConnectionSet &connections, AccountSnapshot &snapshot)
{
    const QString name = snapshot.account.name;
    if (!AccountRecordAccess::canResolve(connections, name)) {
        snapshot.recordsError = AccountRecordAccess::resolve(connections, name, snapshot.servers, &snapshot.account.streams).error();
        if (snapshot.wantsRecordChecks())
            snapshot.gaps << Gap::recordsNeedCredentials(name);
        return false;
    }
    auto src = AccountRecordAccess::resolve(connections, name, snapshot.servers,
                                            listedByOwnApi(snapshot.account) ? &snapshot.account.streams : nullptr);
    if (!src) {
        recordsNotChecked(snapshot, src.error());
        return false;
    }
    snapshot.recordAccess = *src;
    return true;
}

/** The durables of `$MQTT_msgs`/`$MQTT_out`: as the account's `CONSUMER.LIST` gave them, else asked now. False: failed. */
bool readConsumers(AccountSnapshot &snapshot)
{
    SessionCheckInput &records = snapshot.records;
    if (auto listed = consumersOf(snapshot.account)) {
        records.consumers = std::move(*listed);
    } else {
        const AccountRecordAccess &src = *snapshot.recordAccess;
        auto consumers = SessionLoader::loadConsumers(src.connection, src.apiDomain);
        if (!consumers) {
            recordsNotChecked(snapshot, consumers.error());
            return false;
        }
        records.consumers = std::move(consumers).value();
    }
    records.consumersKnown = true;
    return true;
}

/** One CONNZ walk: the MQTT clients connected now and those closed lately (takeovers of one client ID). */
void readConnectedClients(ConnectionSet &connections, AccountSnapshot &snapshot)
{
    SessionCheckInput &records = snapshot.records;
    QList<MqttClientEvent> closed;
    records.connected = snapshot.recordAccess->connectedClients(connections, {}, &snapshot.connectedWhy, &closed);
    if (records.connected)
        snapshot.closed = std::move(closed);
    if (snapshot.wantsRecordChecks() && !records.connected) {
        const bool noSystem = !connections.hasSystem();
        snapshot.gaps << Gap{snapshot.account.name, Gap::Level::Connections, noSystem ? Gap::Cause::NoSystemConnection : Gap::Cause::Failed,
                             (noSystem ? QStringLiteral("there is no system connection") : snapshot.connectedWhy)
                                 + QStringLiteral(", so SESSION_STALE, CONSUMER_STUCK and INTEREST_PINNED were not checked and "
                                                  "orphan consumers may belong to connected clean-session clients")};
    }
}

/**
 * `$MQTT_sess` (and the legacy streams when asked), each batch joined with the consumers and CONNZ read
 * before, kept and handed to onSessions. False when the read failed or was cancelled (sessionsComplete).
 */
bool readSessions(AccountSnapshot &snapshot, const AccountSnapshotLoader::Options &options)
{
    const AccountRecordAccess &src = *snapshot.recordAccess;
    SessionCheckInput &records = snapshot.records;
    SessionLoadOptions load;
    load.dialect = src.dialect;
    load.domain = src.apiDomain;
    load.batchSize = options.batchSize;
    load.cancel = options.cancel;
    load.includeLegacy = options.includeLegacy;
    load.knownStreams = knownStreams(snapshot.account);
    auto summary = SessionLoader::load(
        src.connection, load, records.consumers, records.connected, [&](QList<SessionEntry> &&batch, const ReadProgress &progress) {
            // Kept as the batch it is (shared with the handler's copy: a
            // million sessions exist once); legacy records apart.
            const bool anyLegacy = std::any_of(batch.cbegin(), batch.cend(), [](const SessionEntry &e) { return e.isLegacy(); });
            if (!anyLegacy) {
                records.sessions.appendBatch(batch);
            } else {
                for (const SessionEntry &e : std::as_const(batch))
                    e.isLegacy() ? snapshot.legacySessions.append(e) : records.sessions.append(e);
            }
            if (options.onSessions)
                return options.onSessions(std::move(batch), progress);
            return !(options.cancel && options.cancel->load());
        });
    if (!summary) {
        if (summary.error().jsErrCode() != JsErrors::StreamNotFound) {
            recordsNotChecked(snapshot, summary.error());
            return false;
        }
        snapshot.noSessionsStream = true;
        snapshot.sessionsComplete = !(options.cancel && options.cancel->load());
    } else {
        snapshot.sessionsComplete = !summary->cancelled;
    }
    if (!snapshot.sessionsComplete) {
        if (snapshot.wantsRecordChecks())
            snapshot.gaps << Gap{snapshot.account.name, Gap::Level::Records, Gap::Cause::Cancelled,
                                 QStringLiteral("reading them was cancelled")};
        return false;
    }
    return true;
}

/** How many records each session subject holds, where `$MQTT_sess` may keep more than one (duplicates). False: failed. */
bool readSubjectCounts(AccountSnapshot &snapshot)
{
    const AccountRecordAccess &src = *snapshot.recordAccess;
    // Duplicates are possible only when the stream keeps more than one message per subject.
    for (const StreamInfo &s : std::as_const(snapshot.account.streams)) {
        if (s.name != MqttLayout::sessionsStream() || s.config.value(QLatin1String("max_msgs_per_subject")).toInteger(-1) == 1)
            continue;
        StreamIndex index(src.connection, src.apiDomain);
        auto counts = index.subjectCounts(MqttLayout::sessionsStream(), QStringLiteral("$MQTT.sess.>"));
        if (!counts) {
            snapshot.sessionsComplete = false;
            recordsNotChecked(snapshot, counts.error());
            return false;
        }
        snapshot.records.subjectCounts = *counts;
    }
    return true;
}

/** The retained messages' topics and sizes, for upgrade readiness only (a whole read of `$MQTT_rmsgs`). */
void readRetainedTopics(AccountSnapshot &snapshot, const AccountSnapshotLoader::Options &options)
{
    const bool hasRetained = std::any_of(snapshot.account.streams.cbegin(), snapshot.account.streams.cend(),
                                         [](const StreamInfo &s) { return s.name == MqttLayout::retainedStream(); });
    if (!options.retainedTopics || !hasRetained)
        return;
    const AccountRecordAccess &src = *snapshot.recordAccess;
    // Message gets (JSON replies), not a consumer: a subject with a tab, which the target version is
    // asked about, breaks the client protocol's MSG line.
    QList<RetainedTopicSize> topics;
    auto map = StreamIndex(src.connection, src.apiDomain).sequenceMap(MqttLayout::retainedStream());
    Result<ReadSummary> loaded = map ? Result<ReadSummary>(ReadSummary{}) : Result<ReadSummary>(map.error());
    if (map) {
        MessageGetter::Options read;
        read.cancel = options.cancel;
        loaded = MessageGetter(src.connection, src.apiDomain)
                     .getBySequences(MqttLayout::retainedStream(), map->liveSequences(), read,
                                     [&topics](QList<StreamMessage> &&batch, const ReadProgress &) {
                                         for (const StreamMessage &m : std::as_const(batch)) {
                                             if (m.deleted)
                                                 continue;
                                             const RetainedEntry e = RetainedLoader::fromMessage(m);
                                             if (e.record && !e.record->isDeleteMarker)
                                                 topics.append({e.record->topic, qint64(e.record->payload.size())});
                                         }
                                         return true;
                                     });
    }
    if (loaded)
        snapshot.records.retained = std::move(topics);
    else if (snapshot.wantsRecordChecks())
        snapshot.gaps << Gap{snapshot.account.name, Gap::Level::Records, Gap::Cause::Failed,
                             QStringLiteral("reading $MQTT_rmsgs failed, so the retained topics were not checked for the target "
                                            "version: %1")
                                 .arg(loaded.error().toString())};
}

/**
 * The QoS 2 records (2.10+), for QOS2_ORPHANED: their sessions against the records read before. Empty
 * streams (the usual case) cost no request.
 */
void readQos2Records(AccountSnapshot &snapshot, const AccountSnapshotLoader::Options &options)
{
    const bool hasQos2 = std::any_of(snapshot.account.streams.cbegin(), snapshot.account.streams.cend(), [](const StreamInfo &s) {
        return (s.name == MqttLayout::qos2InStream() || s.name == MqttLayout::outStream())
            && s.state.value(QLatin1String("messages")).toInteger(1) > 0;
    });
    if (!hasQos2)
        return;
    const AccountRecordAccess &src = *snapshot.recordAccess;
    InflightReader::Options read;
    read.domain = src.apiDomain;
    read.cancel = options.cancel;
    auto qos2 = InflightReader::readQos2Records(src.connection, read);
    if (qos2)
        snapshot.records.qos2Records = std::move(qos2).value();
    else if (snapshot.wantsRecordChecks())
        snapshot.gaps << Gap{
            snapshot.account.name, Gap::Level::Records, Gap::Cause::Failed,
            QStringLiteral("reading $MQTT_qos2in and $MQTT_out failed, so QOS2_ORPHANED was not checked: %1").arg(qos2.error().toString())};
}

} // namespace

AccountSnapshotLoader::AccountSnapshotLoader(ConnectionSet &connections) : m_connections(connections) {}

Result<AccountSnapshot> AccountSnapshotLoader::load(const QString &account, const Options &options)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    auto servers = Discovery::knownServers(m_connections);
    if (!servers)
        return servers.error();
    auto info = Discovery::account(m_connections, account);
    if (!info)
        return info.error();
    AccountSnapshot snapshot;
    snapshot.loadedAt = started;
    snapshot.servers = std::move(servers).value();
    snapshot.account = std::move(info).value();
    const bool checked = snapshot.wantsRecordChecks();
    if (options.records && snapshot.account.jetstream && (checked || !options.recordsOnlyWhenChecked))
        readRecords(snapshot, options);
    return snapshot;
}

std::optional<CoverageGap> AccountSnapshotLoader::managersUnknown(const AccountInfo &account)
{
    // A restart leaves the servers' old retained consumers behind for a while (a durable up to 2.10.10 for good, a
    // 2.10.11+ one for 5 minutes); a deleted stream takes every consumer with it. And a server makes its streams
    // together, at its first MQTT set-up: a $MQTT_rmsgs made well after $MQTT_sess was made again by someone else.
    const auto consumers = MqttManagers::rmsgsConsumers(account);
    if (!consumers || !AccountManagers::retainedConsumers(*consumers).isEmpty())
        return std::nullopt;
    std::optional<qint64> sessCreated, rmsgsCreated;
    for (const StreamInfo &s : account.streams) {
        if (s.name == MqttLayout::sessionsStream())
            sessCreated = Rfc3339Time::parseNs(s.created);
        else if (s.name == MqttLayout::retainedStream())
            rmsgsCreated = Rfc3339Time::parseNs(s.created);
    }
    // A set-up makes five streams one after the other, a request each: seconds apart at most on a busy cluster.
    // Closer than that, no gap (a false one only costs a "not checked"; a missed one a false "clean").
    constexpr qint64 kSameSetUpNs = 2LL * 1000 * 1000 * 1000;
    if (sessCreated && rmsgsCreated && *rmsgsCreated - *sessCreated < kSameSetUpNs)
        return std::nullopt;
    return Gap{account.name, Gap::Level::ServerState, Gap::Cause::NoSystemConnection,
               QStringLiteral("$MQTT_rmsgs has no server's retained-message consumer. That is normal when no MQTT client has "
                              "connected since the servers started; after $MQTT_rmsgs was deleted and created again it means "
                              "retained messages no longer reach new subscribers until the servers restart. Only a system "
                              "connection (SUBSZ) tells the two apart")};
}

void AccountSnapshotLoader::readManagers(ConnectionSet &connections, AccountSnapshot &snapshot)
{
    const AccountInfo &account = snapshot.account;
    if (!account.jetstream || !account.streamsKnown)
        return;
    if (!connections.hasSystem()) {
        if (auto gap = managersUnknown(account))
            snapshot.gaps << *gap;
        return;
    }
    auto sys = connections.systemClient();
    auto read = sys ? MqttManagers::read(*sys, account.name) : Result<QHash<QString, QList<MqttManager>>>(sys.error());
    if (!read) {
        snapshot.gaps << Gap{account.name, Gap::Level::ServerState, Gap::Cause::Failed,
                             QStringLiteral("reading the servers' subscriptions (SUBSZ) failed: %1").arg(read.error().toString())};
        return;
    }
    snapshot.managers = MqttManagers::complete(*sys, account, read->value(account.name));
}

AccountSnapshot AccountSnapshotLoader::load(const QList<ServerInfo> &servers, const AccountInfo &known, bool ownView,
                                            const Options &options)
{
    AccountSnapshot snapshot;
    snapshot.loadedAt = QDateTime::currentDateTimeUtc();
    snapshot.servers = servers;
    snapshot.account = known;
    if (ownView) {
        if (auto detailed = Discovery::account(m_connections, known.name)) {
            snapshot.account = std::move(detailed).value();
            snapshot.account.isSystem = known.isSystem;
        } else {
            snapshot.gaps << Gap{
                known.name, Gap::Level::Streams, Gap::Cause::Failed,
                QStringLiteral("reading the account through its own connection failed: %1").arg(detailed.error().toString())};
        }
    }
    if (options.records && snapshot.wantsRecordChecks())
        readRecords(snapshot, options);
    return snapshot;
}

void AccountSnapshotLoader::readRecords(AccountSnapshot &snapshot, const Options &options)
{
    if (!resolveRecordAccess(m_connections, snapshot))
        return;
    snapshot.records.account = snapshot.account.name;
    snapshot.records.now = QDateTime::currentDateTimeUtc();
    // The consumers and CONNZ before the sessions: each batch of sessions is joined with them as it arrives.
    if (!readConsumers(snapshot))
        return;
    readConnectedClients(m_connections, snapshot);
    if (!options.sessions || !readSessions(snapshot, options) || !readSubjectCounts(snapshot))
        return;
    readRetainedTopics(snapshot, options);
    readQos2Records(snapshot, options);
}

Result<ReadSummary> AccountSnapshotLoader::streamSessions(const AccountSnapshot &snapshot, SessionLoadOptions options,
                                                          const SessionLoader::BatchHandler &onBatch, bool *truncated)
{
    if (!snapshot.recordAccess)
        return snapshot.recordsError.value_or(
            Error(Error::Kind::InvalidInput, QStringLiteral("the records of account %1 were not read").arg(snapshot.account.name)));
    options.dialect = snapshot.recordAccess->dialect;
    options.domain = snapshot.recordAccess->apiDomain;
    options.knownStreams = knownStreams(snapshot.account);
    std::optional<SessionLoader::ConsumerIndex> consumers;
    if (snapshot.records.consumersKnown)
        consumers = snapshot.records.consumers;
    return SessionLoader::load(snapshot.recordAccess->connection, options, consumers, snapshot.records.connected, onBatch, truncated);
}

} // namespace MqttDoctor
