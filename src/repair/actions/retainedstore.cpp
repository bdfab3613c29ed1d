#include "repair/actions/retainedstore.h"

#include <QHash>
#include <QJsonDocument>

#include <algorithm>

#include "mqtt/mqttlayout.h"
#include "nats/jetstreamclient.h"
#include "mqtt/mqttstreamspec.h"
#include "nats/natsheaders.h"
#include "mqtt/storedmessage.h"
#include "nats/jserrors.h"
#include "nats/jetstreampublisher.h"
#include "nats/streamindex.h"
#include "repair/streamcontent.h"

namespace MqttDoctor::RetainedStore {

namespace {

const QString &stream()
{
    static const QString s = MqttLayout::retainedStream();
    return s;
}

constexpr int kSampleReplies = 3;

Error withContext(Error e, const QString &what)
{
    e.prefixed(what);
    return e;
}

/** The part of a STREAM.INFO / STREAM.UPDATE reply a report needs. */
QJsonObject summariseStream(const QJsonObject &reply)
{
    const QJsonObject config = reply.value(QLatin1String("config")).toObject();
    const QJsonObject state = reply.value(QLatin1String("state")).toObject();
    return QJsonObject{{QStringLiteral("type"), reply.value(QLatin1String("type"))},
                       {QStringLiteral("config"),
                        QJsonObject{{QStringLiteral("name"), config.value(QLatin1String("name"))},
                                    {QStringLiteral("subjects"), config.value(QLatin1String("subjects"))},
                                    {QStringLiteral("max_msgs_per_subject"), perSubjectLimit(config)}}},
                       {QStringLiteral("state"),
                        QJsonObject{{QStringLiteral("messages"), state.value(QLatin1String("messages"))},
                                    {QStringLiteral("last_seq"), state.value(QLatin1String("last_seq"))}}}};
}

QString misreadHint()
{
    return QStringLiteral("a 2.9 server serving a store a 2.10+ server wrote misreads it (deleted records come back, later ones "
                          "cannot be read): nothing was changed. Serve the account with a 2.10+ server again, or see "
                          "docs/findings.md RETAINED_DOWNGRADE");
}

} // namespace

Shape shapeOf(const QJsonObject &config)
{
    const QStringList subjects = MqttStreamSpec::subjectsOf(config);
    if (MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedLegacySubject()}))
        return Shape::Legacy;
    if (MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedSubjects()}))
        return Shape::Modern;
    return Shape::Other;
}

qint64 perSubjectLimit(const QJsonObject &config)
{
    const qint64 v = MqttStreamSpec::normalizedField(config, QStringLiteral("max_msgs_per_subject")).toInteger(-1);
    return v <= 0 ? -1 : v;
}

QString perSubjectSubject(const QString &natsSubject)
{
    return MqttLayout::retainedLegacySubject() + u'.' + natsSubject;
}

bool isPerSubject(const QString &storedSubject)
{
    return storedSubject.startsWith(MqttLayout::retainedLegacySubject() + u'.') && storedSubject.size() > 12;
}

Result<QList<StreamMessage>> readMessages(const ExecContext &ctx, const QString &subject)
{
    // StreamContent reads "interest" streams without a consumer: by sequence, or by next_by_subj walks.
    const QJsonObject noConsumer{{QStringLiteral("retention"), QStringLiteral("interest")}};
    StreamReader::Options options;
    options.cancel = ctx.cancel;
    QList<StreamMessage> out;
    auto read = StreamContent::read(ctx.target.connection, ctx.target.apiDomain, stream(), noConsumer, subject, options,
                                    [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                        out.append(std::move(batch));
                                        return true;
                                    });
    if (!read)
        return withContext(read.error(), QStringLiteral("reading %1%2").arg(stream(), subject.isEmpty() ? QString() : u' ' + subject));
    if (read->cancelled)
        return Error(Error::Kind::Internal, QStringLiteral("reading %1 was cancelled").arg(stream()));
    return out;
}

QString stateContradiction(const QJsonObject &state, const std::optional<quint64> &subjectTotal)
{
    const QJsonValue messagesValue = state.value(QLatin1String("messages"));
    const double messagesNumber = messagesValue.toDouble(-1);
    const double first = state.value(QLatin1String("first_seq")).toDouble(0);
    const double last = state.value(QLatin1String("last_seq")).toDouble(0);
    if (messagesNumber < 0 || first < 0 || last < 0)
        return QStringLiteral("the stream state has no message count or sequences");
    constexpr double kTombstoneBit = 4611686018427387904.0; // 1 << 62
    const quint64 messages = quint64(messagesNumber);
    if (first >= kTombstoneBit || last >= kTombstoneBit)
        return QStringLiteral("the server reports sequences %1 to %2: sequences from 2^62 up are delete tombstones a 2.10+ server "
                              "wrote, which this server reads as messages")
            .arg(state.value(QLatin1String("first_seq")).toInteger())
            .arg(state.value(QLatin1String("last_seq")).toInteger());
    if (messages > 0) {
        const quint64 range = last >= first && first > 0 ? quint64(last) - quint64(first) + 1 : 0;
        if (messages > range)
            return QStringLiteral("the server reports %1 messages in sequences %2 to %3 (at most %4 fit)")
                .arg(messages)
                .arg(quint64(first))
                .arg(quint64(last))
                .arg(range);
    }
    if (subjectTotal && *subjectTotal != messages)
        return QStringLiteral("the server reports %1 messages but its per-subject counts add up to %2").arg(messages).arg(*subjectTotal);
    return {};
}

