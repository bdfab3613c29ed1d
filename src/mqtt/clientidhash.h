#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

namespace MqttDoctor {

/**
 * The 8-character hash nats-server derives from an MQTT client ID (and from server names):
 * the first 8 bytes of SHA-256 over the UTF-8 bytes, each byte b mapped to
 * "0-9A-Za-z"[b % 62]. Used in `$MQTT.sess.<hash>`, durable
 * names `<hash>_<nuid>`, `$MQTT_PUBREL_<hash>` and the server's `origin` token.
 *
 * All functions are pure and thread-safe.
 */
class ClientIdHash final
{
public:
    /** Hash of a client ID (or server name), e.g. "sensor-sub-1" → "kBmSuDPK". */
    static QString hash(const QString &clientId);
    /** Hash of raw bytes (a client ID that is not valid UTF-8). */
    static QString hashBytes(const QByteArray &bytes);
    /** hash(clientId) == hash, without making a string (one check per loaded session record). */
    static bool hashEquals(const QString &clientId, QStringView hash);
    /** True for exactly 8 characters of [0-9A-Za-z]. */
    static bool isHashToken(QStringView token);

    static constexpr int length = 8;
};

} // namespace MqttDoctor
