#include "records/inflightreader.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <functional>

#include "mqtt/clientidhash.h"
#include "mqtt/inflightrecord.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/payloadpreview.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/storedmessage.h"
#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"

namespace MqttDoctor::InflightReader {

namespace {

constexpr int kNoMessage = JsErrors::NoMessageFound;
constexpr int kStreamNotFound = JsErrors::StreamNotFound;
constexpr int kPreviewChars = 64;

struct Got
{
    StoredMessage message;
    QDateTime time;
};

Result<Got> parseGot(const QJsonObject &reply, const QString &stream)
{
    auto message = StoredMessage::fromJson(reply);
    if (!message)
        return message.error();
    message->stream = stream;
    const QString time = reply.value(QLatin1String("message")).toObject().value(QLatin1String("time")).toString();
    const qint64 ns = MessageGetter::parseTimeNs(time);
    Got got{std::move(message).value(), ns > 0 ? QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC) : QDateTime()};
    return got;
}

bool cancelled(const Options &options)
{
    return options.cancel && options.cancel->load();
}

/**
 * `STREAM.MSG.GET {"seq": from, "next_by_subj": filter}` again and again: the messages on `filter` from
 * `from` on, oldest first, until the stream holds no more (10037), `max` were found (0: no bound) or
 * `onMessage` returns false. Never a consumer.
 */
Result<int> walk(JetStreamClient &js, const QString &stream, const QString &filter, quint64 from, int max, const Options &options,
                 const std::function<bool(const Got &)> &onMessage)
{
    const QString op = QStringLiteral("STREAM.MSG.GET.") + stream;
    int found = 0;
    quint64 next = qMax<quint64>(from, 1);
    while (max == 0 || found < max) {
        if (cancelled(options))
            return Error(Error::Kind::Internal, QStringLiteral("reading %1 was cancelled").arg(stream));
        auto reply = js.call(op, QJsonObject{{QStringLiteral("seq"), qint64(next)}, {QStringLiteral("next_by_subj"), filter}});
        if (!reply) {
            if (reply.error().jsErrCode() == kNoMessage)
                break;
            return reply.error().prefixed(QStringLiteral("reading %1 on %2").arg(filter, stream));
        }
        auto got = parseGot(*reply, stream);
        if (!got)
            return got.error().prefixed(QStringLiteral("reading %1 on %2").arg(filter, stream));
        if (got->message.seq < next)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("reading %1 on %2: asked for sequence %3 or later, the server sent %4")
                             .arg(filter, stream)
                             .arg(next)
                             .arg(got->message.seq));
        ++found;
        next = got->message.seq + 1;
        if (!onMessage(*got))
            break;
    }
    return found;
}

/** Messages per subject matching `filter` (STREAM.INFO subjects_filter): their sum. */
Result<qint64> countOn(const std::shared_ptr<NatsConnection> &account, const Options &options, const QString &stream, const QString &filter)
{
    StreamIndex index(account, options.domain);
    auto counts = index.subjectCounts(stream, filter);
    if (!counts)
        return counts.error();
    qint64 total = 0;
    for (const SubjectCount &c : *counts)
        total += qint64(c.messages);
    return total;
}

qint64 number(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toInteger();
}

/** The durable's view of its own messages, from CONSUMER.INFO / CONSUMER.LIST. */
struct DurableState
{
    QString name;
    QStringList filters;
    quint64 ackFloorStream = 0;
    quint64 deliveredStream = 0;
    qint64 deliveries = 0; ///< delivered.consumer_seq - ack_floor.consumer_seq
    qint64 numPending = 0;
    qint64 numAckPending = 0;
    qint64 numRedelivered = 0;

