#include "rawmqtt.h"

#include <QTcpSocket>

namespace MqttDoctor::Test::RawMqtt {

QByteArray mqttString(const QByteArray &s)
{
    QByteArray out;
    out.append(char(s.size() >> 8)).append(char(s.size() & 0xff)).append(s);
    return out;
}

QByteArray packet(quint8 type, const QByteArray &body)
{
    QByteArray out(1, char(type));
    qsizetype len = body.size();
    do {
        quint8 digit = len % 128;
        len /= 128;
        if (len > 0)
            digit |= 0x80;
        out.append(char(digit));
    } while (len > 0);
    return out + body;
}

bool readExactly(QTcpSocket &socket, qsizetype n, QByteArray &into, int waitMs)
{
    while (into.size() < n) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(waitMs))
            return false;
        into.append(socket.read(n - into.size()));
    }
    return true;
}

bool readPacket(QTcpSocket &socket, quint8 &type, QByteArray &body, int waitMs)
{
    QByteArray head;
    if (!readExactly(socket, 1, head, waitMs))
        return false;
    type = quint8(head.at(0));
    qsizetype length = 0;
    for (int shift = 0; shift < 28; shift += 7) {
        QByteArray digit;
        if (!readExactly(socket, 1, digit))
            return false;
        length |= qsizetype(quint8(digit.at(0)) & 0x7f) << shift;
        if ((quint8(digit.at(0)) & 0x80) == 0)
            break;
    }
    body.clear();
    return readExactly(socket, length, body, waitMs);
}

QString connectAs(QTcpSocket &socket, quint16 port, const QString &user, const QString &password, const QString &clientId,
                  bool cleanSession)
{
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(10000))
        return QStringLiteral("no TCP connection: ") + socket.errorString();
    QByteArray connect = mqttString("MQTT");
    connect.append(char(4)); // protocol level 3.1.1
    connect.append(char(0x80 | 0x40 | (cleanSession ? 0x02 : 0))); // user name, password, clean session
    connect.append(char(0)).append(char(60)); // keep alive 60 s
    connect += mqttString(clientId.toUtf8()) + mqttString(user.toUtf8()) + mqttString(password.toUtf8());
    socket.write(packet(0x10, connect));
    QByteArray connack;
    if (!readExactly(socket, 4, connack))
        return QStringLiteral("no CONNACK");
    if (quint8(connack.at(0)) != 0x20 || connack.at(3) != 0)
        return QStringLiteral("CONNACK refused: ") + QString::fromLatin1(connack.toHex());
    return {};
}

} // namespace MqttDoctor::Test::RawMqtt

namespace MqttDoctor::Test {

using namespace RawMqtt;

QString receiveQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, const QString &topicFilter,
                            const std::function<void()> &publish)
{
    QTcpSocket socket;
    if (const QString refused = connectAs(socket, port, user, password, clientId, false); !refused.isEmpty())
        return refused;
    QByteArray subscribe;
    subscribe.append(char(0)).append(char(1)); // packet ID 1
    subscribe += mqttString(topicFilter.toUtf8());
    subscribe.append(char(2)); // QoS 2
    socket.write(packet(0x82, subscribe));
    quint8 type = 0;
    QByteArray body;
    if (!readPacket(socket, type, body) || type != 0x90)
        return QStringLiteral("no SUBACK");
    if (body.size() < 3 || quint8(body.at(2)) != 2)
        return QStringLiteral("QoS 2 not granted: ") + QString::fromLatin1(body.toHex());
    publish();
    if (!readPacket(socket, type, body))
        return QStringLiteral("no PUBLISH");
    if ((type & 0xf0) != 0x30 || ((type >> 1) & 3) != 2)
        return QStringLiteral("not a QoS 2 PUBLISH: ") + QString::number(type, 16);
    const int topicLength = (quint8(body.at(0)) << 8) | quint8(body.at(1));
    const QByteArray packetId = body.mid(2 + topicLength, 2);
    socket.write(packet(0x50, packetId)); // PUBREC
    if (!readPacket(socket, type, body))
        return QStringLiteral("no PUBREL");
    if (type != 0x62 || body != packetId)
        return QStringLiteral("not the PUBREL: ") + QString::number(type, 16);
    socket.abort(); // gone before its PUBCOMP
    return QStringLiteral("PUBREL %1").arg((quint8(packetId.at(0)) << 8) | quint8(packetId.at(1)));
}

QString publishQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, bool cleanSession,
                            const QString &topic, const QByteArray &payload, int packetId)
{
    QTcpSocket socket;
    if (const QString refused = connectAs(socket, port, user, password, clientId, cleanSession); !refused.isEmpty())
        return refused;
    QByteArray publish = mqttString(topic.toUtf8());
    publish.append(char(packetId >> 8)).append(char(packetId & 0xff));
    publish += payload;
    socket.write(packet(0x34, publish)); // PUBLISH, QoS 2
    QByteArray pubrec;
    if (!readExactly(socket, 4, pubrec))
        return QStringLiteral("no PUBREC (the server closed the connection)");
    if (quint8(pubrec.at(0)) != 0x50 || ((quint8(pubrec.at(2)) << 8) | quint8(pubrec.at(3))) != packetId)
        return QStringLiteral("not a PUBREC: ") + QString::fromLatin1(pubrec.toHex());
    socket.abort(); // gone before its PUBREL
    return QStringLiteral("PUBREC");
}

} // namespace MqttDoctor::Test
