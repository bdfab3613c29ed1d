#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace MqttDoctor {

/**
 * Writes JSON the way Go's encoding/json does (compact; `<`, `>`, `&`, U+2028 and U+2029 escaped as
 * `\u003c`...; integral numbers without exponent), so records this tool re-encodes look like the ones
 * nats-server writes. Object keys come out in QJsonObject (sorted) order, like Go maps.
 * All functions are pure and thread-safe.
 */
class GoJson final
{
public:
    /** A quoted, escaped JSON string. */
    static QByteArray string(const QString &s);
    /** Any JSON value. */
    static QByteArray value(const QJsonValue &v);
};

} // namespace MqttDoctor
