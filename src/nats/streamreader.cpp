#include "streamreader.h"

#include <nats/nats.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QVarLengthArray>

#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/natsconnectionhandle.h"
#include "nats/natserrors.h"

namespace MqttDoctor {

namespace {

constexpr int PollMs = 100;  // NextMsg slice: how quickly a cancel is noticed

bool isCancelled(const StreamReader::Options &options)
{
    return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

Error natsError(natsStatus s, const QString &what)
{
    Error e(s == NATS_TIMEOUT ? Error::Kind::Timeout
                              : (s == NATS_NO_RESPONDERS ? Error::Kind::NoResponders : Error::Kind::Internal),
            what + QStringLiteral(": ") + NatsErrors::statusText(s));
    e.withNatsStatus(s);
    return e;
}

Error jsError(natsStatus s, jsErrCode jerr, const QString &what)
{
    if (jerr == 0)
        return natsError(s, what);
    const int code = static_cast<int>(jerr);
    Error e(code == 10059 || code == 10014 ? Error::Kind::NotFound : Error::Kind::JetStream,
            QStringLiteral("%1: JetStream error %2 (%3)").arg(what, QString::number(code), NatsErrors::statusText(s)));
    e.withNatsStatus(s).withJsErrCode(code);
    return e;
}

// nats.c reports a refused publish or subscribe only to the error handler; the call itself times out.
Error deniedOr(NatsConnection &connection, quint64 mark, const QString &what, Error fallback)
{
    const QString violation = connection.permissionViolationSince(mark);
    if (violation.isEmpty())
        return fallback;
    return Error(Error::Kind::PermissionDenied, what + QStringLiteral(": the server refused it: ") + violation,
                 QStringLiteral("the user needs permission for the account's JetStream API ($JS.API.>) and its reply inbox"))
        .withNatsStatus(NATS_NOT_PERMITTED);
}

Error idleError(const QString &stream, int idleMs, quint64 done)
{
    return Error(Error::Kind::Timeout,
                 QStringLiteral("reading stream %1: the server delivered nothing for %2 ms after %3 messages")
                     .arg(stream, QString::number(idleMs), QString::number(done)),
                 QStringLiteral("the stream leader may be unavailable; check the server and retry"));
}

// The header block exactly as received, without nats.c parsing it. nats.c 3.x keeps a received
// message in one allocation laid out as `subject\0 reply\0 headers\0 data\0` and exposes no getter
// for the raw block; this reads it between the reply and the data, only when that region has the
// exact shape of a header block (`NATS/1.0...\r\n\r\n` followed by the terminating NUL, no NUL
// inside). Anything else (another layout, no reply subject) returns false and the caller rebuilds
// the block from nats.c's parsed headers.
bool layoutAsExpected()
{
    // Only on the nats.c release this was verified against (3.4.x, the same at build and run time),
    // checked once on a message of our own: subject, reply and data back to back.
    static const bool ok = [] {
        if (std::strcmp(nats_GetVersion(), NATS_VERSION_STRING) != 0)
            return false;
        natsMsg *probe = nullptr;
        if (natsMsg_Create(&probe, "s", "r", "dd", 2) != NATS_OK || !probe)
            return false;
        const bool same = natsMsg_GetSubject(probe) + 2 == natsMsg_GetReply(probe)
                          && natsMsg_GetReply(probe) + 2 == natsMsg_GetData(probe);
        natsMsg_Destroy(probe);
        return same;
    }();
    return ok;
}

bool rawHeaderBlock(natsMsg *m, const char *data, QByteArray &out)
{
#if NATS_VERSION_MAJOR == 3 && NATS_VERSION_MINOR == 4
    if (!layoutAsExpected())
        return false;
    const char *reply = natsMsg_GetReply(m);
    if (!reply || !data)
        return false;
    const char *start = reply + std::strlen(reply) + 1;
    if (start == data)
        return true;  // no header block
    if (start > data || data - start > 1024 * 1024 || data - start < 13 || data[-1] != '\0')
        return false;
    const qsizetype len = qsizetype(data - start - 1);
    if (std::memcmp(start, "NATS/1.0", 8) != 0 || std::memcmp(start + len - 4, "\r\n\r\n", 4) != 0
        || std::memchr(start, '\0', size_t(len)) != nullptr)
        return false;
    out = QByteArray(start, len);
    return true;
#else
    Q_UNUSED(m);
    Q_UNUSED(data);
    Q_UNUSED(out);
    return false;
#endif
}

// Copies one nats.c message into Qt values.
void copyMessage(natsMsg *m, StreamMessage &out)
{
    const char *subject = natsMsg_GetSubject(m);
    out.subject = QString::fromUtf8(subject, qsizetype(std::strlen(subject)));
    const char *data = natsMsg_GetData(m);
    const int len = natsMsg_GetDataLength(m);
    if (data && len > 0)
        out.data = QByteArray(data, len);
    if (rawHeaderBlock(m, data, out.headers))
        return;
    const char **keys = nullptr;
    int count = 0;
    if (natsMsgHeader_Keys(m, &keys, &count) == NATS_OK && keys) {
        // Built on the stack, then one exact allocation: 100,000 kept values must not carry spare capacity.
        QVarLengthArray<char, 512> block;
        auto add = [&block](const char *text, qsizetype n) { block.append(text, n); };
        add("NATS/1.0\r\n", 10);
        for (int i = 0; i < count; ++i) {
            const char **values = nullptr;
            int n = 0;
            if (natsMsgHeader_Values(m, keys[i], &values, &n) == NATS_OK && values) {
                const qsizetype keyLen = qsizetype(std::strlen(keys[i]));
                for (int j = 0; j < n; ++j) {
                    add(keys[i], keyLen);
                    add(":", 1);
                    add(values[j], qsizetype(std::strlen(values[j])));
                    add("\r\n", 2);
                }
                free(static_cast<void *>(values));
            }
        }
        add("\r\n", 2);
        free(static_cast<void *>(keys));
        out.headers = QByteArray(block.constData(), block.size());
    }
}

} // namespace

QList<quint64> SequenceMap::liveSequences() const
{
    QList<quint64> out;
    if (lastSequence < firstSequence || firstSequence == 0)
        return out;
    out.reserve(static_cast<qsizetype>(std::min<quint64>(lastSequence - firstSequence + 1, 50'000'000)));
    auto del = deleted.cbegin();
    for (quint64 s = firstSequence; s <= lastSequence; ++s) {
        while (del != deleted.cend() && *del < s)
            ++del;
        if (del != deleted.cend() && *del == s)
            continue;
        out.append(s);
    }
    return out;
}

StreamReader::StreamReader(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{
}

StreamReader::~StreamReader() = default;

Result<ReadSummary> StreamReader::readLastPerSubject(const QString &stream, const QString &filterSubject,
                                                     const Options &options, const BatchHandler &onBatch)
{
    return readOrdered(stream, filterSubject, true, options, onBatch);
}

Result<ReadSummary> StreamReader::readAll(const QString &stream, const QString &filterSubject, const Options &options,
                                          const BatchHandler &onBatch)
{
    return readOrdered(stream, filterSubject, false, options, onBatch);
}

Result<ReadSummary> StreamReader::readOrdered(const QString &stream, const QString &filterSubject, bool lastPerSubject,
                                              const Options &options, const BatchHandler &onBatch)
{
    const QString what = QStringLiteral("reading stream ") + stream;
    QString subject = filterSubject;
    bool deliverLastPerSubject = lastPerSubject;
    if (subject.isEmpty() || lastPerSubject) {
        // One cheap STREAM.INFO (no subject details): the consumer needs a filter, and a stream with
        // one subject is read through that subject, which every server version accepts. A stream
        // that keeps one message per subject (`$MQTT_sess`, 2.10+ `$MQTT_rmsgs`) holds only last
        // messages, so "all" reads the same set without the server's per-subject start scan
        // (measured ~0.4 s before the first message with 100k subjects on 2.9.10; verified-environment §C).
        JetStreamClient js(m_connection, m_domain);
        auto info = js.streamInfo(stream);
        if (!info)
            return Error(info.error()).prefixed(what);
        const QJsonObject config = info->value(QLatin1String("config")).toObject();
        if (subject.isEmpty()) {
            const QJsonArray subjects = config.value(QLatin1String("subjects")).toArray();
            subject = subjects.size() == 1 ? subjects.first().toString() : QStringLiteral(">");
        }
        if (config.value(QLatin1String("max_msgs_per_subject")).toInteger() == 1)
            deliverLastPerSubject = false;
        if (info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger() == 0)
            return ReadSummary{};
    }

    natsConnection *nc = natsHandle(*m_connection);
    const quint64 mark = m_connection->asyncErrorMark();
    const QByteArray domain = m_domain.toUtf8();
    const QByteArray streamUtf8 = stream.toUtf8();
    const QByteArray subjectUtf8 = subject.toUtf8();

    jsOptions jo;
    jsOptions_Init(&jo);
    if (!domain.isEmpty())
        jo.Domain = domain.constData();
    jo.Wait = m_connection->timeoutMs();
    jsCtx *js = nullptr;
    natsStatus s = natsConnection_JetStream(&js, nc, &jo);
    if (s != NATS_OK)
        return natsError(s, what);
    auto destroyJs = qScopeGuard([js] { jsCtx_Destroy(js); });

    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Stream = streamUtf8.constData();
    so.Ordered = true;
    so.Config.DeliverPolicy = deliverLastPerSubject ? js_DeliverLastPerSubject : js_DeliverAll;
    natsSubscription *sub = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    s = js_SubscribeSync(&sub, js, subjectUtf8.constData(), &jo, &so, &jerr);
    if (s != NATS_OK) {
        // nats.c creates the consumer itself ($JS.API.CONSUMER.CREATE.<stream>): say that step failed.
        const QString step = what + QStringLiteral(": creating its read-only ordered consumer (%1) failed")
                                        .arg(JetStreamClient(m_connection, m_domain).apiSubject(QStringLiteral("CONSUMER.CREATE.") + stream));
        Error e = jsError(s, jerr, step);
        if (s == NATS_TIMEOUT && jerr == 0)
            e = Error(Error::Kind::Timeout, step + QStringLiteral(": no reply within %1 ms").arg(jo.Wait),
                      QStringLiteral("the account's JetStream may be unavailable; check the server and retry")).withNatsStatus(s);
        else if (jerr == 0) {
            natsStatus ignored = NATS_OK;
            const char *text = nats_GetLastError(&ignored);
            e = Error(Error::Kind::Protocol, step + QStringLiteral(": ") + (text && *text ? QString::fromUtf8(text) : NatsErrors::statusText(s)))
                    .withNatsStatus(s);
        }
        return deniedOr(*m_connection, mark, what, e);
    }
    auto destroySub = qScopeGuard([sub] {
        natsSubscription_Unsubscribe(sub);  // deletes the ephemeral consumer
        natsSubscription_Destroy(sub);
    });
    natsSubscription_SetPendingLimits(sub, -1, -1);

    ReadSummary summary;
    ReadProgress progress;
    // Nothing matches the filter: nothing arrives, and the consumer has nothing pending and has
    // delivered nothing. Asked only after a quiet spell: the consumer info costs the server a
    // pending count (hundreds of ms with 100k subjects) that a normal read never waits for.
    bool emptyChecked = false;
    auto nothingMatches = [&]() -> bool {
        emptyChecked = true;
        jsConsumerInfo *ci = nullptr;
        jsErrCode cerr = static_cast<jsErrCode>(0);
        bool empty = false;
        if (natsSubscription_GetConsumerInfo(&ci, sub, &jo, &cerr) == NATS_OK && ci) {
            empty = ci->NumPending == 0 && ci->Delivered.Consumer == 0;
            jsConsumerInfo_Destroy(ci);
        }
        return empty;
    };

    const int batchSize = std::max(1, options.batchSize);
    QList<StreamMessage> batch;
    batch.reserve(batchSize);
    QElapsedTimer idle;
    idle.start();
    for (;;) {
        if (isCancelled(options)) {
            summary.cancelled = true;
            return summary;
        }
        natsMsg *m = nullptr;
        s = natsSubscription_NextMsg(&m, sub, PollMs);
        if (s == NATS_TIMEOUT) {
            if (summary.delivered == 0 && batch.isEmpty() && !emptyChecked && idle.elapsed() >= 3 * PollMs
                && nothingMatches())
                return summary;
            if (idle.elapsed() > options.idleTimeoutMs)
                return deniedOr(*m_connection, mark, what,
                                idleError(stream, options.idleTimeoutMs, summary.delivered + quint64(batch.size())));
            continue;
        }
        if (s != NATS_OK)
            return natsError(s, what);
        idle.restart();

        quint64 pending = 1;  // without metadata (never seen from an ordered consumer) keep reading
        StreamMessage &out = batch.emplace_back();
        jsMsgMetaData *md = nullptr;
        if (natsMsg_GetMetaData(&md, m) == NATS_OK && md) {
            out.sequence = md->Sequence.Stream;
            out.timeNs = md->Timestamp;
            pending = md->NumPending;
            jsMsgMetaData_Destroy(md);
        }
        copyMessage(m, out);
        natsMsg_Destroy(m);
        summary.lastSequence = std::max(summary.lastSequence, out.sequence);

        if (batch.size() >= batchSize || pending == 0) {
            summary.delivered += quint64(batch.size());
            progress.done = summary.delivered;
            progress.total = summary.delivered + pending;
            const bool more = onBatch(std::move(batch), progress);
            batch = QList<StreamMessage>();
            if (pending == 0)
                return summary;
            if (!more) {
                summary.cancelled = true;
                return summary;
            }
            batch.reserve(batchSize);
        }
    }
}

Result<ReadSummary> StreamReader::getBySequences(const QString &stream, const QList<quint64> &sequences,
                                                 const Options &options, const BatchHandler &onBatch)
{
    const QString what = QStringLiteral("reading stream ") + stream + QStringLiteral(" by sequence");
    ReadSummary summary;
    if (sequences.isEmpty())
        return summary;

    natsConnection *nc = natsHandle(*m_connection);
    const quint64 mark = m_connection->asyncErrorMark();
    natsInbox *inbox = nullptr;
    natsStatus s = natsInbox_Create(&inbox);
    if (s != NATS_OK)
        return natsError(s, what);
    const QByteArray prefix = QByteArray(inbox) + '.';
    natsInbox_Destroy(inbox);

    natsSubscription *sub = nullptr;
    const QByteArray wildcard = prefix + '*';
    s = natsConnection_SubscribeSync(&sub, nc, wildcard.constData());
    if (s != NATS_OK)
        return natsError(s, what);
    auto destroySub = qScopeGuard([sub] {
        natsSubscription_Unsubscribe(sub);
        natsSubscription_Destroy(sub);
    });
    natsSubscription_SetPendingLimits(sub, -1, -1);

    const QByteArray api = JetStreamClient(m_connection, m_domain)
                               .apiSubject(QStringLiteral("STREAM.MSG.GET.") + stream)
                               .toUtf8();
    const qsizetype total = sequences.size();
    const int inFlightMax = std::max(1, options.inFlight);
    const int batchSize = std::max(1, options.batchSize);
    const int timeoutMs = std::max(options.idleTimeoutMs, 1);

    QList<bool> answered(total, false);
    qsizetype sent = 0;
    qsizetype received = 0;
    QList<StreamMessage> batch;
    batch.reserve(batchSize);
    ReadProgress progress;
    progress.total = quint64(total);

    auto flushBatch = [&]() -> bool {
        std::sort(batch.begin(), batch.end(),
                  [](const StreamMessage &a, const StreamMessage &b) { return a.sequence < b.sequence; });
        summary.delivered += quint64(batch.size());
        progress.done = summary.delivered;
        const bool more = onBatch(std::move(batch), progress);
        batch = QList<StreamMessage>();
        batch.reserve(batchSize);
        return more;
    };

    QElapsedTimer idle;
    idle.start();
    while (received < total) {
        if (isCancelled(options)) {
            summary.cancelled = true;
            return summary;
        }
        while (sent < total && sent - received < inFlightMax) {
            const QByteArray reply = prefix + QByteArray::number(sent);
            const QByteArray body = "{\"seq\":" + QByteArray::number(sequences.at(sent)) + '}';
            s = natsConnection_PublishRequest(nc, api.constData(), reply.constData(), body.constData(),
                                              static_cast<int>(body.size()));
            if (s != NATS_OK)
                return natsError(s, what);
            ++sent;
        }
        natsMsg *m = nullptr;
        s = natsSubscription_NextMsg(&m, sub, PollMs);
        if (s == NATS_TIMEOUT) {
            if (const QString v = m_connection->permissionViolationSince(mark); !v.isEmpty())
                return deniedOr(*m_connection, mark, what, Error());
            if (idle.elapsed() > timeoutMs)
                return Error(Error::Kind::Timeout,
                             QStringLiteral("%1: no reply for %2 ms (%3 of %4 answered)")
                                 .arg(what, QString::number(timeoutMs), QString::number(received), QString::number(total)),
                             QStringLiteral("check that JetStream is available for the account and retry"));
            continue;
        }
        if (s != NATS_OK)
            return natsError(s, what);
        idle.restart();

        const QByteArray replySubject(natsMsg_GetSubject(m));
        const int dataLen = natsMsg_GetDataLength(m);
        const QByteArray payload(natsMsg_GetData(m), std::max(dataLen, 0));
        const bool noResponders = natsMsg_IsNoResponders(m);
        natsMsg_Destroy(m);
        bool okIndex = false;
        const qsizetype index = replySubject.mid(prefix.size()).toLongLong(&okIndex);
        if (!okIndex || index < 0 || index >= sent || answered.at(index))
            continue;  // not ours, or a duplicate
        answered[index] = true;
        ++received;

        const QString op = QStringLiteral("STREAM.MSG.GET.") + stream;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(payload, &parseError);
        if (noResponders)
            return Error(Error::Kind::JetStream, what + QStringLiteral(": no JetStream responds for this account"),
                         QStringLiteral("JetStream is not enabled for the account, or the domain is wrong"))
                .withJsErrCode(10039);
        if (!doc.isObject())
            return JetStreamClient::malformed(op, QStringLiteral("the reply for sequence %1 is not a JSON object: %2")
                                                      .arg(sequences.at(index)).arg(QString::fromUtf8(payload.left(120)).simplified()));
        const QJsonObject obj = doc.object();
        StreamMessage &out = batch.emplace_back();
        out.sequence = sequences.at(index);
        if (obj.contains(QLatin1String("error"))) {
            if (!obj.value(QLatin1String("error")).isObject())
                return JetStreamClient::malformed(op, QStringLiteral("\"error\" is not an object"));
            const QJsonObject err = obj.value(QLatin1String("error")).toObject();
            if (err.value(QLatin1String("err_code")).toInt() == 10037) {
                out.deleted = true;
                ++summary.deleted;
            } else {
                return JetStreamClient::errorFromReply(err, QStringLiteral("STREAM.MSG.GET.") + stream);
            }
        } else if (obj.value(QLatin1String("message")).isObject()) {
            const QJsonObject msg = obj.value(QLatin1String("message")).toObject();
            out.subject = msg.value(QLatin1String("subject")).toString();
            if (msg.value(QLatin1String("seq")).toInteger(-1) != qint64(sequences.at(index)) || out.subject.isEmpty())
                return JetStreamClient::malformed(op, QStringLiteral("asked for sequence %1, the reply holds %2")
                                                          .arg(sequences.at(index))
                                                          .arg(out.subject.isEmpty() ? QStringLiteral("a message without a subject")
                                                                                     : QStringLiteral("sequence ") + msg.value(QLatin1String("seq")).toVariant().toString().left(40)));
            out.sequence = quint64(msg.value(QLatin1String("seq")).toInteger());
            out.timeNs = parseTimeNs(msg.value(QLatin1String("time")).toString());
            out.data = QByteArray::fromBase64(msg.value(QLatin1String("data")).toString().toLatin1());
            const QString hdrs = msg.value(QLatin1String("hdrs")).toString();
            if (!hdrs.isEmpty())
                out.headers = QByteArray::fromBase64(hdrs.toLatin1());
        } else {
            return JetStreamClient::malformed(op, QStringLiteral("the reply for sequence %1 holds neither a message object nor an error: %2")
                                                      .arg(sequences.at(index)).arg(QString::fromUtf8(payload.left(120)).simplified()));
        }
        summary.lastSequence = std::max(summary.lastSequence, out.sequence);

        if (batch.size() >= batchSize || received == total) {
            if (!flushBatch() && received < total) {
                summary.cancelled = true;
                return summary;
            }
        }
    }
    return summary;
}

Result<SequenceMap> StreamReader::sequenceMap(const QString &stream)
{
    JetStreamClient js(m_connection, m_domain);
    QJsonObject body;
    body.insert(QStringLiteral("deleted_details"), true);
    const QString op = QStringLiteral("STREAM.INFO.") + stream;
    auto info = js.call(op, body);
    if (!info)
        return info.error();
    if (auto ok = JetStreamClient::checkStreamInfo(*info, op, stream); !ok)
        return ok.error();
    const QJsonObject state = info->value(QLatin1String("state")).toObject();
    SequenceMap map;
    map.messages = quint64(state.value(QLatin1String("messages")).toInteger());
    map.firstSequence = quint64(state.value(QLatin1String("first_seq")).toInteger());
    map.lastSequence = quint64(state.value(QLatin1String("last_seq")).toInteger());
    const QJsonValue deletedValue = state.value(QLatin1String("deleted"));
    if (!deletedValue.isUndefined() && !deletedValue.isNull() && !deletedValue.isArray())
        return JetStreamClient::malformed(op, QStringLiteral("state.deleted is not an array"));
    const QJsonArray deleted = deletedValue.toArray();
    map.deleted.reserve(deleted.size());
    for (const QJsonValue &v : deleted) {
        const qint64 seq = v.toInteger(-1);  // 2.10 lists sequence 0 for a recreated empty stream
        if (seq < 0 || !v.isDouble())
            return JetStreamClient::malformed(op, QStringLiteral("state.deleted holds something other than sequence numbers"));
        map.deleted.append(quint64(seq));
    }
    std::sort(map.deleted.begin(), map.deleted.end());
    map.deleted.erase(std::unique(map.deleted.begin(), map.deleted.end()), map.deleted.end());
    // The live sequences are enumerated from this: the range must agree with the message count, or
    // a bogus last_seq would have the caller list (and request) billions of sequences.
    if (map.lastSequence >= map.firstSequence && map.firstSequence > 0) {
        const quint64 range = map.lastSequence - map.firstSequence + 1;
        quint64 inside = 0;
        for (quint64 d : std::as_const(map.deleted))
            inside += (d >= map.firstSequence && d <= map.lastSequence) ? 1 : 0;
        // Same bound as StreamContent's: a real, dense stream passes; 2.9.10 serving a 2.10+ store was
        // seen reporting about a billion sequences for a handful of messages.
        // Past 100 million live sequences the list alone would take most of a machine's memory.
        if ((range - inside > 20'000'000 && range - inside > 4 * map.messages + 100000) || range - inside > 100'000'000)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("JetStream %1: sequences %2..%3 with %4 deleted cannot hold only %5 messages: too sparse to read by sequence")
                             .arg(op).arg(map.firstSequence).arg(map.lastSequence).arg(inside).arg(map.messages),
                         QStringLiteral("if a 2.9 server serves streams a 2.10+ server wrote, upgrade it again first; otherwise "
                                        "check what answers on $JS.API for this account"));
    }
    return map;
}

Result<QList<SubjectCount>> StreamReader::subjectCounts(const QString &stream, const QString &filter)
{
    JetStreamClient js(m_connection, m_domain);
    QList<SubjectCount> out;
    qint64 offset = 0;
    for (int page = 0; page < 100000; ++page) {
        QJsonObject body;
        body.insert(QStringLiteral("subjects_filter"), filter.isEmpty() ? QStringLiteral(">") : filter);
        if (offset > 0)
            body.insert(QStringLiteral("offset"), offset);
        const QString op = QStringLiteral("STREAM.INFO.") + stream;
        auto info = js.call(op, body);
        if (!info)
            return info.error();
        if (auto ok = JetStreamClient::checkStreamInfo(*info, op, stream); !ok)
            return ok.error();
        const QJsonValue subjectsValue = info->value(QLatin1String("state")).toObject().value(QLatin1String("subjects"));
        if (!subjectsValue.isUndefined() && !subjectsValue.isNull() && !subjectsValue.isObject())
            return JetStreamClient::malformed(op, QStringLiteral("state.subjects is not an object of subject counts"));
        const QJsonObject subjects = subjectsValue.toObject();
        for (auto it = subjects.constBegin(); it != subjects.constEnd(); ++it) {
            const qint64 n = it.value().toInteger(-1);
            if (n < 0)
                return JetStreamClient::malformed(op, QStringLiteral("the count of subject %1 is not a number").arg(it.key().left(100)));
            out.append({it.key(), quint64(n)});
        }
        offset += subjects.size();
        if (out.size() > 20'000'000)
            return JetStreamClient::malformed(op, QStringLiteral("more than 20,000,000 subjects"));
        const qint64 total = info->value(QLatin1String("total")).toInteger();
        if (subjects.isEmpty() || offset >= total || page == 99999)
            break;
    }
    std::sort(out.begin(), out.end(), [](const SubjectCount &a, const SubjectCount &b) { return a.subject < b.subject; });
    return out;
}

qint64 StreamReader::parseTimeNs(const QString &rfc3339)
{
    // QDateTime keeps milliseconds only: parse the fraction ourselves.
    QString text = rfc3339.trimmed();
    qint64 fractionNs = 0;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < text.size() && text.at(end).isDigit())
            ++end;
        QString digits = text.mid(dot + 1, end - dot - 1).left(9);
        while (digits.size() < 9)
            digits.append(QLatin1Char('0'));
        fractionNs = digits.toLongLong();
        text.remove(dot, end - dot);
    }
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODate);
    if (!dt.isValid())
        return 0;
    return dt.toSecsSinceEpoch() * 1000000000LL + fractionNs;
}

} // namespace MqttDoctor
