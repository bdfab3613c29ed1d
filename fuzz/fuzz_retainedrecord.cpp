// Retained messages ($MQTT_rmsgs), both encodings: the fast path (retainedrecordfast) and the
// reference decoder must agree on every input, and a decoded record must survive being encoded again.
#include <cstdio>
#include <cstdlib>

#include "fuzzinput.h"
#include "mqtt/retainedrecord.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const StoredMessage message = Fuzz::storedMessage(Fuzz::bytes(data, size), QStringLiteral("$MQTT_rmsgs"));

    const auto record = RetainedRecord::decode(message);
    const auto reference = RetainedRecord::decodeReference(message);
    MQTTDOCTOR_FUZZ_CHECK(record.ok() == reference.ok(), "decode() and decodeReference() disagree on success");
    if (record.ok())
        MQTTDOCTOR_FUZZ_CHECK(*record == *reference, "decode() and decodeReference() give different records");
    else
        MQTTDOCTOR_FUZZ_CHECK(record.error().message() == reference.error().message(),
                              "decode() and decodeReference() give different errors");

    const auto json = RetainedRecord::decodeJson(message.data);
    if (json) {
        const auto again = RetainedRecord::decodeJson(json->encodeJson());
        MQTTDOCTOR_FUZZ_CHECK(again.ok(), "an encoded JSON record does not decode");
        MQTTDOCTOR_FUZZ_CHECK(*again == *json, "decodeJson(encodeJson(r)) != r");
    }
    if (record) {
        (void)record->payloadPreview();
        (void)record->payloadPreview(1);
        (void)record->subjectFromStoredSubject();
        (void)record->encodeHeaders();
        (void)record->encodeJson();
    }
    return 0;
}
