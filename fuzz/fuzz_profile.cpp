// Connection settings from files the user points us at: natscli contexts and our profile JSON.
// Parsing only (no file is read: references stay paths until a connection loads them).
#include <QJsonDocument>
#include <QJsonObject>

#include "fuzzinput.h"
#include "nats/natscontext.h"
#include "nats/profile.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument doc = QJsonDocument::fromJson(Fuzz::bytes(data, size));
    if (!doc.isObject())
        return 0;
    const QJsonObject object = doc.object();

    if (const auto context = NatsContext::fromJson(object, QStringLiteral("fuzz")))
        (void)context->toJson(false);

    if (const auto profile = Profile::fromJson(object, QStringLiteral("/nonexistent-base"))) {
        const QJsonObject written = profile->toJson(true);
        const auto again = Profile::fromJson(written, QStringLiteral("/nonexistent-base"));
        MQTTDOCTOR_FUZZ_CHECK(again.ok(), "a profile written by toJson(true) does not parse");
        MQTTDOCTOR_FUZZ_CHECK(*again == *profile, "Profile::fromJson(toJson(p)) != p");
    }
    return 0;
}
