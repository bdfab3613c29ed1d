// JetStream API and `$SYS` replies as the server (or anything answering on its subjects) sends them:
// SystemClient::parse, the discovery parsers (VARZ, JSZ, server envelopes, stream infos), the CLI's
// JSON shapes built from them, JetStream error replies and MSG.GET replies. All must be total.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "fuzzinput.h"
#include "nats/clusterjson.h"
#include "nats/discovery.h"
#include "nats/jetstreamclient.h"
#include "nats/systemclient.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);

    if (const auto reply = SystemClient::parse(input)) {
        (void)ClusterJson::server(Discovery::serverFromVarz(*reply));
        (void)ClusterJson::server(Discovery::serverFromEnvelope(reply->server));
        for (const AccountInfo &account : Discovery::accountsFromJsz({*reply, *reply}))
            (void)ClusterJson::account(account);
    }

    const QJsonDocument doc = QJsonDocument::fromJson(input);
    QList<QJsonObject> objects;
    if (doc.isObject())
        objects.append(doc.object());
    for (const QJsonValue &v : doc.array())
        objects.append(v.toObject());
    for (const QJsonObject &o : objects) {
        (void)ClusterJson::stream(Discovery::streamFromJson(o, QStringLiteral("fuzz")));
        (void)ClusterJson::consumer(o);
        (void)JetStreamClient::errorFromReply(o.value(QLatin1String("error")).toObject(), QStringLiteral("STREAM.INFO"));
        (void)StoredMessage::fromJson(o);
        for (const QJsonValue &stream : o.value(QLatin1String("streams")).toArray())
            (void)ClusterJson::stream(Discovery::streamFromJson(stream.toObject(), QStringLiteral("fuzz")));
    }
    return 0;
}
