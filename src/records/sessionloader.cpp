#include "records/sessionloader.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

#include "activity/closedconnections.h"
#include "common/jsonstreamwriter.h"
#include "common/rfc3339time.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/storedmessage.h"
#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/natsconnection.h"
#include "nats/messagegetter.h"
#include "records/decodepipeline.h"

namespace MqttDoctor {

QList<SessionRecord::Subscription> SessionEntry::subscriptions() const
{
    return record ? record->subscriptions(dialect) : QList<SessionRecord::Subscription>();
}

namespace {

// A missing durable's problem text: "consumer <name> missing" (problems() and the JSON writer below).
constexpr QStringView kMissingBefore = u"consumer ";
constexpr QStringView kMissingAfter = u" missing";

bool reportedMissing(const SessionEntry &entry, const SessionConsumer &c)
{
    return entry.durablesChecked && !c.exists && !c.name.isEmpty();
}

} // namespace

ConsumerConfigJson SessionEntry::recordedConfig(const SessionConsumer &c) const
{
    if (!record)
        return {};
    if (c.sid == QLatin1String("pubrel") && record->pubrel)
        return *record->pubrel;
    return record->cons.value(c.sid);
}

QStringList SessionEntry::problems() const
{
    QStringList out = otherProblems;
    for (const SessionConsumer &c : consumers)
        if (reportedMissing(*this, c))
            out << kMissingBefore.toString() + c.name + kMissingAfter;
    return out;
}

qsizetype SessionEntry::problemCount() const
{
    qsizetype n = otherProblems.size();
    for (const SessionConsumer &c : consumers)
        n += reportedMissing(*this, c) ? 1 : 0;
    return n;
}

namespace SessionLoader {

namespace {

const QString sessStream = QStringLiteral("$MQTT_sess");

// The stream names every joined consumer carries: one string each, not one per consumer.
QString sharedStreamName(const QString &name)
{
    static const QString msgs = QStringLiteral("$MQTT_msgs");
    static const QString out = QStringLiteral("$MQTT_out");
    return name == msgs ? msgs : name == out ? out : name;
}

QString lastToken(const QString &subject)
{
    const qsizetype dot = subject.lastIndexOf(QLatin1Char('.'));
    return dot < 0 ? subject : subject.mid(dot + 1);
}

} // namespace

SessionEntry fromMessage(const StreamMessage &message, TopicMapping::Dialect dialect)
{
    SessionEntry e;
    e.dialect = dialect;
    e.subject = message.subject;
    e.seq = message.sequence;
    e.time = message.time();
    StoredMessage stored;
    stored.stream = sessStream;
    stored.subject = message.subject;
    stored.seq = message.sequence;
    stored.headers = message.headers;
    stored.data = message.data;
    auto rec = SessionRecord::decode(stored);
    const QStringView subjectHash = rec ? SessionRecord::subjectHashOf(message.subject) : QStringView();
    e.hash = subjectHash.isEmpty() ? lastToken(message.subject) : subjectHash.toString();
    if (!rec) {
        e.otherProblems << QStringLiteral("undecodable: ") + rec.error().message();
        return e;
    }
    e.clientId = rec->id;
    e.clean = rec->clean;
    // SessionRecord::idMatchesSubject(), without splitting the subject again. Not for a legacy stream's name:
    // its hash covers the domain since 2.3, and the server moves the record without checking it.
    if (!subjectHash.isEmpty() && !MqttLayout::isLegacySessionStream(message.subject)) {
        e.idMatchesHash = ClientIdHash::hashEquals(rec->id, subjectHash);
        if (!*e.idMatchesHash)
            e.otherProblems << QStringLiteral("id does not hash to the subject (hash of \"%1\" is %2, subject has %3)")
                                   .arg(rec->id, rec->idHash(), e.hash);
    }
    e.record = std::move(rec).value();
    return e;
}

void indexConsumers(ConsumerIndex &index, const QString &stream, const QList<QJsonObject> &consumers)
{
    const QString shared = sharedStreamName(stream);
    for (QJsonObject info : consumers) {
        const QString name = info.value(QLatin1String("name")).toString();
        if (name.isEmpty())
            continue;
        info.insert(QStringLiteral("stream"), shared);
        IndexedConsumer c;
        c.stream = shared;
        c.numPending = info.value(QLatin1String("num_pending")).toInteger();
        c.numAckPending = info.value(QLatin1String("num_ack_pending")).toInteger();
        c.config = info.value(QLatin1String("config")).toObject();
        if (const QJsonValue why = info.value(QLatin1String("unavailable")); why.isString())
            c.unavailable = why.toString();
        c.info = std::move(info);
        index.insert(name, std::move(c));
    }
}

namespace {

// The name a record's consumer config gives its durable.
QString durableNameOf(const ConsumerConfigJson &config)
{
    return config.durableName().isEmpty() ? config.value(QLatin1String("name")).toString() : config.durableName();
}

// One consumer of a record, joined with what the index found under its name (`found`: null when missing).
void addConsumer(SessionEntry &entry, const QString &sid, QString name, const IndexedConsumer *found)
{
    SessionConsumer c;
    c.sid = sid;
    c.name = std::move(name);
    if (found) {
        c.exists = true;
        c.stream = found->stream;
        c.numPending = found->numPending;
        c.numAckPending = found->numAckPending;
        c.config = found->config;
        if (!found->unavailable.isEmpty()) {
            c.config = {}; // its actual config could not be read: SessionEntry::configOf gives the record's
            entry.otherProblems << QStringLiteral("consumer %1 exists but did not answer (%2); its pending counts are not known")
                                       .arg(c.name, found->unavailable);
        }
    } // else missing: SessionEntry::problems() names it when the consumers are known

    entry.consumers.append(std::move(c));
}

const QString &pubrelSid()
{
    static const QString sid = QStringLiteral("pubrel");
    return sid;
}

} // namespace

void joinConsumers(SessionEntry &entry, const ConsumerIndex &consumers, bool consumersKnown)
{
    joinConsumers(std::span<SessionEntry>(&entry, 1), consumers, consumersKnown);
}

void joinConsumers(std::span<SessionEntry> entries, const ConsumerIndex &consumers, bool consumersKnown)
{
    // Every durable name of the batch first, then one findMany() for all of them, then the entries.
    std::vector<QString> names;
    for (SessionEntry &entry : entries) {
        entry.consumers.clear();
        entry.durablesChecked = consumersKnown;
        if (!entry.record)
            continue;
        for (const ConsumerConfigJson &config : entry.record->cons)
            names.push_back(durableNameOf(config));
        if (entry.record->pubrel)
            names.push_back(durableNameOf(*entry.record->pubrel));
    }
    std::vector<QStringView> views(names.cbegin(), names.cend());
    std::vector<const IndexedConsumer *> found(names.size());
    consumers.findMany(views, found);
    size_t k = 0;
    for (SessionEntry &entry : entries) {
        if (!entry.record)
            continue;
        const SessionRecord &r = *entry.record;
        entry.consumers.reserve(r.cons.size() + (r.pubrel ? 1 : 0));
        for (auto it = r.cons.cbegin(); it != r.cons.cend(); ++it, ++k)
            addConsumer(entry, it.key(), std::move(names[k]), found[k]);
        if (r.pubrel) {
            addConsumer(entry, pubrelSid(), std::move(names[k]), found[k]);
            ++k;
        }
    }
}

void joinConnected(SessionEntry &entry, const std::optional<ConnectedClients> &connected)
{
    if (!connected || !entry.record) {
        entry.connected.reset();
        return;
    }
    const auto it = connected->constFind(entry.clientId);
    entry.connected = it != connected->cend();
    entry.server = entry.connected.value() ? it.value() : QString();
}

ConnectedClients connectedFromConnz(const QList<SystemClient::Reply> &replies)
{
    ConnectedClients out;
    for (const SystemClient::Reply &r : replies) {
        if (!r.error.isEmpty())
            continue;
        const QString server = r.server.value(QLatin1String("name")).toString();
        for (const QJsonValue &v : r.data.value(QLatin1String("connections")).toArray()) {
            // Only mqtt_client (and stop) are read: the `jwt` field can hold the client's password.
            const QJsonObject c = v.toObject();
            if (!c.value(QLatin1String("stop")).toString().isEmpty())
                continue; // a closed connection (asked for with state any)
            const QString id = c.value(QLatin1String("mqtt_client")).toString();
            if (!id.isEmpty())
                out.insert(id, server);
        }
    }
    return out;
}

bool matches(const SessionEntry &entry, const QString &filter)
{
    if (filter.isEmpty())
        return true;
    const auto has = [&](const QString &s) { return s.contains(filter, Qt::CaseInsensitive); };
    if (has(entry.clientId) || has(entry.hash) || has(entry.subject))
        return true;
    if (entry.record) // the subscriptions without making them (no list, the filters cached per thread)
        for (auto it = entry.record->subs.begin(); it != entry.record->subs.end(); ++it)
            if (has(it.key()) || has(SessionRecord::mqttFilterOf(it.key(), entry.dialect)))
                return true;
    return false;
}

QJsonObject toJson(const SessionEntry &e, bool detail)
{
    QJsonArray subs;
    for (const SessionRecord::Subscription &s : e.subscriptions())
        subs.append(QJsonObject{
            {QStringLiteral("filter"), s.natsSubject}, {QStringLiteral("topic"), s.mqttFilter}, {QStringLiteral("qos"), s.qos}});
    QJsonArray cons;
    for (const SessionConsumer &c : e.consumers) {
        QJsonObject o{{QStringLiteral("name"), c.name},
                      {QStringLiteral("sid"), c.sid},
                      {QStringLiteral("exists"), c.exists},
                      {QStringLiteral("stream"), c.stream.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.stream)},
                      {QStringLiteral("pending"), c.exists ? QJsonValue(c.pending()) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("num_pending"), c.exists ? QJsonValue(c.numPending) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("num_ack_pending"), c.exists ? QJsonValue(c.numAckPending) : QJsonValue(QJsonValue::Null)}};
        if (detail)
            o.insert(QStringLiteral("config"), e.configOf(c));
        cons.append(o);
    }
    QJsonObject o{{QStringLiteral("client_id"), e.record ? QJsonValue(e.clientId) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("hash"), e.hash},
                  {QStringLiteral("stream"), e.isLegacy() ? e.legacyStream : sessStream},
                  {QStringLiteral("subject"), e.subject},
                  {QStringLiteral("seq"), QJsonValue(qint64(e.seq))},
                  {QStringLiteral("time"), Rfc3339Time::formatMs(e.time)},
                  {QStringLiteral("clean"), e.record ? QJsonValue(e.clean) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("subscriptions"), subs},
                  {QStringLiteral("consumers"), cons},
                  {QStringLiteral("connected"), e.connected ? QJsonValue(*e.connected) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("problems"), QJsonArray::fromStringList(e.problems())}};
    if (detail) {
        o.insert(QStringLiteral("server"), e.server.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(e.server));
        o.insert(QStringLiteral("origin"), e.record ? QJsonValue(e.record->origin) : QJsonValue(QJsonValue::Null));
    }
    return o;
}

void writeJson(JsonStreamWriter &w, const SessionEntry &e)
{
    // toJson(e)'s members in its order (a JSON object's keys sorted), written as they are made.
    w.beginObject();
    e.record ? w.boolean(QStringLiteral("clean"), e.clean) : w.null(QStringLiteral("clean"));
    e.record ? w.string(QStringLiteral("client_id"), e.clientId) : w.null(QStringLiteral("client_id"));
    e.connected ? w.boolean(QStringLiteral("connected"), *e.connected) : w.null(QStringLiteral("connected"));
    w.beginArray(QStringLiteral("consumers"));
    for (const SessionConsumer &c : e.consumers) {
        w.beginObject();
        w.boolean(QStringLiteral("exists"), c.exists);
        w.string(QStringLiteral("name"), c.name);
        if (c.exists) {
            w.number(QStringLiteral("num_ack_pending"), c.numAckPending);
            w.number(QStringLiteral("num_pending"), c.numPending);
            w.number(QStringLiteral("pending"), c.pending());
        } else {
            w.null(QStringLiteral("num_ack_pending"));
            w.null(QStringLiteral("num_pending"));
            w.null(QStringLiteral("pending"));
        }
        w.string(QStringLiteral("sid"), c.sid);
        w.stringOrNull(QStringLiteral("stream"), c.stream);
        w.endObject();
    }
    w.endArray();
    w.string(QStringLiteral("hash"), e.hash);
    // problems(), written without making the texts of the missing durables first.
    w.beginArray(QStringLiteral("problems"));
    for (const QString &p : e.otherProblems)
        w.string({}, p);
    for (const SessionConsumer &c : e.consumers)
        if (reportedMissing(e, c)) {
            w.beginString({});
            w.textPiece(kMissingBefore);
            w.textPiece(c.name);
            w.textPiece(kMissingAfter);
            w.endString();
        }
    w.endArray();
    w.number(QStringLiteral("seq"), qint64(e.seq));
    w.string(QStringLiteral("stream"), e.isLegacy() ? e.legacyStream : sessStream);
    w.string(QStringLiteral("subject"), e.subject);
    w.beginArray(QStringLiteral("subscriptions"));
    for (const SessionRecord::Subscription &s : e.subscriptions()) {
        w.beginObject();
        w.string(QStringLiteral("filter"), s.natsSubject);
        w.number(QStringLiteral("qos"), s.qos);
        w.string(QStringLiteral("topic"), s.mqttFilter);
        w.endObject();
    }
    w.endArray();
    w.string(QStringLiteral("time"), Rfc3339Time::formatMs(e.time));
    w.endObject();
}

QString sessionSubject(const QString &clientId, const QString &sessionDomain)
{
    return MqttLayout::sessionSubject(sessionDomain, ClientIdHash::hash(clientId));
}

Result<ConsumerIndex> loadConsumers(const std::shared_ptr<NatsConnection> &account, const QString &domain)
{
    JetStreamClient js(account, domain);
    ConsumerIndex index;
    for (const QString &stream : {QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_out")}) {
        auto list = js.consumerListAllowUnavailable(stream);
        if (!list) {
            if (list.error().jsErrCode() == JsErrors::StreamNotFound) // stream not found: no consumers
                continue;
            return Error(list.error()).prefixed(QStringLiteral("listing the consumers of ") + stream);
        }
        indexConsumers(index, stream, *list);
    }
    return index;
}

Result<ConnectedClients> loadConnected(const std::shared_ptr<NatsConnection> &connection, const QString &account, const QString &clientId,
                                       int pageSize)
{
    SystemClient sys(connection);
    return loadConnected(sys, account, clientId, pageSize);
}

Result<ConnectedClients> loadConnected(SystemClient &sys, const QString &account, const QString &clientId, int pageSize,
                                       QList<MqttClientEvent> *closed)
{
    pageSize = std::max(1, pageSize);
    QJsonObject options{{QStringLiteral("limit"), pageSize}};
    if (closed)
        options.insert(QStringLiteral("state"), 2); // ConnzOptions.State: 0 open, 1 closed, 2 any
    if (!account.isEmpty())
        options.insert(QStringLiteral("acc"), account);
    if (!clientId.isEmpty())
        options.insert(QStringLiteral("mqtt_client"), clientId);
    // Every server answers the PING with one page; ask again with the next offset while any page was full
    // (connections that come and go between pages may be seen twice or not at all: a snapshot, not a lock).
    // A full page that adds no client not seen before ends the walk too (a server repeating one page would
    // otherwise be asked forever), and so does the page cap.
    constexpr int kMaxPages = 2000;
    ConnectedClients all;
    QSet<QString> seen; // server id + cid of every connection listed so far
    QSet<QString> closedSeen; // server name + cid of the closed ones kept
    for (qint64 offset = 0, page = 0;; offset += pageSize, ++page) {
        if (page >= kMaxPages)
            return Error(
                Error::Kind::Protocol,
                QStringLiteral("asking the servers for MQTT connections (CONNZ): still full pages after %1 requests").arg(kMaxPages));
        options.insert(QStringLiteral("offset"), offset);
        auto replies = sys.ping(QStringLiteral("CONNZ"), options);
        if (!replies)
            return Error(replies.error()).prefixed(QStringLiteral("asking the servers for MQTT connections (CONNZ)"));
        const ConnectedClients found = connectedFromConnz(*replies);
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            all.insert(it.key(), it.value());
        // A page is new when it holds a connection (server and cid) not seen before, open or closed.
        qsizetype fresh = 0;
        bool anyFull = false;
        for (const SystemClient::Reply &r : *replies) {
            const QJsonArray connections = r.data.value(QLatin1String("connections")).toArray();
            anyFull = anyFull || connections.size() >= pageSize;
            const QString server = r.server.value(QLatin1String("id")).toString();
            for (const QJsonValue &v : connections) {
                const QString key = server + u'\n' + QString::number(v.toObject().value(QLatin1String("cid")).toInteger());
                if (!seen.contains(key)) {
                    seen.insert(key);
                    ++fresh;
                }
            }
        }
        if (closed)
            for (MqttClientEvent &e : ClosedConnections::fromConnz(*replies, account))
                if (const QString key = e.server + u'\n' + QString::number(e.connectionId); e.time.isValid() && !closedSeen.contains(key)) {
                    closedSeen.insert(key);
                    closed->append(std::move(e));
                }
        if (!anyFull || (page > 0 && fresh == 0))
            break;
    }
    if (closed)
        std::sort(closed->begin(), closed->end(), [](const MqttClientEvent &a, const MqttClientEvent &b) { return a.time < b.time; });
    return all;
}

namespace {

// A listing's first page (`--limit N`, no filter) of a `$MQTT_sess` that keeps one message per
// subject: its first messages by sequence are the ordered read's first records. Read with
// STREAM.MSG.GET, no consumer: on 2.9 a consumer's start costs the server a scan of every subject
// (~0.4 s with a million sessions) before the first record arrives.
struct FirstPage
{
    quint64 firstSeq = 0;
    quint64 lastSeq = 0;
    quint64 messages = 0;
    quint64 want = 0; // the limit and one more: whether there is more
};

constexpr quint64 kFirstPageMax = 1000;

std::optional<FirstPage> firstPage(const SessionLoadOptions &options)
{
    if (options.limit == 0 || options.limit > kFirstPageMax || !options.filter.isEmpty() || !options.subjectFilter.isEmpty()
        || !options.knownStreams)
        return std::nullopt;
    const QJsonObject info = options.knownStreams->value(sessStream);
    if (info.value(QLatin1String("config")).toObject().value(QLatin1String("max_msgs_per_subject")).toInteger() != 1)
        return std::nullopt;
    const QJsonObject state = info.value(QLatin1String("state")).toObject();
    FirstPage page;
    page.firstSeq = quint64(state.value(QLatin1String("first_seq")).toInteger());
    page.lastSeq = quint64(state.value(QLatin1String("last_seq")).toInteger());
    page.messages = quint64(state.value(QLatin1String("messages")).toInteger());
    page.want = options.limit + 1;
    if (page.firstSeq == 0 || page.lastSeq < page.firstSeq)
        return std::nullopt;
    return page;
}

// Asks for the first sequences (more where some turn out deleted) until `want` records or the stream's end.
Result<ReadSummary> readFirstPage(MessageGetter &getter, const FirstPage &page, const StreamReader::Options &options,
                                  const StreamReader::BatchHandler &onRead)
{
    ReadSummary summary;
    quint64 next = page.firstSeq;
    quint64 got = 0;
    while (got < page.want && next <= page.lastSeq) {
        const quint64 count = std::min<quint64>(page.want - got + 16, page.lastSeq - next + 1);
        QList<quint64> sequences;
        sequences.reserve(qsizetype(count));
        for (quint64 k = 0; k < count; ++k)
            sequences.append(next + k);
        next += count;
        bool stop = false;
        auto read = getter.getBySequences(sessStream, sequences, options, [&](QList<StreamMessage> &&batch, const ReadProgress &) {
            batch.removeIf([](const StreamMessage &m) { return m.deleted; });
            if (got + quint64(batch.size()) > page.want)
                batch.resize(qsizetype(page.want - got));
            got += quint64(batch.size());
            summary.delivered += quint64(batch.size());
            for (const StreamMessage &m : std::as_const(batch))
                summary.lastSequence = std::max(summary.lastSequence, m.sequence);
            if (batch.isEmpty())
                return true;
            if (!onRead(std::move(batch), ReadProgress{got, page.messages}))
                stop = true;
            return !stop && got < page.want;
        });
        if (!read)
            return read.error();
        if (stop || read->cancelled) {
            summary.cancelled = true;
            break;
        }
    }
    return summary;
}

} // namespace

Result<ReadSummary> load(const std::shared_ptr<NatsConnection> &account, const SessionLoadOptions &options,
                         const std::optional<ConsumerIndex> &consumers, const std::optional<ConnectedClients> &connected,
                         const BatchHandler &onBatch, bool *truncated)
{
    if (truncated)
        *truncated = false;
    StreamReader reader(account, options.domain);
    StreamReader::Options ro;
    ro.batchSize = options.batchSize;
    ro.cancel = options.cancel;
    if (options.knownStreams)
        reader.setKnownInfo(sessStream, options.knownStreams->value(sessStream));
    const ConsumerIndex noConsumers;
    const ConsumerIndex &index = consumers ? *consumers : noConsumers;

    // Decoding, filtering and joining run on this thread while the pipeline's reading thread reads; the
    // limit and the handler are applied here, in stream order, as for an inline decode.
    auto decode = [&index, &consumers, &connected, &options](const QList<StreamMessage> &batch) {
        QList<SessionEntry> matched;
        matched.reserve(batch.size());
        for (const StreamMessage &m : batch) {
            SessionEntry e = fromMessage(m, options.dialect);
            if (matches(e, options.filter))
                matched.append(std::move(e));
        }
        joinConsumers(std::span<SessionEntry>(matched.data(), size_t(matched.size())), index, consumers.has_value());
        for (SessionEntry &e : matched)
            joinConnected(e, connected);
        return matched;
    };
    quint64 count = 0;
    bool limitReached = false;
    bool more = false; // the limit cut the list short
    ReadProgress lastProgress;
    auto deliver = [&](QList<SessionEntry> &&matched, const ReadProgress &progress) {
        lastProgress = progress;
        QList<SessionEntry> out;
        if (options.limit == 0) {
            out = std::move(matched);
        } else {
            out.reserve(matched.size());
            for (SessionEntry &e : matched) {
                if (limitReached) { // one more match after the limit: there is more
                    more = true;
                    break;
                }
                out.append(std::move(e));
                if (++count >= options.limit) {
                    limitReached = true;
                    // More unread messages may match: without a filter any of them would.
                    if (options.filter.isEmpty() && (progress.total == 0 || progress.done < progress.total))
                        more = true;
                }
            }
        }
        const bool goOn = out.isEmpty() ? true : onBatch(std::move(out), progress);
        // After the limit, a filtered read goes on (decoding only) until one more match shows there is more.
        return goOn && !(limitReached && (more || options.filter.isEmpty()));
    };
    // What was read before the end (or an error) is handed over before run() returns; after a stop by
    // the limit or the handler, the summary describes the read up to that batch.
    DecodePipeline pipeline(
        [&](const QList<StreamMessage> &batch, const ReadProgress &progress) { return deliver(decode(batch), progress); });
    auto summary = pipeline.run([&](const StreamReader::BatchHandler &onRead) -> Result<ReadSummary> {
        if (options.knownStreams && !options.knownStreams->contains(sessStream))
            return Error(Error::Kind::NotFound, QStringLiteral("stream not found")).withJsErrCode(JsErrors::StreamNotFound);
        if (const auto first = firstPage(options)) {
            MessageGetter getter(account, options.domain);
            return readFirstPage(getter, *first, ro, onRead);
        }
        return reader.readLastPerSubject(sessStream, options.subjectFilter, ro, onRead);
    });
    const bool noSessStream = !summary && summary.error().jsErrCode() == JsErrors::StreamNotFound;
    // The legacy streams come after $MQTT_sess's records, through the same limit (a server older than 2.5
    // may have left them without ever creating $MQTT_sess).
    const bool stopped = (summary && summary->cancelled) || limitReached || (options.cancel && options.cancel->load());
    if (options.includeLegacy && options.subjectFilter.isEmpty() && (summary || noSessStream) && !stopped) {
        auto legacy = loadLegacy(account, options, consumers, connected);
        if (!legacy)
            return legacy.error();
        if (!legacy->isEmpty()) {
            ReadProgress progress = lastProgress;
            progress.done += quint64(legacy->size());
            progress.total = std::max(progress.total, progress.done);
            deliver(std::move(*legacy), progress);
        }
    }
    if (truncated)
        *truncated = more;
    if (!summary) {
        if (noSessStream)
            return Error(Error::Kind::NotFound, QStringLiteral("the account has no $MQTT_sess stream: no MQTT session was ever stored"),
                         QStringLiteral("nats-server creates it on the account's first MQTT connection"))
                .withJsErrCode(JsErrors::StreamNotFound);
        return summary;
    }
    return summary;
}

void markLegacy(SessionEntry &entry, const QString &stream)
{
    entry.legacyStream = stream;
    entry.otherProblems.prepend(
        QStringLiteral("left in the legacy stream %1: servers since 2.5 read sessions only from $MQTT_sess and move these only when "
                       "they create $MQTT_sess (LEGACY_SESSION_STREAMS; repair: migrate_legacy_sessions)")
            .arg(stream));
}

Result<QList<SessionEntry>> loadLegacy(const std::shared_ptr<NatsConnection> &account, const SessionLoadOptions &options,
                                       const std::optional<ConsumerIndex> &consumers, const std::optional<ConnectedClients> &connected)
{
    JetStreamClient js(account, options.domain);
    auto names = options.knownStreams ? Result<QStringList>(options.knownStreams->keys()) : js.streamNames();
    if (!names)
        return Error(names.error()).prefixed(QStringLiteral("listing the streams to find legacy session streams"));
    const ConsumerIndex noConsumers;
    QList<SessionEntry> out;
    for (const QString &stream : std::as_const(*names)) {
        if (!MqttLayout::isLegacySessionStream(stream))
            continue;
        if (options.cancel && options.cancel->load())
            break;
        // A stream that cannot be read is listed with the reason: the listing goes on.
        auto unreadable = [&](const QString &why) {
            SessionEntry e;
            e.subject = stream;
            e.hash = stream.mid(MqttLayout::legacySessionPrefix().size());
            markLegacy(e, stream);
            e.otherProblems << QStringLiteral("unreadable: ") + why;
            if (matches(e, options.filter))
                out.append(std::move(e));
        };
        auto info = options.knownStreams ? Result<QJsonObject>(options.knownStreams->value(stream)) : js.streamInfo(stream);
        if (!info) {
            if (info.error().jsErrCode() != JsErrors::StreamNotFound) // deleted meanwhile (e.g. migrated by a server): gone
                unreadable(info.error().message());
            continue;
        }
        const QJsonObject state = info->value(QLatin1String("state")).toObject();
        const qint64 lastSeq = state.value(QLatin1String("last_seq")).toInteger();
        if (state.value(QLatin1String("messages")).toInteger() <= 0 || lastSeq <= 0)
            continue; // empty: no session (the check reports the stream)
        MessageGetter getter(account, options.domain);
        MessageGetter::Options ro;
        ro.cancel = options.cancel;
        std::optional<StreamMessage> message;
        auto read = getter.getBySequences(stream, {quint64(lastSeq)}, ro, [&](QList<StreamMessage> &&batch, const ReadProgress &) {
            if (!batch.isEmpty() && !batch.constFirst().deleted)
                message = batch.constFirst();
            return true;
        });
        if (!read) {
            unreadable(read.error().message());
            continue;
        }
        if (!message)
            continue; // gone between the info and the read
        SessionEntry e = fromMessage(*message, options.dialect);
        markLegacy(e, stream);
        if (!matches(e, options.filter))
            continue;
        joinConsumers(e, consumers ? *consumers : noConsumers, consumers.has_value());
        joinConnected(e, connected);
        out.append(std::move(e));
    }
    return out;
}

} // namespace SessionLoader
} // namespace MqttDoctor
