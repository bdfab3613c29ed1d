#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

/**
 * One raw JetStream message as `$JS.API.STREAM.MSG.GET.<stream>` returns it: subject, sequence,
 * header block and body (already base64-decoded). The input of the record decoders. A value type;
 * pure and thread-safe.
 */
struct StoredMessage final
{
    QString stream; ///< may be empty when unknown
    QString subject;
    quint64 seq = 0;
    QByteArray headers; ///< raw header block, empty when the message has none
    QByteArray data; ///< raw body

    /**
     * From the `message` object of a MSG.GET reply (`{"subject","seq","hdrs","data"}`, hdrs/data in
     * base64), or from a whole reply (`{"type":...,"message":{...}}`). Fails on a JetStream error
     * reply, a missing subject, or invalid base64.
     */
    static Result<StoredMessage> fromJson(const QJsonObject &object);

    bool operator==(const StoredMessage &other) const = default;
};

} // namespace MqttDoctor
