#pragma once

#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

namespace MqttDoctor::Test {

/**
 * Real MQTT load from mosquitto clients: `count` persistent QoS 1 subscribers "load-<i>" on "load/<i % groups>/#",
 * each a long-running mosquitto_sub whose output goes to a file, and one mosquitto_pub per group reading lines
 * ("g<g>-<n>") from its standard input. Everything a test needs to say whether every published message reached
 * every subscriber of its group. Processes are killed when the object goes.
 */
class MqttLoad
{
public:
    MqttLoad(QStringList ports, QString user, QString password, QString outputDir);
    ~MqttLoad();
    MqttLoad(const MqttLoad &) = delete;
    MqttLoad &operator=(const MqttLoad &) = delete;

    /** Starts the subscribers (spread over the ports) and waits until each has its SUBACK; false: errorString(). */
    bool startSubscribers(int count, int groups, int timeoutMs);
    /** Starts one publisher per group; false: errorString(). */
    bool startPublishers();
    /** Writes one message to each group's publisher. */
    void publishRound();
    /** Closes the publishers' input and waits until they have sent everything and exited. */
    bool stopPublishers(int timeoutMs);
    /**
     * Waits until every subscriber has every message published to its group; what is missing otherwise,
     * first what the first subscriber with something missing was doing (running or not, its last output).
     */
    QStringList waitDelivered(int timeoutMs) const;
    /** Disconnects the subscribers (SIGTERM: a clean MQTT disconnect; their sessions stay). */
    void stopSubscribers();

    int published() const { return m_published; }
    int subscriberCount() const { return int(m_subscribers.size()); }
    QString errorString() const { return m_error; }

private:
    QStringList commonArgs(int index) const;
    QString outputOf(int subscriber) const;

    QStringList m_ports;
    QString m_user;
    QString m_password;
    QString m_dir;
    int m_groups = 1;
    int m_published = 0;
    QList<QStringList> m_sent; // per group
    std::vector<std::unique_ptr<QProcess>> m_subscribers;
    std::vector<std::unique_ptr<QProcess>> m_publishers;
    QString m_error;
};

} // namespace MqttDoctor::Test
