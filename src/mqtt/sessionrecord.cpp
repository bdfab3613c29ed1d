#include "mqtt/sessionrecord.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QHash>
#include <QSet>

#include <cmath>

#include "common/jsontypename.h"
#include "mqtt/clientidhash.h"
#include "common/decodeerror.h"
#include "mqtt/gojson.h"
#include "mqtt/gojsonobject.h"
#include "nats/natsheaders.h"
#include "mqtt/sessionrecordfast.h"

namespace MqttDoctor {

namespace {

constexpr qsizetype kMaxRecordBytes = 64 * 1024 * 1024;
const QString kRecord = QStringLiteral("session record");
const QString kSessPrefix = QStringLiteral("$MQTT.sess.");
const QString kLegacyPrefix = QStringLiteral("$MQTT_sess_");
const QString kExpectedLastSubjSeq = QStringLiteral("Nats-Expected-Last-Subject-Sequence");

Error fail(const QString &field, const QString &reason)
{
    return DecodeError{kRecord, field, reason}.toError();
}

QString typeName(const QJsonValue &v)
{
    return jsonTypeName(v, QStringLiteral("nothing"));
}

bool isIntegral(const QJsonValue &v, double min, double max)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    return std::isfinite(d) && std::trunc(d) == d && d >= min && d <= max;
}

// Checks the fields of a JetStream ConsumerConfig that Go would refuse to unmarshal.
std::optional<QString> checkConsumerConfig(const QJsonObject &c)
{
    static const QStringList strings = {QStringLiteral("durable_name"),  QStringLiteral("name"),
                                        QStringLiteral("description"),   QStringLiteral("deliver_policy"),
                                        QStringLiteral("ack_policy"),    QStringLiteral("filter_subject"),
                                        QStringLiteral("replay_policy"), QStringLiteral("deliver_subject"),
                                        QStringLiteral("deliver_group"), QStringLiteral("sample_freq"),
                                        QStringLiteral("opt_start_time")};
    static const QStringList signedInts = {QStringLiteral("ack_wait"),           QStringLiteral("max_deliver"),
                                           QStringLiteral("max_waiting"),        QStringLiteral("max_ack_pending"),
                                           QStringLiteral("idle_heartbeat"),     QStringLiteral("max_batch"),
                                           QStringLiteral("max_expires"),        QStringLiteral("max_bytes"),
                                           QStringLiteral("inactive_threshold"), QStringLiteral("num_replicas")};
    static const QStringList unsignedInts = {QStringLiteral("opt_start_seq"), QStringLiteral("rate_limit_bps")};
    static const QStringList bools = {QStringLiteral("flow_control"), QStringLiteral("headers_only"), QStringLiteral("mem_storage"),
                                      QStringLiteral("direct")};
    for (auto it = c.begin(); it != c.end(); ++it) {
        const QString &k = it.key();
        const QJsonValue v = it.value();
        if (v.isNull())
            continue;
        if (strings.contains(k) && !v.isString())
            return k + QStringLiteral(": expected a string, got ") + typeName(v);
        if (signedInts.contains(k) && !isIntegral(v, -9.2233720368547758e18, 9.2233720368547758e18))
            return k + QStringLiteral(": expected a 64-bit integer, got ") + typeName(v)
                + (v.isDouble() ? QStringLiteral(" out of range or fractional") : QString());
        if (unsignedInts.contains(k) && !isIntegral(v, 0, 1.8446744073709552e19))
            return k + QStringLiteral(": expected an unsigned 64-bit integer");
        if (bools.contains(k) && !v.isBool())
            return k + QStringLiteral(": expected a boolean, got ") + typeName(v);
    }
    auto checkEnum = [&c](const QString &key, const QStringList &allowed) -> std::optional<QString> {
        const QJsonValue v = c.value(key);
        if (v.isString() && !allowed.contains(v.toString()))
            return key + QStringLiteral(": unknown value \"") + v.toString() + QLatin1Char('"');
        return std::nullopt;
    };
    if (auto e = checkEnum(QStringLiteral("deliver_policy"),
                           {QStringLiteral("all"), QStringLiteral("last"), QStringLiteral("new"), QStringLiteral("by_start_sequence"),
                            QStringLiteral("by_start_time"), QStringLiteral("last_per_subject"), QStringLiteral("undefined")}))
        return e;
    if (auto e = checkEnum(QStringLiteral("ack_policy"), {QStringLiteral("none"), QStringLiteral("all"), QStringLiteral("explicit")}))
        return e;
    if (auto e = checkEnum(QStringLiteral("replay_policy"), {QStringLiteral("instant"), QStringLiteral("original")}))
        return e;
    return std::nullopt;
}

struct SubjectParts
{
    QString hash;
    QString domain;
};

SubjectParts splitSubject(const QString &subject)
{
    if (subject.startsWith(kSessPrefix)) {
        const QString rest = subject.mid(kSessPrefix.size());
        const qsizetype dot = rest.lastIndexOf(QLatin1Char('.'));
        if (dot < 0)
            return {rest, {}};
        return {rest.mid(dot + 1), rest.left(dot)};
    }
    if (subject.startsWith(kLegacyPrefix))
        return {subject.mid(kLegacyPrefix.size()), {}};
    return {};
}

} // namespace