    static DurableState from(const QJsonObject &info)
    {
        DurableState d;
        d.name = info.value(QLatin1String("name")).toString();
        const QJsonObject config = info.value(QLatin1String("config")).toObject();
        const QString one = config.value(QLatin1String("filter_subject")).toString();
        if (!one.isEmpty())
            d.filters << one;
        for (const QJsonValue &v : config.value(QLatin1String("filter_subjects")).toArray())
            if (!v.toString().isEmpty())
                d.filters << v.toString();
        if (d.filters.isEmpty())
            d.filters << QStringLiteral("$MQTT.msgs.>");
        const QJsonObject floor = info.value(QLatin1String("ack_floor")).toObject();
        const QJsonObject delivered = info.value(QLatin1String("delivered")).toObject();
        d.ackFloorStream = quint64(number(floor, "stream_seq"));
        d.deliveredStream = quint64(number(delivered, "stream_seq"));
        d.deliveries = qMax<qint64>(0, number(delivered, "consumer_seq") - number(floor, "consumer_seq"));
        d.numPending = number(info, "num_pending");
        d.numAckPending = number(info, "num_ack_pending");
        d.numRedelivered = number(info, "num_redelivered");
        return d;
    }
    qint64 pending() const { return numPending + numAckPending; }

    /** How often a message at `seq` was delivered (0: not yet), and whether that count is exact. */
    std::pair<int, bool> deliveredCount(quint64 seq) const
    {
        if (seq > deliveredStream || numAckPending <= 0)
            return {0, true};
        if (numRedelivered == 0)
            return {1, true};
        if (numAckPending == 1)
            return {int(qMax<qint64>(1, deliveries)), true};
        return {int(qMax<qint64>(1, deliveries / numAckPending)), false};
    }
};

SessionInflight::Queued queuedFrom(const Got &got, const DurableState &d, TopicMapping::Dialect dialect)
{
    SessionInflight::Queued q;
    q.consumer = d.name;
    q.seq = got.message.seq;
    q.time = got.time;
    const auto [count, exact] = d.deliveredCount(got.message.seq);
    q.delivered = count;
    q.deliveredExact = exact;
    auto rec = InflightRecord::decode(got.message);
    if (!rec || rec->kind != InflightRecord::Kind::MessageCopy) {
        q.subject = got.message.subject.mid(QStringLiteral("$MQTT.msgs.").size());
        q.topic = TopicMapping::subjectToTopic(q.subject, dialect);
        q.size = got.message.data.size();
        q.payloadPreview = PayloadPreview::text(got.message.data, kPreviewChars);
        q.problem = QStringLiteral("undecodable: ") + (rec ? QStringLiteral("not a message copy") : rec.error().message());
        return q;
    }
    q.subject = rec->natsSubject;
    q.topic = TopicMapping::subjectToTopic(rec->natsSubject, dialect);
    q.qos = rec->qos;
    q.size = rec->payload.size();
    q.payloadPreview = PayloadPreview::text(rec->payload, kPreviewChars);
    return q;
}

/** The first `max` messages (0: all) a durable has not had acknowledged, from its ack floor on. */
Result<QList<SessionInflight::Queued>> queuedOf(JetStreamClient &js, const DurableState &d, int max, const Options &options)
{
    QList<SessionInflight::Queued> out;
    // A durable's messages never outnumber its pending count: no request past the last one.
    const int bound = d.pending() <= 0 ? 0 : max == 0 ? int(qMin<qint64>(d.pending(), 1 << 30)) : int(qMin<qint64>(d.pending(), max));
    if (bound == 0)
        return out;
    for (const QString &filter : d.filters) {
        auto walked = walk(js, MqttLayout::messagesStream(), filter, d.ackFloorStream + 1, bound, options, [&](const Got &got) {
            out.append(queuedFrom(got, d, options.dialect));
            return true;
        });
        if (!walked)
            return walked.error();
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
    if (out.size() > bound)
        out.resize(bound);
    return out;
}

Qos2Records::Record qos2RecordFrom(const Got &got)
{
    Qos2Records::Record r;
    r.stream = got.message.stream;
    r.seq = got.message.seq;
    r.subject = got.message.subject;
    r.time = got.time;
    r.size = got.message.data.size();
    auto rec = InflightRecord::decode(got.message);
    if (rec && rec->kind != InflightRecord::Kind::MessageCopy) {
        r.packetId = rec->packetId;
        r.retain = rec->retain();
        if (rec->kind == InflightRecord::Kind::Qos2Incoming) {
            r.clientId = rec->clientId;
            r.hash = ClientIdHash::hash(rec->clientId);
            r.topic = TopicMapping::subjectToTopic(rec->natsSubject, TopicMapping::Dialect::V2_10);
            r.size = rec->payload.size();
        } else {
            r.hash = rec->clientIdHash;
        }
        return r;
    }
    r.problem = QStringLiteral("undecodable: ") + (rec ? QStringLiteral("not a QoS 2 record") : rec.error().message());
    // The subject still names its owner.
    static const QString in = QStringLiteral("$MQTT.qos2.in.");
    static const QString out = QStringLiteral("$MQTT.out.pubrel.");
    if (r.subject.startsWith(in)) {
        const QString rest = r.subject.mid(in.size());
        const qsizetype dot = rest.lastIndexOf(QLatin1Char('.'));
        if (dot > 0) {
            r.clientId = rest.left(dot);
            r.hash = ClientIdHash::hash(r.clientId);
        }
    } else if (r.subject.startsWith(out) && ClientIdHash::isHashToken(QStringView(r.subject).mid(out.size()))) {
        r.hash = r.subject.mid(out.size());
    }
    return r;
}

/** Every message of a QoS 2 stream: false when it does not exist. */
Result<bool> readWholeStream(const std::shared_ptr<NatsConnection> &account, const Options &options, const QString &stream,
                             QList<Qos2Records::Record> &into)
{
    JetStreamClient js(account, options.domain);
    auto walked = walk(js, stream, stream == MqttLayout::qos2InStream() ? QStringLiteral("$MQTT.qos2.in.>") : QStringLiteral("$MQTT.out.>"),
                       1, 0, options, [&](const Got &got) {
                           into.append(qos2RecordFrom(got));
                           return true;
                       });
    if (!walked) {
        if (walked.error().jsErrCode() == kStreamNotFound)
            return false;
        return walked.error();
    }
    return true;
}

} // namespace

