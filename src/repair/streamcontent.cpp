#include "repair/streamcontent.h"

#include <algorithm>

#include <QJsonDocument>

#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"

namespace MqttDoctor {

namespace StreamContent {

namespace {

bool cancelled(const StreamReader::Options &options)
{
    return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

// A whole stream: every live sequence, fetched in chunks so each batch is complete and sorted.
Result<ReadSummary> readBySequence(const std::shared_ptr<NatsConnection> &connection, const QString &domain, const QString &stream,
                                   const StreamReader::Options &options, const StreamReader::BatchHandler &onBatch)
{
    auto map = StreamIndex(connection, domain).sequenceMap(stream);
    MessageGetter getter(connection, domain);
    if (!map)
        return map.error();
    // The range the state reports must fit the message count. 2.9.10 serving a store a 2.10+ server
    // wrote reports ranges up to 2^62 + n (the newer server's delete tombstones): listing them would never end.
    const quint64 range =
        map->lastSequence >= map->firstSequence && map->firstSequence > 0 ? map->lastSequence - map->firstSequence + 1 : 0;
    if (range > 20'000'000 && range > 4 * map->messages + 100000)
        return Error(Error::Kind::Internal,
                     QStringLiteral("reading %1: the server reports sequences %2 to %3 for %4 messages, too sparse to read by sequence")
                         .arg(stream)
                         .arg(map->firstSequence)
                         .arg(map->lastSequence)
                         .arg(map->messages),
                     QStringLiteral("if a 2.9 server serves streams a 2.10+ server wrote, upgrade it again first"));
    const QList<quint64> sequences = map->liveSequences();
    // More messages than live sequences cannot be: 2.9.10 serving a 2.10+ store counts the newer server's
    // delete tombstones as messages and brings deleted records back (10 messages in sequences 1 to 7,
    // three of them unreadable). A read by sequence would miss messages without noticing.
    if (map->messages > quint64(sequences.size()))
        return Error(Error::Kind::Protocol,
                     QStringLiteral("reading %1: the server reports %2 messages but only %3 live sequences (%4 to %5): its view of the "
                                    "stream is inconsistent, a read would be incomplete")
                         .arg(stream)
                         .arg(map->messages)
                         .arg(sequences.size())
                         .arg(map->firstSequence)
                         .arg(map->lastSequence),
                     QStringLiteral("if a 2.9 server serves streams a 2.10+ server wrote, serve them with a 2.10+ server again first"));
    ReadSummary summary;
    const qsizetype chunkSize = std::max(1, options.batchSize);
    for (qsizetype start = 0; start < sequences.size(); start += chunkSize) {
        if (cancelled(options)) {
            summary.cancelled = true;
            return summary;
        }
        const QList<quint64> chunk = sequences.mid(start, chunkSize);
        StreamReader::Options chunkOptions = options;
        chunkOptions.batchSize = int(chunk.size());
        QList<StreamMessage> got;
        auto r = getter.getBySequences(stream, chunk, chunkOptions, [&got](QList<StreamMessage> &&batch, const ReadProgress &) {
            got.append(std::move(batch));
            return true;
        });
        if (!r)
            return r.error();
        if (r->cancelled) {
            summary.cancelled = true;
            return summary;
        }
        summary.deleted += r->deleted;
        got.removeIf([](const StreamMessage &m) { return m.deleted; });
        std::sort(got.begin(), got.end(), [](const StreamMessage &a, const StreamMessage &b) { return a.sequence < b.sequence; });
        if (!got.isEmpty())
            summary.lastSequence = std::max(summary.lastSequence, got.last().sequence);
        summary.delivered += quint64(got.size());
        const ReadProgress progress{quint64(start + chunk.size()), quint64(sequences.size())};
        if (!onBatch(std::move(got), progress)) {
            summary.cancelled = true;
            return summary;
        }
    }
    return summary;
}

// Interest stream, one subject: walk `next_by_subj` from the first sequence, one request per message.
Result<ReadSummary> readSubjectWalk(const std::shared_ptr<NatsConnection> &connection, const QString &domain, const QString &stream,
                                    const QString &subject, const StreamReader::Options &options, const StreamReader::BatchHandler &onBatch)
{
    JetStreamClient js(connection, domain);
    const QString op = QStringLiteral("STREAM.MSG.GET.") + stream;
    ReadSummary summary;
    QList<StreamMessage> batch;
    const qsizetype batchSize = std::max(1, options.batchSize);
    quint64 next = 1;
    for (;;) {
        if (cancelled(options)) {
            summary.cancelled = true;
            return summary;
        }
        auto reply = js.call(op, QJsonObject{{QStringLiteral("seq"), qint64(next)}, {QStringLiteral("next_by_subj"), subject}});
        if (!reply && reply.error().jsErrCode() != JsErrors::NoMessageFound)
            return reply.error();
        const bool end = !reply;
        if (!end) {
            const QJsonValue msgValue = reply->value(QLatin1String("message"));
            const QJsonObject msg = msgValue.toObject();
            const QJsonValue seqValue = msg.value(QLatin1String("seq"));
            // A sequence is 1 .. 2^53 in JSON; anything else (missing, negative, a string) would wrap `next` around.
            if (!msgValue.isObject() || !seqValue.isDouble() || seqValue.toDouble() < 1 || seqValue.toDouble() > 9007199254740992.0
                || !msg.value(QLatin1String("subject")).isString())
                return Error(Error::Kind::Protocol,
                             QStringLiteral("reading %1 on %2: malformed STREAM.MSG.GET reply (no message object "
                                            "with a sequence and a subject): %3")
                                 .arg(stream, subject, QString::fromUtf8(QJsonDocument(*reply).toJson(QJsonDocument::Compact).left(200))));
            StreamMessage m;
            m.subject = msg.value(QLatin1String("subject")).toString();
            m.sequence = quint64(seqValue.toInteger());
            m.timeNs = MessageGetter::parseTimeNs(msg.value(QLatin1String("time")).toString());
            m.data = QByteArray::fromBase64(msg.value(QLatin1String("data")).toString().toLatin1());
            const QString hdrs = msg.value(QLatin1String("hdrs")).toString();
            if (!hdrs.isEmpty())
                m.headers = QByteArray::fromBase64(hdrs.toLatin1());
            if (m.sequence < next)
                return Error(Error::Kind::Protocol,
                             QStringLiteral("reading %1 on %2: the server answered sequence %3 for a request from %4")
                                 .arg(stream, subject)
                                 .arg(m.sequence)
                                 .arg(next));
            next = m.sequence + 1;
            summary.lastSequence = m.sequence;
            batch.append(std::move(m));
        }
        if (!batch.isEmpty() && (end || batch.size() >= batchSize)) {
            summary.delivered += quint64(batch.size());
            const ReadProgress progress{summary.delivered, 0};
            if (!onBatch(std::move(batch), progress)) {
                summary.cancelled = true;
                return summary;
            }
            batch = QList<StreamMessage>();
        }
        if (end)
            return summary;
    }
}

} // namespace

bool readsWithoutConsumer(const QJsonObject &config)
{
    const QString retention = config.value(QLatin1String("retention")).toString();
    return retention == QLatin1String("interest") || retention == QLatin1String("workqueue");
}

Result<ReadSummary> read(const std::shared_ptr<NatsConnection> &connection, const QString &domain, const QString &stream,
                         const QJsonObject &config, const QString &subject, const StreamReader::Options &options,
                         const StreamReader::BatchHandler &onBatch)
{
    StreamReader reader(connection, domain);
    // A whole stream is read by sequence whatever its retention: a consumer needs a filter, and the
    // configured subjects miss messages stored before a subjects change (2.9 retained messages left on
    // `$MQTT.rmsgs` in a 2.10+ stream, exactly what a repair is about to move); a wildcard consumer on
    // a store a newer server wrote can also hang a 2.9.10 server (accountrecordaccess.cpp).
    if (subject.isEmpty())
        return readBySequence(connection, domain, stream, options, onBatch);
    if (!readsWithoutConsumer(config))
        return reader.readAll(stream, subject, options, onBatch);
    return readSubjectWalk(connection, domain, stream, subject, options, onBatch);
}

} // namespace StreamContent

} // namespace MqttDoctor