Result<StoreState> consistentState(const ExecContext &ctx)
{
    auto info = ctx.api(QStringLiteral("STREAM.INFO.") + stream());
    if (!info)
        return withContext(info.error(), QStringLiteral("reading the state of %1").arg(stream()));
    StreamIndex index(ctx.target.connection, ctx.target.apiDomain);
    const QJsonObject state = info->value(QLatin1String("state")).toObject();
    // The sequence range first: a contradiction there is enough, and no subject listing is needed.
    if (const QString why = stateContradiction(state); !why.isEmpty())
        return Error(Error::Kind::Protocol, QStringLiteral("%1 cannot be read completely: %2").arg(stream(), why), misreadHint());
    auto counts = index.subjectCounts(stream(), QStringLiteral(">"));
    if (!counts)
        return withContext(counts.error(), QStringLiteral("reading the subjects of %1").arg(stream()));
    StoreState out;
    quint64 total = 0;
    for (const SubjectCount &c : std::as_const(*counts)) {
        out.subjects.insert(c.subject, c.messages);
        total += c.messages;
    }
    // The message count the subjects come from may move on meanwhile (a client storing one): read it again.
    auto again = ctx.api(QStringLiteral("STREAM.INFO.") + stream());
    if (!again)
        return withContext(again.error(), QStringLiteral("reading the state of %1").arg(stream()));
    const QJsonObject now = again->value(QLatin1String("state")).toObject();
    if (const QString why = stateContradiction(now, total); !why.isEmpty())
        return Error(Error::Kind::Protocol, QStringLiteral("%1 cannot be read completely: %2").arg(stream(), why), misreadHint());
    out.messages = quint64(now.value(QLatin1String("messages")).toInteger());
    out.firstSequence = quint64(now.value(QLatin1String("first_seq")).toInteger());
    out.lastSequence = quint64(now.value(QLatin1String("last_seq")).toInteger());
    return out;
}

Result<QHash<QString, qint64>> subjectCounts(const ExecContext &ctx, const QString &filter)
{
    auto info = ctx.api(QStringLiteral("STREAM.INFO.") + stream(), QJsonObject{{QStringLiteral("subjects_filter"), filter}});
    if (!info) {
        Error e = info.error();
        e.prefixed(QStringLiteral("reading the subjects of %1").arg(stream()));
        return e;
    }
    QHash<QString, qint64> out;
    const QJsonObject subjects = info->value(QLatin1String("state")).toObject().value(QLatin1String("subjects")).toObject();
    for (auto it = subjects.constBegin(); it != subjects.constEnd(); ++it)
        out.insert(it.key(), it.value().toInteger());
    return out;
}

Result<std::optional<QJsonObject>> currentConfig(const ExecContext &ctx)
{
    auto info = ctx.streamInfo(stream());
    if (!info)
        return info.error();
    if (!info->has_value())
        return std::optional<QJsonObject>();
    return std::optional<QJsonObject>((*info)->value(QLatin1String("config")).toObject());
}

Result<void> noneLeftOnLegacySubject(const ExecContext &ctx)
{
    auto counts = subjectCounts(ctx, MqttLayout::retainedLegacySubject());
    if (!counts)
        return counts.error();
    const qint64 left = counts->value(MqttLayout::retainedLegacySubject());
    if (left != 0)
        return Error(Error::Kind::Internal, QStringLiteral("%1 message(s) are still on $MQTT.rmsgs").arg(left));
    return {};
}

Result<RetainedRecord> decode(const StreamMessage &message)
{
    StoredMessage m;
    m.stream = stream();
    m.subject = message.subject;
    m.seq = message.sequence;
    m.headers = message.headers;
    m.data = message.data;
    auto r = RetainedRecord::decode(m);
    if (r) {
        r->storedSubject = message.subject;
        r->seq = message.sequence;
        if (r->subject.isEmpty() && isPerSubject(message.subject))
            r->subject = message.subject.mid(MqttLayout::retainedLegacySubject().size() + 1);
    }
    return r;
}

