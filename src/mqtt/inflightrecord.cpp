#include "mqtt/inflightrecord.h"

#include "mqtt/clientidhash.h"
#include "common/decodeerror.h"

namespace MqttDoctor {

namespace {

const QString kPub = QStringLiteral("Nmqtt-Pub");
const QString kSubject = QStringLiteral("Nmqtt-Subject");
const QString kMapped = QStringLiteral("Nmqtt-Mapped");
const QString kPubRel = QStringLiteral("Nmqtt-PubRel");
const QString kMsgsPrefix = QStringLiteral("$MQTT.msgs.");
const QString kQos2Prefix = QStringLiteral("$MQTT.qos2.in.");
const QString kPubRelPrefix = QStringLiteral("$MQTT.out.pubrel.");

Error fail(const QString &record, const QString &field, const QString &reason)
{
    return DecodeError{record, field, reason}.toError();
}

// "1", "2" or (2.12.14+) "2" followed by the PUBLISH flags nibble in hex ("25").
std::optional<QString> parsePub(const QString &v, int &qos, std::optional<quint8> &flags)
{
    if (v.isEmpty() || v.size() > 2)
        return QStringLiteral("expected a QoS digit and an optional flags hex digit, got \"%1\"").arg(v.left(40));
    const char16_t q = v.at(0).unicode();
    if (q < u'0' || q > u'2')
        return QStringLiteral("QoS \"%1\" is not 0, 1 or 2").arg(v.at(0));
    qos = q - u'0';
    if (v.size() == 2) {
        bool ok = false;
        const uint f = v.mid(1).toUInt(&ok, 16);
        if (!ok)
            return QStringLiteral("flags digit \"%1\" is not hex").arg(v.at(1));
        flags = static_cast<quint8>(f);
    }
    return std::nullopt;
}

std::optional<int> packetIdFrom(const QString &s)
{
    bool ok = false;
    const uint pi = s.toUInt(&ok);
    if (!ok || pi == 0 || pi > 65535)
        return std::nullopt;
    return static_cast<int>(pi);
}

} // namespace

Result<InflightRecord> InflightRecord::decode(const StoredMessage &message)
{
    InflightRecord r;
    r.storedSubject = message.subject;
    r.seq = message.seq;
    QString record;
    if (message.subject.startsWith(kMsgsPrefix)) {
        r.kind = Kind::MessageCopy;
    } else if (message.subject.startsWith(kQos2Prefix)) {
        r.kind = Kind::Qos2Incoming;
    } else if (message.subject.startsWith(kPubRelPrefix)) {
        r.kind = Kind::PubRel;
    } else {
        return fail(QStringLiteral("MQTT message record"), QStringLiteral("subject"),
                    QStringLiteral("\"%1\" is not under $MQTT.msgs., $MQTT.qos2.in. or $MQTT.out.pubrel.").arg(message.subject.left(200)));
    }
    record = r.kindName();
    auto headers = NatsHeaders::parse(message.headers);
    if (!headers)
        return fail(record, QStringLiteral("headers"), headers.error().message());
    if (message.headers.isEmpty())
        return fail(record, QStringLiteral("headers"), QStringLiteral("missing header block"));

    for (const auto &[k, v] : headers->entries()) {
        const bool known = k.compare(kPub, Qt::CaseInsensitive) == 0 || k.compare(kSubject, Qt::CaseInsensitive) == 0
            || k.compare(kMapped, Qt::CaseInsensitive) == 0 || k.compare(kPubRel, Qt::CaseInsensitive) == 0;
        if (!known)
            r.otherHeaders.append(k, v);
    }
    r.mappedSubject = headers->value(kMapped);

    switch (r.kind) {
    case Kind::MessageCopy:
    case Kind::Qos2Incoming: {
        if (!headers->contains(kPub))
            return fail(record, kPub, QStringLiteral("missing"));
        if (auto e = parsePub(headers->value(kPub), r.qos, r.flags))
            return fail(record, kPub, *e);
        r.payload = message.data;
        if (r.kind == Kind::MessageCopy) {
            r.natsSubject = message.subject.mid(kMsgsPrefix.size());
            if (r.natsSubject.isEmpty())
                return fail(record, QStringLiteral("subject"), QStringLiteral("no subject after $MQTT.msgs."));
            break;
        }
        r.natsSubject = headers->value(kSubject);
        if (r.natsSubject.isEmpty())
            return fail(record, kSubject, QStringLiteral("missing or empty"));
        const QString rest = message.subject.mid(kQos2Prefix.size());
        const qsizetype dot = rest.lastIndexOf(QLatin1Char('.'));
        if (dot <= 0)
            return fail(record, QStringLiteral("subject"), QStringLiteral("expected $MQTT.qos2.in.<client ID>.<packet id>"));
        const auto pi = packetIdFrom(rest.mid(dot + 1));
        if (!pi)
            return fail(record, QStringLiteral("subject"),
                        QStringLiteral("packet id \"%1\" is not 1..65535").arg(rest.mid(dot + 1).left(40)));
        r.packetId = *pi;
        r.clientId = rest.left(dot);
        break;
    }
    case Kind::PubRel: {
        r.clientIdHash = message.subject.mid(kPubRelPrefix.size());
        if (!ClientIdHash::isHashToken(r.clientIdHash))
            return fail(record, QStringLiteral("subject"),
                        QStringLiteral("\"%1\" is not an 8-character client ID hash").arg(r.clientIdHash.left(40)));
        if (!headers->contains(kPubRel))
            return fail(record, kPubRel, QStringLiteral("missing"));
        const auto pi = packetIdFrom(headers->value(kPubRel));
        if (!pi)
            return fail(record, kPubRel, QStringLiteral("packet id \"%1\" is not 1..65535").arg(headers->value(kPubRel).left(40)));
        r.packetId = *pi;
        r.payload = message.data;
        break;
    }
    }
    return r;
}

NatsHeaders InflightRecord::encodeHeaders() const
{
    NatsHeaders h;
    if (kind == Kind::PubRel) {
        h.append(kPubRel, QString::number(packetId));
    } else {
        QString pub = QString::number(qos);
        if (flags)
            pub += QString::number(*flags, 16);
        h.append(kPub, pub);
        if (kind == Kind::Qos2Incoming)
            h.append(kSubject, natsSubject);
        if (!mappedSubject.isEmpty())
            h.append(kMapped, mappedSubject);
    }
    for (const auto &[k, v] : otherHeaders.entries())
        h.append(k, v);
    return h;
}

QString InflightRecord::kindName() const
{
    switch (kind) {
    case Kind::MessageCopy: return QStringLiteral("message copy");
    case Kind::Qos2Incoming: return QStringLiteral("QoS2 incoming");
    case Kind::PubRel: return QStringLiteral("PUBREL");
    }
    return {};
}

} // namespace MqttDoctor
