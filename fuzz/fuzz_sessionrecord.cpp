// Session records ($MQTT_sess): the fast decoder and the reference decoder must agree on every input
// (same record or same error), and a decoded record must survive encode() and decode again.
#include <cstdio>
#include <cstdlib>

#include "fuzzinput.h"
#include "mqtt/sessionrecord.h"

using namespace MqttDoctor;

namespace {

void checkSame(const Result<SessionRecord> &fast, const Result<SessionRecord> &reference)
{
    MQTTDOCTOR_FUZZ_CHECK(fast.ok() == reference.ok(), "decode() and decodeReference() disagree on success");
    if (fast.ok())
        MQTTDOCTOR_FUZZ_CHECK(*fast == *reference, "decode() and decodeReference() give different records");
    else
        MQTTDOCTOR_FUZZ_CHECK(fast.error().message() == reference.error().message(),
                              "decode() and decodeReference() give different errors");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const StoredMessage message = Fuzz::storedMessage(Fuzz::bytes(data, size), QStringLiteral("$MQTT_sess"));

    const auto record = SessionRecord::decode(message);
    checkSame(record, SessionRecord::decodeReference(message));

    const auto body = SessionRecord::decode(message.data);
    checkSame(body, SessionRecord::decodeReference(message.data));

    if (body) {
        const QByteArray encoded = body->encode();
        const auto again = SessionRecord::decode(encoded);
        MQTTDOCTOR_FUZZ_CHECK(again.ok(), "an encoded record does not decode");
        MQTTDOCTOR_FUZZ_CHECK(*again == *body, "decode(encode(r)) != r");
    }
    if (record) {
        // The derived fields are computed for any record; they must not crash either.
        (void)record->subjectHash();
        (void)record->subjectDomain();
        (void)record->idMatchesSubject();
        (void)record->durableNames();
        (void)record->subscriptions(TopicMapping::Dialect::V2_9);
        (void)record->subscriptions(TopicMapping::Dialect::V2_10);
    }
    return 0;
}
