#pragma once

#include <functional>
#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include "diagnosis/mqttprobe.h"

struct mosquitto;

namespace MqttDoctor {

/**
 * One MQTT 3.1.1 client (libmosquitto) driven on the calling thread: every wait runs its network loop until
 * a condition holds, a deadline passes or the connection is lost. What the probe and the operator actions
 * (clearing retained messages, making a server forget a deleted session, a takeover where a server has no
 * kick request) connect with, as the profile's `mqtt_probe` entry describes. Blocking; one thread per client.
 */
class MqttWireClient final
{
public:
    struct Message
    {
        QString topic;
        QByteArray payload;
        int qos = 0;
        bool retain = false;
    };

    MqttWireClient(const MqttProbeRequest &request, const QString &clientId, bool cleanSession);
    ~MqttWireClient();
    MqttWireClient(const MqttWireClient &) = delete;
    MqttWireClient &operator=(const MqttWireClient &) = delete;

    /** Connects and waits for the CONNACK; false with `why` when there is none or it refuses. */
    bool connect(QString *why);
    /** The CONNACK's session-present flag (after connect() returned true). */
    bool sessionPresent() const { return m_sessionPresent; }
    /** Subscribes and waits for the SUBACK: the granted QoS, 0x80 for a refusal, -1 when none came. */
    int subscribe(const QString &topic, int qos);
    void unsubscribe(const QString &topic);
    /** Publishes at QoS 1 and waits for its PUBACK. */
    bool publish(const QString &topic, const QByteArray &payload, bool retain);
    /** The first message on `topic` that `accept` takes (any, without it) arriving within `ms`; nullopt when none. */
    std::optional<Message> waitMessage(const QString &topic, int ms, const std::function<bool(const Message &)> &accept = {});
    /** Every message received so far. */
    const QList<Message> &messages() const { return m_messages; }
    /** Runs the network loop for `ms` (messages keep arriving). */
    void pump(int ms);
    void clearMessages() { m_messages.clear(); }
    /** The server closed the connection (or it failed). */
    bool lost() const { return m_lost; }
    /** Sends DISCONNECT and waits for the close (at most 500 ms). */
    void disconnect();

    /** A random token of lower-case letters and digits (reserved client IDs and topics). */
    static QString randomToken(int length);

private:
    bool waitFor(const std::function<bool()> &done, int ms);

    const MqttProbeRequest m_request;
    mosquitto *m_mosq = nullptr;
    int m_connack = -1;
    bool m_sessionPresent = false;
    bool m_lost = false;
    QHash<int, int> m_subacks;
    QSet<int> m_pubacks;
    QList<Message> m_messages;
};

} // namespace MqttDoctor