QString missingQos2StreamsNote(TopicMapping::Dialect dialect, bool qos2InExists, bool outExists)
{
    if (qos2InExists && outExists)
        return {};
    if (dialect == TopicMapping::Dialect::V2_9 && !qos2InExists && !outExists)
        return QStringLiteral("no QoS 2 streams: the servers are nats-server 2.9, which keeps no $MQTT_qos2in or $MQTT_out (it refuses "
                              "QoS 2 PUBLISH and serves QoS 2 subscriptions as QoS 1), so nothing waits for a PUBREL or PUBCOMP");
    QStringList missing;
    if (!qos2InExists)
        missing << MqttLayout::qos2InStream();
    if (!outExists)
        missing << MqttLayout::outStream();
    return QStringLiteral("%1 %2 not exist: QoS 2 messages waiting for a PUBREL or PUBCOMP cannot be shown (check reports why)")
        .arg(missing.join(QStringLiteral(" and ")), missing.size() == 1 ? QStringLiteral("does") : QStringLiteral("do"));
}

namespace {

QString missingMessagesStreamNote()
{
    return QStringLiteral("%1 does not exist: no queued QoS 1 or QoS 2 message can be shown, and none is kept for offline sessions "
                          "(check reports why)")
        .arg(MqttLayout::messagesStream());
}

} // namespace

