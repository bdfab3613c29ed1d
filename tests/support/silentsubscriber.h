#pragma once

#include <memory>

#include <QString>

class QTcpSocket;

namespace MqttDoctor::Test {

/**
 * A persistent QoS 1 subscriber that takes its messages and never acknowledges them (no PUBACK), over
 * raw MQTT 3.1.1: its durable's deliveries advance while its ack floor stays. It stays connected until
 * it is destroyed (or stop()). Blocking calls; the test's thread. Compiled into the tests that use it,
 * with rawmqtt.cpp (Qt Network).
 */
class SilentSubscriber final
{
public:
    SilentSubscriber();
    ~SilentSubscriber();

    /** CONNECT as `clientId` (clean session off) and SUBSCRIBE `topicFilter` at QoS 1; empty on success, else what happened. */
    QString start(quint16 port, const QString &user, const QString &password, const QString &clientId, const QString &topicFilter);
    /**
     * Reads PUBLISH packets (answering none) until `count` first deliveries and `redeliveries` redeliveries
     * (DUP set) were taken, or `waitMs` passed without a packet. Returns whether both counts were reached.
     */
    bool take(int count, int redeliveries = 0, int waitMs = 15000);
    int delivered() const { return m_delivered; }
    int redelivered() const { return m_redelivered; }
    void stop();

private:
    std::unique_ptr<QTcpSocket> m_socket;
    int m_delivered = 0;
    int m_redelivered = 0;
};

} // namespace MqttDoctor::Test
