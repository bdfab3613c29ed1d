// QoS 1/2 message copies, QoS 2 incoming records and PUBREL records ($MQTT_msgs, $MQTT_qos2in,
// $MQTT_out): decode() is total, and a decoded record's headers must parse back to the same record.
#include <cstdio>
#include <cstdlib>

#include "fuzzinput.h"
#include "mqtt/inflightrecord.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    StoredMessage message = Fuzz::storedMessage(Fuzz::bytes(data, size), {});
    if (message.subject.startsWith(QLatin1String("$MQTT.qos2.")))
        message.stream = QStringLiteral("$MQTT_qos2in");
    else if (message.subject.startsWith(QLatin1String("$MQTT.out.")))
        message.stream = QStringLiteral("$MQTT_out");
    else
        message.stream = QStringLiteral("$MQTT_msgs");

    const auto record = InflightRecord::decode(message);
    if (!record)
        return 0;
    (void)record->kindName();
    (void)record->retain();
    StoredMessage stored = message;
    stored.headers = record->encodeHeaders().encode();
    const auto again = InflightRecord::decode(stored);
    MQTTDOCTOR_FUZZ_CHECK(again.ok(), "a record's encoded headers do not decode");
    return 0;
}