Result<SessionRecord> SessionRecord::decode(const QByteArray &json)
{
    if (auto fast = SessionRecordFast::decodeBody(json))
        return std::move(*fast);
    return decodeReference(json);
}

Result<SessionRecord> SessionRecord::decode(const StoredMessage &message)
{
    HeaderForm form = HeaderForm::None;
    std::optional<quint64> expected;
    if (!SessionRecordFast::headerForm(message.headers, form, expected))
        return decodeReference(message);
    auto r = decode(message.data);
    if (!r)
        return r;
    r->subject = message.subject;
    r->seq = message.seq;
    r->headerForm = form;
    r->expectedLastSubjectSequence = expected;
    return r;
}

Result<SessionRecord> SessionRecord::decodeReference(const QByteArray &json)
{
    if (json.isEmpty())
        return fail({}, QStringLiteral("empty record"));
    if (json.size() > kMaxRecordBytes)
        return fail({}, QStringLiteral("record larger than 64 MiB (%1 bytes)").arg(json.size()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail({}, QStringLiteral("invalid JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return fail(
            {},
            QStringLiteral("expected a JSON object, got %1").arg(doc.isArray() ? QStringLiteral("an array") : QStringLiteral("a scalar")));
    const QJsonObject o = doc.object();

    SessionRecord r;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString &key = it.key();
        const QJsonValue v = it.value();
        if (key == QLatin1String("origin") || key == QLatin1String("id")) {
            if (v.isNull())
                continue;
            if (!v.isString())
                return fail(key, QStringLiteral("expected a string, got ") + typeName(v));
            (key == QLatin1String("origin") ? r.origin : r.id) = v.toString();
        } else if (key == QLatin1String("clean")) {
            if (v.isNull())
                continue;
            if (!v.isBool())
                return fail(key, QStringLiteral("expected a boolean, got ") + typeName(v));
            r.clean = v.toBool();
        } else if (key == QLatin1String("subs")) {
            if (v.isNull())
                continue;
            if (!v.isObject())
                return fail(key, QStringLiteral("expected an object, got ") + typeName(v));
            const QJsonObject subs = v.toObject();
            for (auto s = subs.begin(); s != subs.end(); ++s) {
                // Go stores a byte (0..255); MQTT only defines 0..2.
                if (!isIntegral(s.value(), 0, 255))
                    return fail(key,
                                QStringLiteral("QoS of \"%1\": expected an integer 0..255, got %2")
                                    .arg(s.key(), s.value().isDouble() ? QString::number(s.value().toDouble()) : typeName(s.value())));
                if (s.value().toInt() > 2)
                    return fail(key, QStringLiteral("QoS of \"%1\" is %2, MQTT only has 0, 1 and 2").arg(s.key()).arg(s.value().toInt()));
                if (s.key().isEmpty())
                    return fail(key, QStringLiteral("empty subject"));
                r.subs.insert(s.key(), s.value().toInt());
            }
        } else if (key == QLatin1String("cons")) {
            if (v.isNull())
                continue;
            if (!v.isObject())
                return fail(key, QStringLiteral("expected an object, got ") + typeName(v));
            const QJsonObject cons = v.toObject();
            for (auto c = cons.begin(); c != cons.end(); ++c) {
                if (c.value().isNull()) {
                    r.cons.insert(c.key(), ConsumerConfigJson());
                    continue;
                }
                if (!c.value().isObject())
                    return fail(key, QStringLiteral("consumer \"%1\": expected an object, got %2").arg(c.key(), typeName(c.value())));
                if (auto e = checkConsumerConfig(c.value().toObject()))
                    return fail(key, QStringLiteral("consumer \"%1\": %2").arg(c.key(), *e));
                r.cons.insert(c.key(), c.value().toObject());
            }
        } else if (key == QLatin1String("pubrel")) {
            if (v.isNull())
                continue;
            if (!v.isObject())
                return fail(key, QStringLiteral("expected an object, got ") + typeName(v));
            if (auto e = checkConsumerConfig(v.toObject()))
                return fail(key, *e);
            r.pubrel = v.toObject();
        } else {
            r.unknownFields.insert(key, v);
        }
    }
    return r;
}

Result<SessionRecord> SessionRecord::decodeReference(const StoredMessage &message)
{
    auto headers = NatsHeaders::parse(message.headers);
    if (!headers)
        return fail(QStringLiteral("headers"), headers.error().message());
    auto r = decodeReference(message.data);
    if (!r)
        return r;
    r->subject = message.subject;
    r->seq = message.seq;
    if (message.headers.isEmpty()) {
        r->headerForm = HeaderForm::None;
    } else if (headers->contains(kExpectedLastSubjSeq)) {
        bool ok = false;
        const quint64 n = headers->value(kExpectedLastSubjSeq).toULongLong(&ok);
        if (!ok)
            return fail(kExpectedLastSubjSeq,
                        QStringLiteral("not an unsigned integer: \"%1\"").arg(headers->value(kExpectedLastSubjSeq).left(40)));
        r->headerForm = HeaderForm::ExpectedLastSequence;
        r->expectedLastSubjectSequence = n;
    } else {
        r->headerForm = headers->isEmpty() ? HeaderForm::Empty : HeaderForm::Other;
    }
    return r;
}

QByteArray SessionRecord::encode() const
{
    // Go's field order: origin, id, clean, subs, cons, pubrel (all omitempty); maps sorted by key.
    GoJsonObject out;
    out.stringIfSet("origin", origin);
    out.stringIfSet("id", id);
    if (clean)
        out.member("clean", QByteArrayLiteral("true"));
    if (!subs.isEmpty()) {
        GoJsonObject s;
        for (auto it = subs.begin(); it != subs.end(); ++it)
            s.member(it.key(), QByteArray::number(it.value()));
        out.member("subs", s.finish());
    }
    if (!cons.isEmpty()) {
        GoJsonObject s;
        for (auto it = cons.begin(); it != cons.end(); ++it)
            s.member(it.key(), GoJson::value(it.value().toObject()));
        out.member("cons", s.finish());
    }
    if (pubrel)
        out.member("pubrel", GoJson::value(pubrel->toObject()));
    for (auto it = unknownFields.begin(); it != unknownFields.end(); ++it)
        out.member(it.key(), GoJson::value(it.value()));
    return out.finish();
}

QString SessionRecord::subjectHash() const
{
    return subjectHashOf(subject).toString();
}

QStringView SessionRecord::subjectHashOf(QStringView subject)
{
    if (subject.startsWith(kSessPrefix)) {
        const QStringView rest = subject.mid(kSessPrefix.size());
        return rest.mid(rest.lastIndexOf(QLatin1Char('.')) + 1); // no dot: the whole rest
    }
    if (subject.startsWith(kLegacyPrefix))
        return subject.mid(kLegacyPrefix.size());
    return {};
}

QString SessionRecord::subjectDomain() const
{
    return splitSubject(subject).domain;
}

QString SessionRecord::idHash() const
{
    return ClientIdHash::hash(id);
}

std::optional<bool> SessionRecord::idMatchesSubject() const
{
    const QStringView h = subjectHashOf(subject);
    if (h.isEmpty())
        return std::nullopt;
    return ClientIdHash::hashEquals(id, h);
}

// Devices of a fleet subscribe to the same filters: each distinct subject is mapped once per thread
// and dialect, and the records share the resulting string. Bounded.
QString SessionRecord::mqttFilterOf(const QString &subject, TopicMapping::Dialect dialect)
{
    thread_local QHash<QString, QString> cache[2];
    QHash<QString, QString> &c = cache[dialect == TopicMapping::Dialect::V2_9 ? 0 : 1];
    const auto it = c.constFind(subject);
    if (it != c.cend())
        return it.value();
    if (c.size() >= 4096)
        c.clear();
    const QString filter = TopicMapping::subjectToTopic(subject, dialect);
    c.insert(subject, filter);
    return filter;
}

QList<SessionRecord::Subscription> SessionRecord::subscriptions(TopicMapping::Dialect dialect) const
{
    QList<Subscription> out;
    out.reserve(subs.size());
    for (auto it = subs.begin(); it != subs.end(); ++it) {
        Subscription s;
        s.natsSubject = it.key();
        s.mqttFilter = mqttFilterOf(it.key(), dialect);
        s.qos = it.value();
        s.durableName = durableOf(it.key());
        if (TopicMapping::needsLevelUp(it.key()))
            s.levelUpDurable = durableOf(TopicMapping::levelUpSid(it.key()));
        out.append(std::move(s));
    }
    return out;
}

QStringList SessionRecord::durableNames() const
{
    QSet<QString> names;
    for (const ConsumerConfigJson &c : cons) {
        if (!c.durableName().isEmpty())
            names.insert(c.durableName());
    }
    if (pubrel && !pubrel->durableName().isEmpty())
        names.insert(pubrel->durableName());
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

QString SessionRecord::durableOf(const QString &sid) const
{
    const auto it = cons.constFind(sid);
    return it == cons.cend() ? QString() : it->durableName();
}

} // namespace MqttDoctor
