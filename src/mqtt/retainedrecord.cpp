#include "mqtt/retainedrecord.h"

#include "mqtt/payloadpreview.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStringDecoder>

#include <cmath>

#include "common/decodeerror.h"
#include "mqtt/gojson.h"
#include "mqtt/gojsonobject.h"
#include "mqtt/retainedrecordfast.h"

namespace MqttDoctor {

namespace {

constexpr qsizetype kMaxRecordBytes = 64 * 1024 * 1024;
const QString kRecord = QStringLiteral("retained message");
const QString kPrefix = QStringLiteral("$MQTT.rmsgs.");
const QString kTopic = QStringLiteral("Nmqtt-RTopic");
const QString kFlags = QStringLiteral("Nmqtt-RFlags");
const QString kOrigin = QStringLiteral("Nmqtt-ROrigin");
const QString kSource = QStringLiteral("Nmqtt-RSource");

Error fail(const QString &field, const QString &reason)
{
    return DecodeError{kRecord, field, reason}.toError();
}

// 0x06 is the QoS; QoS 3 does not exist.
bool validQos(quint8 flags)
{
    return ((flags >> 1) & 0x3) != 0x3;
}

} // namespace

Result<RetainedRecord> RetainedRecord::decode(const StoredMessage &message)
{
    if (auto fast = RetainedRecordFast::decode(message))
        return std::move(*fast);
    return decodeReference(message);
}

Result<RetainedRecord> RetainedRecord::decodeReference(const StoredMessage &message)
{
    auto headers = NatsHeaders::parse(message.headers);
    if (!headers)
        return fail(QStringLiteral("headers"), headers.error().message());
    auto r = headers->contains(kFlags) ? decodeHeaders(*headers, message.data, message.subject) : decodeJson(message.data);
    if (!r)
        return r;
    r->storedSubject = message.subject;
    r->seq = message.seq;
    if (r->subject.isEmpty())
        r->subject = r->subjectFromStoredSubject();
    return r;
}

Result<RetainedRecord> RetainedRecord::decodeJson(const QByteArray &body)
{
    if (body.isEmpty())
        return fail({}, QStringLiteral("empty record"));
    if (body.size() > kMaxRecordBytes)
        return fail({}, QStringLiteral("record larger than 64 MiB (%1 bytes)").arg(body.size()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail({}, QStringLiteral("invalid JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return fail({}, QStringLiteral("expected a JSON object"));
    const QJsonObject o = doc.object();
    RetainedRecord r;
    r.encoding = Encoding::Json;
    struct StringField
    {
        const char *key;
        QString *target;
    };
    const StringField strings[] = {{"origin", &r.origin}, {"subject", &r.subject}, {"topic", &r.topic}, {"source", &r.source}};
    for (const StringField &f : strings) {
        const QJsonValue v = o.value(QLatin1String(f.key));
        if (v.isUndefined() || v.isNull())
            continue;
        if (!v.isString())
            return fail(QLatin1String(f.key), QStringLiteral("expected a string"));
        *f.target = v.toString();
    }
    const QJsonValue msg = o.value(QStringLiteral("msg"));
    if (!msg.isUndefined() && !msg.isNull()) {
        if (!msg.isString())
            return fail(QStringLiteral("msg"), QStringLiteral("expected a base64 string"));
        auto decoded = QByteArray::fromBase64Encoding(msg.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return fail(QStringLiteral("msg"), QStringLiteral("invalid base64"));
        r.payload = *decoded;
    }
    const QJsonValue flags = o.value(QStringLiteral("flags"));
    if (!flags.isUndefined() && !flags.isNull()) {
        const double d = flags.toDouble(-1);
        if (!flags.isDouble() || !std::isfinite(d) || std::trunc(d) != d || d < 0 || d > 255)
            return fail(QStringLiteral("flags"), QStringLiteral("expected an integer 0..255"));
        r.flags = static_cast<quint8>(d);
        if (!validQos(r.flags))
            return fail(QStringLiteral("flags"), QStringLiteral("QoS 3 in flags %1").arg(r.flags));
    }
    if (r.topic.isEmpty() && r.subject.isEmpty())
        return fail({}, QStringLiteral("neither topic nor subject"));
    return r;
}

Result<RetainedRecord> RetainedRecord::decodeHeaders(const NatsHeaders &headers, const QByteArray &body, const QString &storedSubject)
{
    RetainedRecord r;
    r.encoding = Encoding::Headers;
    r.storedSubject = storedSubject;
    QString flags = headers.value(kFlags);
    if (flags.isNull())
        return fail(kFlags, QStringLiteral("missing"));
    if (flags.startsWith(QLatin1Char('-'))) {
        r.isDeleteMarker = true;
        flags = flags.mid(1);
    }
    bool ok = false;
    const uint f = flags.toUInt(&ok, 16);
    if (!ok || flags.isEmpty() || flags.size() > 2 || f > 0xFF)
        return fail(kFlags, QStringLiteral("expected a hex byte, got \"%1\"").arg(headers.value(kFlags).left(40)));
    r.flags = static_cast<quint8>(f);
    if (!validQos(r.flags))
        return fail(kFlags, QStringLiteral("QoS 3 in flags %1").arg(r.flags));
    if (r.isDeleteMarker && !body.isEmpty())
        return fail(kFlags, QStringLiteral("delete marker with a non-empty body (%1 bytes)").arg(body.size()));
    r.topic = headers.value(kTopic);
    if (r.topic.isEmpty() && !r.isDeleteMarker)
        return fail(kTopic, QStringLiteral("missing or empty"));
    r.origin = headers.value(kOrigin);
    r.source = headers.value(kSource);
    r.subject = r.subjectFromStoredSubject();
    r.payload = body;
    return r;
}

QByteArray RetainedRecord::encodeJson() const
{
    // Go's field order: origin, subject, topic, msg, flags, source (all omitempty).
    GoJsonObject out;
    out.stringIfSet("origin", origin);
    out.stringIfSet("subject", subject);
    out.stringIfSet("topic", topic);
    if (!payload.isEmpty())
        out.member("msg", '"' + payload.toBase64() + '"');
    if (flags != 0)
        out.member("flags", QByteArray::number(flags));
    out.stringIfSet("source", source);
    return out.finish();
}

NatsHeaders RetainedRecord::encodeHeaders() const
{
    NatsHeaders h;
    h.append(kTopic, topic);
    const QString hex = QString::number(flags, 16);
    h.append(kFlags, isDeleteMarker ? QLatin1Char('-') + hex : hex);
    if (!origin.isEmpty())
        h.append(kOrigin, origin);
    if (!source.isEmpty())
        h.append(kSource, source);
    return h;
}

QString RetainedRecord::subjectFromStoredSubject() const
{
    if (storedSubject.startsWith(kPrefix))
        return storedSubject.mid(kPrefix.size());
    return {};
}

QString RetainedRecord::payloadPreview(int maxChars) const
{
    return PayloadPreview::text(payload, maxChars);
}

QString RetainedRecord::SparkplugBirth::description() const
{
    QString out = QStringLiteral("Sparkplug B %1 certificate: group %2, edge node %3").arg(messageType, groupId, edgeNodeId);
    if (!deviceId.isEmpty())
        out += QStringLiteral(", device ") + deviceId;
    return out;
}

std::optional<RetainedRecord::SparkplugBirth> RetainedRecord::sparkplugBirth() const
{
    static const QString prefix = QStringLiteral("$sparkplug/certificates/spBv1.0/");
    if (!topic.startsWith(prefix))
        return std::nullopt;
    const QStringList levels = QStringView(topic).sliced(prefix.size()).toString().split(QLatin1Char('/'));
    // group / NBIRTH / edge node, or group / DBIRTH / edge node / device
    if (levels.size() < 3 || levels.at(0).isEmpty() || levels.at(2).isEmpty())
        return std::nullopt;
    const QString &type = levels.at(1);
    if (type == QLatin1String("NBIRTH") && levels.size() == 3)
        return SparkplugBirth{type, levels.at(0), levels.at(2), {}};
    if (type == QLatin1String("DBIRTH") && levels.size() == 4 && !levels.at(3).isEmpty())
        return SparkplugBirth{type, levels.at(0), levels.at(2), levels.at(3)};
    return std::nullopt;
}

} // namespace MqttDoctor