Result<QJsonObject> updateConfig(const ExecContext &ctx, const QJsonObject &changes)
{
    auto info = ctx.streamInfo(stream());
    if (!info)
        return withContext(info.error(), QStringLiteral("reading %1").arg(stream()));
    if (!info->has_value())
        return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist").arg(stream()));
    QJsonObject config = (*info)->value(QLatin1String("config")).toObject();
    for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
        config.insert(it.key(), it.value());
    auto reply = ctx.api(QStringLiteral("STREAM.UPDATE.") + stream(), config);
    if (!reply)
        return withContext(reply.error(), QStringLiteral("updating %1").arg(stream()));
    return summariseStream(*reply);
}

QByteArray republishBody(const RetainedRecord &record)
{
    RetainedRecord copy = record;
    copy.origin.clear();
    copy.isDeleteMarker = false;
    copy.encoding = RetainedRecord::Encoding::Json;
    return copy.encodeJson();
}

Result<PublishOutcome> publishAll(const ExecContext &ctx, const QList<Outgoing> &messages)
{
    PublishOutcome out;
    if (messages.isEmpty())
        return out;
    QHash<quint64, QJsonObject> acks;
    JetStreamPublisher publisher(ctx.target.connection, stream(), [&](quint64 tag, const Result<quint64> &ack) {
        const Outgoing &m = messages.at(qsizetype(tag));
        if (ack) {
            ++out.stored;
            if (tag < kSampleReplies)
                acks.insert(tag,
                            QJsonObject{{QStringLiteral("subject"), m.subject},
                                        {QStringLiteral("topic"), m.topic},
                                        {QStringLiteral("stream"), stream()},
                                        {QStringLiteral("seq"), qint64(*ack)}});
            return;
        }
        if (ack.error().jsErrCode()
            == JsErrors::WrongLastSequence) { // wrong last sequence: a newer message for the topic arrived meanwhile
            ++out.newerKept;
            return;
        }
        ++out.failed;
        if (out.failures.size() < 5)
            out.failures << QStringLiteral("%1 (topic %2): %3").arg(m.subject, m.topic, ack.error().toString());
    });
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (ctx.cancel && ctx.cancel->load())
            break;
        const Outgoing &m = messages.at(i);
        NatsHeaders headers;
        if (m.expectedLast)
            headers.append(QStringLiteral("Nats-Expected-Last-Subject-Sequence"), QString::number(*m.expectedLast));
        if (auto p = publisher.publish(quint64(i), m.subject, headers, m.data); !p)
            return withContext(p.error(), QStringLiteral("republishing to %1").arg(m.subject));
    }
    if (auto f = publisher.finish(); !f)
        return f.error();
    QList<quint64> tags = acks.keys();
    std::sort(tags.begin(), tags.end());
    for (quint64 t : tags)
        out.sample.append(acks.value(t));
    return out;
}

Result<DeleteOutcome> deleteSequences(const ExecContext &ctx, const QList<quint64> &sequences)
{
    DeleteOutcome out;
    for (quint64 seq : sequences) {
        if (ctx.cancel && ctx.cancel->load())
            return Error(Error::Kind::Internal, QStringLiteral("cancelled after %1 deletes; a rerun continues").arg(out.deleted));
        auto reply = ctx.api(QStringLiteral("STREAM.MSG.DELETE.") + stream(), QJsonObject{{QStringLiteral("seq"), qint64(seq)}});
        if (!reply) {
            if (reply.error().jsErrCode() == JsErrors::NoMessageFound) {
                ++out.alreadyGone;
                continue;
            }
            return withContext(reply.error(), QStringLiteral("deleting sequence %1 of %2").arg(seq).arg(stream()));
        }
        ++out.deleted;
        if (out.sample.size() < kSampleReplies) {
            QJsonObject r = *reply;
            r.insert(QStringLiteral("seq"), qint64(seq));
            out.sample.append(r);
        }
    }
    return out;
}

QString apiSubject(const ExecContext &ctx, const QString &op)
{
    return JetStreamClient::apiSubject(ctx.target.apiDomain, op);
}

QList<RetainedRecord> newestPerTopic(const QList<RetainedRecord> &records)
{
    QHash<QString, qsizetype> newest;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const auto it = newest.constFind(records.at(i).topic);
        if (it == newest.cend() || records.at(it.value()).seq < records.at(i).seq)
            newest.insert(records.at(i).topic, i);
    }
    QList<RetainedRecord> out;
    for (qsizetype i : newest)
        out.append(records.at(i));
    std::sort(out.begin(), out.end(), [](const RetainedRecord &a, const RetainedRecord &b) { return a.seq < b.seq; });
    return out;
}

} // namespace MqttDoctor::RetainedStore
