#include "records/retainedloader.h"

#include <QStringList>

#include <algorithm>

#include "common/jsonstreamwriter.h"
#include "common/rfc3339time.h"
#include "mqtt/storedmessage.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"
#include "records/decodepipeline.h"

namespace MqttDoctor::RetainedLoader {

RetainedEntry fromMessage(const StreamMessage &message)
{
    RetainedEntry e;
    e.storedSubject = message.subject;
    e.seq = message.sequence;
    e.time = message.time();
    e.storedBytes = message.headers.size() + message.data.size();
    StoredMessage stored;
    stored.stream = QStringLiteral("$MQTT_rmsgs");
    stored.subject = message.subject;
    stored.seq = message.sequence;
    stored.headers = message.headers;
    stored.data = message.data;
    auto rec = RetainedRecord::decode(stored);
    if (!rec) {
        e.problem = QStringLiteral("undecodable: ") + rec.error().message();
        return e;
    }
    e.record = std::move(rec).value();
    if (e.record->storedSubject.isEmpty())
        e.record->storedSubject = message.subject;
    if (e.record->seq == 0)
        e.record->seq = message.sequence;
    return e;
}

bool topicMatches(const QString &filter, const QString &topic)
{
    const QStringList f = filter.split(QLatin1Char('/'));
    const QStringList t = topic.split(QLatin1Char('/'));
    for (qsizetype i = 0; i < f.size(); ++i) {
        if (f[i] == QLatin1String("#"))
            return i == f.size() - 1;
        if (i >= t.size())
            return false;
        if (f[i] != QLatin1String("+") && f[i] != t[i])
            return false;
    }
    return f.size() == t.size();
}

bool matches(const RetainedEntry &entry, const QString &filter)
{
    if (filter.isEmpty())
        return true;
    if (!entry.record)
        return false;
    const QStringList levels = filter.split(QLatin1Char('/'));
    const bool wildcard = levels.contains(QStringLiteral("+")) || levels.contains(QStringLiteral("#"));
    return wildcard ? topicMatches(filter, entry.record->topic) : entry.record->topic == filter;
}

namespace {

// The Sparkplug B birth certificate a retained record is, as JSON; null for any other record.
QJsonValue retainedSparkplugJson(const RetainedRecord &r)
{
    const auto birth = r.sparkplugBirth();
    if (!birth)
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{
        {QStringLiteral("message_type"), birth->messageType},
        {QStringLiteral("group_id"), birth->groupId},
        {QStringLiteral("edge_node_id"), birth->edgeNodeId},
        {QStringLiteral("device_id"), birth->deviceId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(birth->deviceId)}};
}

} // namespace

QJsonObject toJson(const RetainedEntry &e)
{
    const QJsonValue null(QJsonValue::Null);
    if (!e.record)
        return QJsonObject{{QStringLiteral("topic"), null},
                           {QStringLiteral("subject"), null},
                           {QStringLiteral("qos"), null},
                           {QStringLiteral("size"), e.storedBytes},
                           {QStringLiteral("payload_preview"), null},
                           {QStringLiteral("encoding"), null},
                           {QStringLiteral("origin"), null},
                           {QStringLiteral("source"), null},
                           {QStringLiteral("seq"), qint64(e.seq)},
                           {QStringLiteral("stored_subject"), e.storedSubject},
                           {QStringLiteral("time"), Rfc3339Time::formatMs(e.time)},
                           {QStringLiteral("delete_marker"), false},
                           {QStringLiteral("sparkplug"), null},
                           {QStringLiteral("problem"), e.problem}};
    const RetainedRecord &r = *e.record;
    const auto orNull = [&](const QString &s) { return s.isEmpty() ? null : QJsonValue(s); };
    return QJsonObject{{QStringLiteral("topic"), r.topic},
                       {QStringLiteral("subject"), r.subject.isEmpty() ? r.subjectFromStoredSubject() : r.subject},
                       {QStringLiteral("qos"), r.qos()},
                       {QStringLiteral("size"), r.payload.size()},
                       {QStringLiteral("payload_preview"), r.payloadPreview()},
                       {QStringLiteral("encoding"), r.encodingName()},
                       {QStringLiteral("origin"), orNull(r.origin)},
                       {QStringLiteral("source"), orNull(r.source)},
                       {QStringLiteral("seq"), qint64(e.seq)},
                       {QStringLiteral("stored_subject"), e.storedSubject},
                       {QStringLiteral("time"), Rfc3339Time::formatMs(e.time)},
                       {QStringLiteral("delete_marker"), r.isDeleteMarker},
                       {QStringLiteral("sparkplug"), retainedSparkplugJson(r)},
                       {QStringLiteral("problem"), null}};
}

void writeJson(JsonStreamWriter &w, const RetainedEntry &e)
{
    // toJson(e)'s members in its order (sorted keys), written as they are made.
    w.beginObject();
    const RetainedRecord *r = e.record ? &*e.record : nullptr;
    r ? w.boolean(QStringLiteral("delete_marker"), r->isDeleteMarker) : w.boolean(QStringLiteral("delete_marker"), false);
    r ? w.string(QStringLiteral("encoding"), r->encodingName()) : w.null(QStringLiteral("encoding"));
    r ? w.stringOrNull(QStringLiteral("origin"), r->origin) : w.null(QStringLiteral("origin"));
    r ? w.string(QStringLiteral("payload_preview"), r->payloadPreview()) : w.null(QStringLiteral("payload_preview"));
    r ? w.null(QStringLiteral("problem")) : w.string(QStringLiteral("problem"), e.problem);
    r ? w.number(QStringLiteral("qos"), r->qos()) : w.null(QStringLiteral("qos"));
    w.number(QStringLiteral("seq"), qint64(e.seq));
    r ? w.number(QStringLiteral("size"), r->payload.size()) : w.number(QStringLiteral("size"), e.storedBytes);
    r ? w.stringOrNull(QStringLiteral("source"), r->source) : w.null(QStringLiteral("source"));
    r ? w.value(QStringLiteral("sparkplug"), retainedSparkplugJson(*r)) : w.null(QStringLiteral("sparkplug"));
    w.string(QStringLiteral("stored_subject"), e.storedSubject);
    if (r)
        w.string(QStringLiteral("subject"), r->subject.isEmpty() ? r->subjectFromStoredSubject() : r->subject);
    else
        w.null(QStringLiteral("subject"));
    w.string(QStringLiteral("time"), Rfc3339Time::formatMs(e.time));
    r ? w.string(QStringLiteral("topic"), r->topic) : w.null(QStringLiteral("topic"));
    w.endObject();
}

Result<ReadSummary> load(const std::shared_ptr<NatsConnection> &account, const RetainedLoadOptions &options, const BatchHandler &onBatch)
{
    StreamReader reader(account, options.domain);
    StreamReader::Options ro;
    ro.batchSize = options.batchSize;
    ro.cancel = options.cancel;
    // Every message: 2.9 keeps all retained messages on the one subject $MQTT.rmsgs; the per-subject
    // layouts keep one message per subject, so reading all is the same as last-per-subject there.
    // Decoding and filtering on this thread while the pipeline's reading thread reads; handed over in stream order.
    quint64 lastDecoded = 0; // the highest sequence read so far
    auto decode = [&options, &lastDecoded](const QList<StreamMessage> &batch) {
        QList<RetainedEntry> out;
        out.reserve(batch.size());
        for (const StreamMessage &m : batch) {
            lastDecoded = std::max(lastDecoded, m.sequence);
            if (m.deleted)
                continue;
            RetainedEntry e = fromMessage(m);
            if (matches(e, options.filter))
                out.append(std::move(e));
        }
        return out;
    };
    auto deliver = [&onBatch](QList<RetainedEntry> &&out, const ReadProgress &progress) {
        return out.isEmpty() ? true : onBatch(std::move(out), progress);
    };
    DecodePipeline pipeline(
        [&](const QList<StreamMessage> &batch, const ReadProgress &progress) { return deliver(decode(batch), progress); });
    auto summary = pipeline.run(
        [&](const StreamReader::BatchHandler &onRead) { return reader.readAll(QStringLiteral("$MQTT_rmsgs"), {}, ro, onRead); });
    if (!summary && summary.error().jsErrCode() == JsErrors::StreamNotFound)
        return Error(Error::Kind::NotFound, QStringLiteral("the account has no $MQTT_rmsgs stream: no retained message was ever stored"),
                     QStringLiteral("nats-server creates it on the account's first MQTT connection"))
            .withJsErrCode(JsErrors::StreamNotFound);
    if (summary || (options.cancel && options.cancel->load()))
        return summary;
    // A consumer's read ends at a subject the client protocol cannot carry (2.10 servers store MQTT topics with
    // a tab or other whitespace): the rest by message gets, whose replies carry the subject in JSON.
    auto map = StreamIndex(account, options.domain).sequenceMap(QStringLiteral("$MQTT_rmsgs"));
    if (!map)
        return summary;
    QList<quint64> rest;
    for (const quint64 seq : map->liveSequences())
        if (seq > lastDecoded)
            rest << seq;
    auto gets =
        MessageGetter(account, options.domain)
            .getBySequences(QStringLiteral("$MQTT_rmsgs"), rest, ro,
                            [&](QList<StreamMessage> &&batch, const ReadProgress &progress) { return deliver(decode(batch), progress); });
    return gets ? gets : summary;
}

} // namespace MqttDoctor::RetainedLoader
