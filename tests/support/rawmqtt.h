#pragma once

#include <functional>

#include <QByteArray>
#include <QString>

class QTcpSocket;

namespace MqttDoctor::Test {

/** The packet pieces of the raw clients (rawmqtt.cpp, SilentSubscriber). */
namespace RawMqtt {
/** A length-prefixed MQTT string. */
QByteArray mqttString(const QByteArray &s);
/** A packet: its first byte, the remaining length, the body. */
QByteArray packet(quint8 type, const QByteArray &body);
/** Reads exactly `n` more bytes into `into`, waiting at most `waitMs` for each arrival. */
bool readExactly(QTcpSocket &socket, qsizetype n, QByteArray &into, int waitMs = 10000);
/** One whole packet: its first byte in `type`, its body (after the remaining length) in `body`. */
bool readPacket(QTcpSocket &socket, quint8 &type, QByteArray &body, int waitMs = 10000);
/** CONNECT with user and password; empty when the CONNACK accepted it, else what happened. */
QString connectAs(QTcpSocket &socket, quint16 port, const QString &user, const QString &password, const QString &clientId,
                  bool cleanSession);
} // namespace RawMqtt

/**
 * A few packets of raw MQTT 3.1.1 over a socket, for what mosquitto's tools cannot do: CONNECT as
 * `clientId` (user/password), PUBLISH QoS 2 with `packetId`, wait for the PUBREC and drop the
 * connection without a PUBREL, so the server keeps the message in `$MQTT_qos2in`. Returns "PUBREC"
 * on success, else what happened instead (2.9 servers close the connection). Compiled into the tests
 * that use it (Qt Network).
 */
QString publishQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, bool cleanSession,
                            const QString &topic, const QByteArray &payload, int packetId);

/**
 * A persistent QoS 2 subscriber that leaves half-way: CONNECT as `clientId` (clean session off),
 * SUBSCRIBE `topicFilter` with QoS 2, call `publish` (the test publishes a QoS 2 message to it), take
 * the PUBLISH, answer PUBREC, take the server's PUBREL and drop the connection without the PUBCOMP,
 * so the server keeps the PUBREL in `$MQTT_out`. Returns "PUBREL <packet ID>" on success, else what
 * happened instead.
 */
QString receiveQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, const QString &topicFilter,
                            const std::function<void()> &publish);

} // namespace MqttDoctor::Test
