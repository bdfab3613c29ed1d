#pragma once

#include "mqttresult.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Test {

// Drives Debian's mosquitto_sub / mosquitto_pub (package mosquitto-clients, MQTT 3.1.1) against an
// MQTT listener, one process per call, with a timeout. Notes on nats-server:
// * 2.9.x refuses QoS 2 PUBLISH (connection closed, exit code 7); 2.10+ accepts it. QoS 2
//   subscriptions are accepted by all and downgraded to QoS 1.
// * a connect the server rejects after accepting the socket shows as connackCode == -1 and
//   connectionLost() (exit code 255 for mosquitto_sub, 7 for mosquitto_pub).
class MqttClient
{
public:
    static constexpr int DefaultTimeoutMs = 15000;

    explicit MqttClient(quint16 port, const QString &user = {}, const QString &password = {},
                        const QString &host = QStringLiteral("127.0.0.1"));

    void setCredentials(const QString &user, const QString &password);
    // mosquitto's --cafile/--cert/--key (TLS on the MQTT listener).
    void setTls(const QString &caFile, const QString &certFile = {}, const QString &keyFile = {});
    // Kill the tool if it runs longer (default 15 s).
    void setTimeoutMs(int timeoutMs) { m_timeoutMs = timeoutMs; }

    // Connects once and disconnects (mosquitto_pub of an empty QoS 0 message on `probeTopic`).
    // cleanSession=false loads the client's persistent session, as a reconnect would.
    MqttResult connectOnce(const QString &clientId, bool cleanSession = true,
                           const QString &probeTopic = QStringLiteral("mqttdoctor/probe")) const;

    // mosquitto_sub -c -q qos -t ... -E: subscribes and disconnects at once, leaving a persistent
    // session. (Queued messages for an existing session may be delivered and acknowledged.)
    MqttResult createPersistentSession(const QString &clientId, const QStringList &topics, int qos) const;

    // mosquitto_pub; an empty payload is sent as a zero-length message (-n), which with retain
    // clears the retained message. clientId empty: mosquitto picks one.
    MqttResult publish(const QString &topic, const QByteArray &payload, int qos, bool retain = false, const QString &clientId = {}) const;

    // Subscribes and collects messages until expectedCount arrived or waitSeconds passed
    // (mosquitto exit code 27 then). persistentSession=true resumes/creates the session (-c).
    MqttResult subscribeAndCollect(const QString &clientId, const QStringList &topics, int qos, int expectedCount, int waitSeconds = 5,
                                   bool persistentSession = false) const;

    // Empty if mosquitto_sub and mosquitto_pub are installed, else what is missing.
    static QString missingTools();

private:
    QStringList commonArguments(const QString &clientId) const;
    MqttResult run(const QString &tool, const QStringList &arguments, const QByteArray &input, int timeoutMs) const;

    QString m_host;
    quint16 m_port;
    QString m_user;
    QString m_password;
    QString m_caFile;
    QString m_certFile;
    QString m_keyFile;
    int m_timeoutMs = DefaultTimeoutMs;
};

} // namespace MqttDoctor::Test
