// JetStream API reply bodies as anything answering on `$JS.API.>` may send them: JetStreamClient::parseReply
// (the path of every JetStream call), then the shape checks the callers apply to the object it returns
// (checkStreamInfo, checkConsumerInfo on the reply and on each list entry), and MessageGetter::parseMessageGetReply
// (the pipelined raw STREAM.MSG.GET reads by sequence).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

#include "fuzzinput.h"
#include "nats/jetstreamclient.h"
#include "nats/messagegetter.h"
#include "repair/backupformat.h"

using namespace MqttDoctor;

namespace {

// Excerpts and descriptions are cut: a hostile reply cannot make an error message (a terminal line) huge.
void checkError(const Error &e, const QString &op)
{
    MQTTDOCTOR_FUZZ_CHECK(e.kind() == Error::Kind::Protocol || e.kind() == Error::Kind::JetStream || e.kind() == Error::Kind::NotFound,
                          "a reply fails as a protocol, JetStream or not-found error");
    MQTTDOCTOR_FUZZ_CHECK(e.message().startsWith(QStringLiteral("JetStream ") + op), "the error names the request");
    MQTTDOCTOR_FUZZ_CHECK(e.message().size() < 1000, "the error message is bounded");
    MQTTDOCTOR_FUZZ_CHECK(e.jsErrCode() >= 0 && e.jsErrCode() < 1000000, "err_code is kept only when plausible");
    MQTTDOCTOR_FUZZ_CHECK(e.kind() != Error::Kind::NotFound || e.jsErrCode() != 0, "not found comes from an err_code");
}

// As a reply for the sequence it names (most inputs name one), else for sequence 1.
void messageGetReply(const QByteArray &input)
{
    const qint64 named =
        QJsonDocument::fromJson(input).object().value(QLatin1String("message")).toObject().value(QLatin1String("seq")).toInteger(0);
    const quint64 sequence = named > 0 ? quint64(named) : 1;
    const auto m = MessageGetter::parseMessageGetReply(input, QStringLiteral("$MQTT_sess"), sequence);
    if (!m) {
        checkError(m.error(), QStringLiteral("STREAM.MSG.GET.$MQTT_sess"));
        return;
    }
    MQTTDOCTOR_FUZZ_CHECK(m->sequence == sequence, "a message is the one asked for");
    MQTTDOCTOR_FUZZ_CHECK(m->deleted ? m->subject.isEmpty() && m->data.isEmpty() : !m->subject.isEmpty(),
                          "a message has a subject, a deleted one nothing");
    // The time goes into backups as text and comes back the same.
    if (m->timeNs != 0)
        MQTTDOCTOR_FUZZ_CHECK(BackupFormat::parseTime(BackupFormat::formatTime(m->timeNs)) == std::optional<qint64>(m->timeNs),
                              "a message's time survives a backup");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    messageGetReply(input);
    const QString op = QStringLiteral("STREAM.INFO.$MQTT_sess");
    const auto reply = JetStreamClient::parseReply(input, op, QStringLiteral("$JS.API.") + op);

    if (!reply) {
        checkError(reply.error(), op);
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
