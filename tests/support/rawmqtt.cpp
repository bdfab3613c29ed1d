#include "rawmqtt.h"

#include <QTcpSocket>

namespace MqttDoctor::Test {

namespace {

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

bool readExactly(QTcpSocket &socket, qsizetype n, QByteArray &into)
{
    while (into.size() < n) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(10000))
            return false;
        into.append(socket.read(n - into.size()));
    }
    return true;
}

} // namespace

QString publishQos2AndLeave(quint16 port, const QString &user, const QString &password, const QString &clientId, bool cleanSession,
                            const QString &topic, const QByteArray &payload, int packetId)
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(10000))
        return QStringLiteral("no TCP connection: ") + socket.errorString();
    QByteArray connect = mqttString("MQTT");
    connect.append(char(4));                               // protocol level 3.1.1
    connect.append(char(0x80 | 0x40 | (cleanSession ? 0x02 : 0)));  // user name, password, clean session
    connect.append(char(0)).append(char(60));              // keep alive 60 s
    connect += mqttString(clientId.toUtf8()) + mqttString(user.toUtf8()) + mqttString(password.toUtf8());
    socket.write(packet(0x10, connect));
    QByteArray connack;
    if (!readExactly(socket, 4, connack))
        return QStringLiteral("no CONNACK");
    if (quint8(connack.at(0)) != 0x20 || connack.at(3) != 0)
        return QStringLiteral("CONNACK refused: ") + QString::fromLatin1(connack.toHex());
    QByteArray publish = mqttString(topic.toUtf8());
    publish.append(char(packetId >> 8)).append(char(packetId & 0xff));
    publish += payload;
    socket.write(packet(0x34, publish));  // PUBLISH, QoS 2
    QByteArray pubrec;
    if (!readExactly(socket, 4, pubrec))
        return QStringLiteral("no PUBREC (the server closed the connection)");
    if (quint8(pubrec.at(0)) != 0x50 || ((quint8(pubrec.at(2)) << 8) | quint8(pubrec.at(3))) != packetId)
        return QStringLiteral("not a PUBREC: ") + QString::fromLatin1(pubrec.toHex());
    socket.abort();  // gone before its PUBREL
    return QStringLiteral("PUBREC");
}


} // namespace MqttDoctor::Test
