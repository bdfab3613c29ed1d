#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

#include "common/result.h"
#include "nats/natsheaders.h"
#include "mqtt/storedmessage.h"

namespace MqttDoctor {

/**
 * A retained MQTT message as stored in `$MQTT_rmsgs`, in either encoding:
 * - **json** (2.9.10 on the single subject `$MQTT.rmsgs`; 2.10.x on `$MQTT.rmsgs.<natsSubject>`):
 *   body `{"origin","subject","topic","msg":<base64>,"flags","source"}`;
 * - **headers** (2.11+ on `$MQTT.rmsgs.<natsSubject>`): `Nmqtt-RTopic`, `Nmqtt-RFlags:<hex>`,
 *   optional `Nmqtt-ROrigin`, `Nmqtt-RSource`; the body is the payload. `Nmqtt-RFlags:-<hex>` with an
 *   empty body is a delete marker (2.11.12+ / 2.12.3+ / 2.14+).
 *
 * decode() is total: any input gives a record or an Error of kind InvalidInput naming field and reason
 * (DecodeError); it never throws or crashes. A value type; pure and thread-safe.
 */
class RetainedRecord final
{
public:
    enum class Encoding { Json, Headers };

    /**
     * Picks the encoding like the server: headers when `Nmqtt-RFlags` is present, JSON otherwise.
     * A fast single-pass path takes the forms nats-server writes; anything else goes to
     * decodeReference(), so both give the same record or the same error.
     */
    static Result<RetainedRecord> decode(const StoredMessage &message);
    /** The reference decoder (NatsHeaders, QJsonDocument): what decode() must agree with; slower. */
    static Result<RetainedRecord> decodeReference(const StoredMessage &message);
    /** The JSON encoding (a bare body). */
    static Result<RetainedRecord> decodeJson(const QByteArray &body);
    /** The header encoding; `storedSubject` gives the NATS subject (`$MQTT.rmsgs.<subject>`). */
    static Result<RetainedRecord> decodeHeaders(const NatsHeaders &headers, const QByteArray &body, const QString &storedSubject);

    /** The JSON body as nats-server writes it (Go field order, base64 `msg`). */
    QByteArray encodeJson() const;
    /** The 2.11+ header block (the body is `payload`, empty for a delete marker). */
    NatsHeaders encodeHeaders() const;

    QString topic; ///< MQTT topic, e.g. "sensors/kitchen/temp"
    QString subject; ///< NATS subject, e.g. "sensors.kitchen.temp" (JSON field, or from the stored subject)
    quint8 flags = 0; ///< PUBLISH flags nibble: 0x01 retain, 0x06 QoS, 0x08 dup
    QByteArray payload;
    QString origin; ///< serverHash of the server that stored it
    QString source; ///< NATS user name of the publisher
    Encoding encoding = Encoding::Json;
    bool isDeleteMarker = false;

    QString storedSubject; ///< where it was stored ("$MQTT.rmsgs" or "$MQTT.rmsgs.<subject>"); empty for bare bodies
    quint64 seq = 0;

    int qos() const { return (flags >> 1) & 0x3; }
    bool retain() const { return flags & 0x1; }
    bool dup() const { return flags & 0x8; }
    /** "json" or "headers". */
    QString encodingName() const { return encoding == Encoding::Json ? QStringLiteral("json") : QStringLiteral("headers"); }
    /** True when stored on the single 2.9 subject `$MQTT.rmsgs` (an orphan for 2.10+ servers). */
    bool isOnLegacySubject() const { return storedSubject == QLatin1String("$MQTT.rmsgs"); }
    /** The subject part of a per-subject stored subject (`$MQTT.rmsgs.<x>` → `<x>`), else empty. */
    QString subjectFromStoredSubject() const;

    /**
     * Printable preview of the payload: valid UTF-8 text with control characters escaped (`\n`, `\x01`),
     * cut at `maxChars` with "…"; anything else as `hex:` and the first bytes in hex ("hex: 00 01 ff…").
     */
    QString payloadPreview(int maxChars = 64) const;

    /** A Sparkplug B birth certificate: what the servers retain from 2.11.0 for NBIRTH/DBIRTH messages. */
    struct SparkplugBirth
    {
        QString messageType; ///< "NBIRTH" or "DBIRTH"
        QString groupId;
        QString edgeNodeId;
        QString deviceId; ///< DBIRTH only
        /** "Sparkplug B NBIRTH certificate: group G, edge node E[, device D]" */
        QString description() const;
    };
    /**
     * The birth certificate the topic names (`$sparkplug/certificates/spBv1.0/<group>/NBIRTH/<edge node>` or
     * `.../DBIRTH/<edge node>/<device>`), nullopt for any other topic.
     */
    std::optional<SparkplugBirth> sparkplugBirth() const;

    bool operator==(const RetainedRecord &other) const = default;
};

} // namespace MqttDoctor