Result<SessionInflight> readSession(const std::shared_ptr<NatsConnection> &account, const SessionEntry &entry, const Options &options)
{
    SessionInflight out;
    out.limit = options.limit;
    JetStreamClient js(account, options.domain);

    // Queued: each durable of $MQTT_msgs from its ack floor on. A session with no durable there says nothing
    // about the stream: it is asked once whether $MQTT_msgs exists, so that its absence is named.
    const bool durableOnMessages = std::any_of(entry.consumers.cbegin(), entry.consumers.cend(), [](const SessionConsumer &c) {
        return c.exists && c.stream == MqttLayout::messagesStream();
    });
    if (!durableOnMessages) {
        auto info = js.call(QStringLiteral("STREAM.INFO.") + MqttLayout::messagesStream());
        if (!info && info.error().jsErrCode() != kStreamNotFound)
            return info.error();
        out.messagesStream = bool(info);
    }
    if (!out.messagesStream)
        out.notes << missingMessagesStreamNote();
    for (const SessionConsumer &c : entry.consumers) {
        if (c.sid == QLatin1String("pubrel") || (c.exists && c.stream != MqttLayout::messagesStream()))
            continue;
        if (!c.exists) {
            if (out.messagesStream) // else the stream's note says it for every durable
                out.notes << QStringLiteral("consumer %1 does not exist: nothing is queued for its subscription (%2)").arg(c.name, c.sid);
            continue;
        }
        auto info = js.call(QStringLiteral("CONSUMER.INFO.%1.%2").arg(MqttLayout::messagesStream(), c.name));
        if (!info) {
            if (info.error().jsErrCode() == JsErrors::ConsumerNotFound) {
                out.notes << QStringLiteral("consumer %1 was deleted while reading").arg(c.name);
                continue;
            }
            return info.error().prefixed(QStringLiteral("reading consumer %1").arg(c.name));
        }
        const DurableState d = DurableState::from(*info);
        out.queuedTotal += d.pending();
        auto queued = queuedOf(js, d, options.limit, options);
        if (!queued)
            return queued.error();
        out.queued += *queued;
    }
    std::stable_sort(out.queued.begin(), out.queued.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
    if (options.limit > 0 && out.queued.size() > options.limit)
        out.queued.resize(options.limit);

    // QoS 2 incoming: $MQTT.qos2.in.<raw client ID>.<packet ID>.
    bool qos2InExists = true;
    const QString inFilter = Qos2Records::qos2InFilter(entry.clientId);
    if (inFilter.isEmpty()) {
        out.notes
            << QStringLiteral("the client ID \"%1\" makes no valid subject: its QoS 2 messages cannot be looked up").arg(entry.clientId);
    } else {
        auto total = countOn(account, options, MqttLayout::qos2InStream(), inFilter);
        if (!total && total.error().jsErrCode() != kStreamNotFound)
            return total.error();
        qos2InExists = bool(total);
        if (total) {
            out.qos2IncomingTotal = *total;
            auto walked = walk(js, MqttLayout::qos2InStream(), inFilter, 1, options.limit, options, [&](const Got &got) {
                const Qos2Records::Record r = qos2RecordFrom(got);
                out.qos2Incoming.append({r.packetId, r.seq, r.subject, r.topic, r.retain, r.size, r.time, r.problem});
                return true;
            });
            if (!walked)
                return walked.error();
        }
    }

    // PUBRELs waiting for a PUBCOMP: $MQTT.out.pubrel.<hash>.
    const QString outSubject = QStringLiteral("$MQTT.out.pubrel.") + entry.hash;
    auto total = countOn(account, options, MqttLayout::outStream(), outSubject);
    if (!total && total.error().jsErrCode() != kStreamNotFound)
        return total.error();
    const bool outExists = bool(total);
    if (total) {
        out.pubrelTotal = *total;
        auto walked = walk(js, MqttLayout::outStream(), outSubject, 1, options.limit, options, [&](const Got &got) {
            const Qos2Records::Record r = qos2RecordFrom(got);
            out.pubrelPending.append({r.packetId, r.seq, r.time, r.problem});
            return true;
        });
        if (!walked)
            return walked.error();
    }
    out.qos2Streams = qos2InExists && outExists;
    out.qos2InStream = qos2InExists;
    out.outStream = outExists;
    if (const QString note = missingQos2StreamsNote(options.dialect, qos2InExists, outExists); !note.isEmpty())
        out.notes.prepend(note);
    return out;
}

Result<Qos2Records> readQos2Records(const std::shared_ptr<NatsConnection> &account, const Options &options)
{
    Qos2Records out;
    auto in = readWholeStream(account, options, MqttLayout::qos2InStream(), out.records);
    if (!in)
        return in.error();
    out.qos2InExists = *in;
    auto pubrel = readWholeStream(account, options, MqttLayout::outStream(), out.records);
    if (!pubrel)
        return pubrel.error();
    out.outExists = *pubrel;
    return out;
}

Result<AccountInflight> readAccount(const std::shared_ptr<NatsConnection> &account, const QString &accountName, const Options &options)
{
    AccountInflight out;
    out.account = accountName;
    out.now = QDateTime::currentDateTimeUtc();
    JetStreamClient js(account, options.domain);

    // The sessions that exist: the subjects of $MQTT_sess (no record read yet).
    StreamIndex index(account, options.domain);
    auto subjects = index.subjectCounts(MqttLayout::sessionsStream(), QStringLiteral("$MQTT.sess.>"));
    if (!subjects)
        return subjects.error();
    QHash<QString, QString> subjectOfHash;
    for (const SubjectCount &s : *subjects)
        subjectOfHash.insert(s.subject.section(QLatin1Char('.'), -1), s.subject);

    auto qos2 = readQos2Records(account, options);
    if (!qos2)
        return qos2.error();
    out.qos2Streams = qos2->qos2InExists && qos2->outExists;
    if (const QString note = missingQos2StreamsNote(options.dialect, qos2->qos2InExists, qos2->outExists); !note.isEmpty())
        out.notes << note;

    QHash<QString, AccountInflight::Session> byHash;
    auto sessionOf = [&](const QString &hash) -> AccountInflight::Session & {
        AccountInflight::Session &s = byHash[hash];
        s.hash = hash;
        s.subject = subjectOfHash.value(hash);
        return s;
    };
    const QSet<QString> hashes(subjectOfHash.keyBegin(), subjectOfHash.keyEnd());
    for (const Qos2Records::Record &r : std::as_const(qos2->records)) {
        if (!hashes.contains(r.hash))
            continue;
        AccountInflight::Session &s = sessionOf(r.hash);
        const bool incoming = r.stream == MqttLayout::qos2InStream();
        QDateTime &oldest = incoming ? s.oldestQos2Incoming : s.oldestPubrel;
        (incoming ? s.qos2Incoming : s.pubrelPending) += 1;
        (incoming ? s.qos2PacketIds : s.pubrelPacketIds).append(r.packetId);
        if (incoming && s.clientId.isEmpty())
            s.clientId = r.clientId;
        if (r.time.isValid() && (!oldest.isValid() || r.time < oldest))
            oldest = r.time;
    }
    out.orphans = qos2->orphans(hashes);

    // The oldest queued message of each session: one get per durable with something pending.
    auto consumers = js.consumerListAllowUnavailable(MqttLayout::messagesStream());
    if (!consumers && consumers.error().jsErrCode() != kStreamNotFound)
        return consumers.error();
    if (!consumers)
        out.notes << missingMessagesStreamNote();
    for (const QJsonObject &info : consumers ? *consumers : QList<QJsonObject>{}) {
        const DurableState d = DurableState::from(info);
        const QString hash = MqttLayout::durableOwnerHash(MqttLayout::messagesStream(), d.name);
        if (hash.isEmpty() || !hashes.contains(hash) || d.pending() <= 0)
            continue;
        AccountInflight::Session &s = sessionOf(hash);
        s.queuedTotal += d.pending();
        auto first = queuedOf(js, d, 1, options);
        if (!first)
            return first.error();
        if (!first->isEmpty() && (!s.oldestQueued || first->first().seq < s.oldestQueued->seq))
            s.oldestQueued = first->first();
    }

    // Client IDs from the records of the sessions shown.
    const QString getSess = QStringLiteral("STREAM.MSG.GET.") + MqttLayout::sessionsStream();
    for (auto it = byHash.begin(); it != byHash.end(); ++it) {
        if (!it->clientId.isEmpty() || it->subject.isEmpty())
            continue;
        if (cancelled(options))
            return Error(Error::Kind::Internal, QStringLiteral("reading the sessions was cancelled"));
        auto reply = js.call(getSess, QJsonObject{{QStringLiteral("last_by_subj"), it->subject}});
        if (!reply)
            continue; // deleted meanwhile: shown by its hash
        auto msg = StoredMessage::fromJson(*reply);
        if (!msg)
            continue;
        if (auto rec = SessionRecord::decode(msg->data))
            it->clientId = rec->id;
    }
    out.sessions = byHash.values();
    std::sort(out.sessions.begin(), out.sessions.end(), [](const AccountInflight::Session &a, const AccountInflight::Session &b) {
        const QDateTime oa = a.oldest(), ob = b.oldest();
        if (oa.isValid() != ob.isValid())
            return oa.isValid();
        if (oa != ob)
            return oa < ob;
        return a.hash < b.hash;
    });
    return out;
}

} // namespace MqttDoctor::InflightReader
