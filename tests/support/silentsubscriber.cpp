#include "silentsubscriber.h"

#include <QTcpSocket>

#include "rawmqtt.h"

namespace MqttDoctor::Test {

SilentSubscriber::SilentSubscriber() : m_socket(std::make_unique<QTcpSocket>()) {}

SilentSubscriber::~SilentSubscriber()
{
    stop();
}

QString SilentSubscriber::start(quint16 port, const QString &user, const QString &password, const QString &clientId,
                                const QString &topicFilter)
{
    if (const QString refused = RawMqtt::connectAs(*m_socket, port, user, password, clientId, false); !refused.isEmpty())
        return refused;
    QByteArray subscribe;
    subscribe.append(char(0)).append(char(1)); // packet ID 1
    subscribe += RawMqtt::mqttString(topicFilter.toUtf8());
    subscribe.append(char(1)); // QoS 1
    m_socket->write(RawMqtt::packet(0x82, subscribe));
    quint8 type = 0;
    QByteArray body;
    if (!RawMqtt::readPacket(*m_socket, type, body) || type != 0x90)
        return QStringLiteral("no SUBACK");
    if (body.size() < 3 || quint8(body.at(2)) != 1)
        return QStringLiteral("QoS 1 not granted: ") + QString::fromLatin1(body.toHex());
    return {};
}

bool SilentSubscriber::take(int count, int redeliveries, int waitMs)
{
    while (m_delivered < count || m_redelivered < redeliveries) {
        quint8 type = 0;
        QByteArray body;
        if (!RawMqtt::readPacket(*m_socket, type, body, waitMs))
            return false;
        if ((type & 0xf0) != 0x30)
            continue; // not a PUBLISH
        if (type & 0x08)
            ++m_redelivered; // DUP: a redelivery
        else
            ++m_delivered;
    }
    return true;
}

void SilentSubscriber::stop()
{
    if (m_socket && m_socket->state() != QAbstractSocket::UnconnectedState)
        m_socket->abort();
}

} // namespace MqttDoctor::Test
