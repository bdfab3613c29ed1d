#pragma once

#include <QList>
#include <QString>

namespace MqttDoctor::Test {

// Many short MQTT 3.1.1 exchanges against one MQTT listener, run side by side over non-blocking POSIX
// sockets on the calling thread: CONNECT (user, password, clean session off), SUBSCRIBE one topic,
// wait for the SUBACK, DISCONNECT, wait until the server closes the socket. Each exchange leaves a
// persistent session (its record in `$MQTT_sess` and one durable in `$MQTT_msgs`) and, for the first
// client of an account, the account's MQTT streams. Made for fleets of thousands of accounts, where
// one mosquitto process per client (MqttClient) would take minutes.
class MqttSessionBatch
{
public:
    struct Exchange
    {
        QString clientId;
        QString user;
        QString password;
        QString topic; // subscribed with `qos`
        int qos = 1;
    };

    struct Outcome
    {
        int connackCode = -1; // -1: no CONNACK (e.g. the server closed the connection)
        bool sessionPresent = false;
        QList<int> granted; // from the SUBACK (128 = refused)
        bool refusedAtConnect = false; // the server answered our CONNECT with a non-zero CONNACK or by closing the connection
        bool closedByServer = false; // the server closed the socket after our DISCONNECT
        QString failure; // empty when every step above happened as expected
        qint64 elapsedMs = 0;

        bool completed() const { return failure.isEmpty(); }
    };

    // Runs every exchange, at most `parallel` at once; each gets `timeoutMs` from its socket's connect
    // to the server's close. The outcomes are in the order of `exchanges`.
    static QList<Outcome> run(quint16 port, const QList<Exchange> &exchanges, int parallel, int timeoutMs);
};

} // namespace MqttDoctor::Test
