#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

#include "common/result.h"
#include "nats/natsheaders.h"
#include "mqtt/storedmessage.h"

namespace MqttDoctor {

/**
 * A QoS 1/2 message record of the MQTT gateway, told apart by its subject:
 * - **MessageCopy** `$MQTT_msgs` on `$MQTT.msgs.<natsSubject>`: `Nmqtt-Pub:<qos>` + payload;
 * - **Qos2Incoming** `$MQTT_qos2in` (2.10+) on `$MQTT.qos2.in.<raw client ID>.<packet id>`:
 *   `Nmqtt-Pub:2` (2.12.14+/2.14.4+: `2<flags hex>`, e.g. `25` = retained QoS 2), `Nmqtt-Subject`,
 *   optional `Nmqtt-Mapped`, + payload. The client ID is not hashed and may contain dots;
 * - **PubRel** `$MQTT_out` (2.10+) on `$MQTT.out.pubrel.<cidHash>`: header-only `Nmqtt-PubRel:<packet id>`.
 *
 * decode() is total: any input gives a record or an Error of kind InvalidInput naming the header and
 * the reason (DecodeError); never throws or crashes. A value type; pure and thread-safe.
 */
class InflightRecord final
{
public:
    enum class Kind { MessageCopy, Qos2Incoming, PubRel };

    static Result<InflightRecord> decode(const StoredMessage &message);

    /** The header block nats-server would store for this record (body = payload). */
    NatsHeaders encodeHeaders() const;

    Kind kind = Kind::MessageCopy;
    QString storedSubject;
    quint64 seq = 0;

    int qos = 0; ///< from `Nmqtt-Pub` (MessageCopy, Qos2Incoming)
    std::optional<quint8> flags; ///< PUBLISH flags nibble from the second `Nmqtt-Pub` digit (2.12.14+)
    QString natsSubject; ///< MessageCopy: subject minus `$MQTT.msgs.`; Qos2Incoming: `Nmqtt-Subject`
    QString mappedSubject; ///< `Nmqtt-Mapped`, empty when absent
    QString clientId; ///< Qos2Incoming: the raw client ID from the subject
    QString clientIdHash; ///< PubRel: the hash token of the subject
    int packetId = 0; ///< Qos2Incoming: last subject token; PubRel: `Nmqtt-PubRel`
    QByteArray payload;
    NatsHeaders otherHeaders; ///< headers not listed above (e.g. Nats-Msg-Id), kept as stored

    /** "message copy", "QoS2 incoming", "PUBREL". */
    QString kindName() const;
    bool retain() const { return flags && (*flags & 0x1); }

    bool operator==(const InflightRecord &other) const = default;
};

} // namespace MqttDoctor
