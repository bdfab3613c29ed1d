// JetStream API reply bodies as anything answering on `$JS.API.>` may send them: JetStreamClient::parseReply
// (the path of every JetStream call), then the shape checks the callers apply to the object it returns
// (checkStreamInfo, checkConsumerInfo on the reply and on each list entry) and errorFromReply.
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

#include "fuzzinput.h"
#include "nats/jetstreamclient.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const QString op = QStringLiteral("STREAM.INFO.$MQTT_sess");
    const auto reply = JetStreamClient::parseReply(input, op, QStringLiteral("$JS.API.") + op);

    if (!reply) {
        const Error &e = reply.error();
        MQTTDOCTOR_FUZZ_CHECK(e.kind() == Error::Kind::Protocol || e.kind() == Error::Kind::JetStream
                                  || e.kind() == Error::Kind::NotFound,
                              "a reply fails as a protocol, JetStream or not-found error");
        MQTTDOCTOR_FUZZ_CHECK(e.message().startsWith(QStringLiteral("JetStream ") + op), "the error names the request");
        // Excerpts and descriptions are cut: a hostile reply cannot make the message (a terminal line) huge.
        MQTTDOCTOR_FUZZ_CHECK(e.message().size() < 1000, "the error message is bounded");
        MQTTDOCTOR_FUZZ_CHECK(e.jsErrCode() >= 0 && e.jsErrCode() < 1000000, "err_code is kept only when plausible");
        MQTTDOCTOR_FUZZ_CHECK(e.kind() != Error::Kind::NotFound || e.jsErrCode() != 0, "not found comes from an err_code");
        return 0;
    }

    MQTTDOCTOR_FUZZ_CHECK(!reply->contains(QLatin1String("error")), "a reply with \"error\" is never a success");
    const auto checkStream = [](const QJsonObject &info) {
        if (JetStreamClient::checkStreamInfo(info, QStringLiteral("STREAM.LIST")))
            MQTTDOCTOR_FUZZ_CHECK(!info.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString().isEmpty(),
                                  "an accepted stream info names its stream");
    };
    const auto checkConsumer = [](const QJsonObject &info) {
        if (JetStreamClient::checkConsumerInfo(info, QStringLiteral("CONSUMER.LIST")))
            MQTTDOCTOR_FUZZ_CHECK(!info.value(QLatin1String("name")).toString().isEmpty() && info.value(QLatin1String("config")).isObject(),
                                  "an accepted consumer info has a name and a config");
    };
    checkStream(*reply);
    checkConsumer(*reply);
    (void)JetStreamClient::checkStreamInfo(*reply, op, QStringLiteral("$MQTT_sess"));
    for (const QJsonValue &v : reply->value(QLatin1String("streams")).toArray())
        checkStream(v.toObject());
    for (const QJsonValue &v : reply->value(QLatin1String("consumers")).toArray())
        checkConsumer(v.toObject());
    return 0;
}
