#pragma once

#include <QByteArray>
#include <QString>

namespace MqttDoctor::Test {

/**
 * A few packets of raw MQTT 3.1.1 over a socket, for what mosquitto's tools cannot do: CONNECT as
 * `clientId` (user/password), PUBLISH QoS 2 with `packetId`, wait for the PUBREC and drop the
 * connection without a PUBREL, so the server keeps the message in `$MQTT_qos2in`. Returns "PUBREC"
 * on success, else what happened instead (2.9 servers close the connection). Compiled into the tests
 * that use it (Qt Network).
 */
QString publishQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, bool cleanSession,
                            const QString &topic, const QByteArray &payload, int packetId);

} // namespace MqttDoctor::Test
