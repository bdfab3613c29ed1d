#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Test {

// What one mosquitto_sub / mosquitto_pub run did, parsed from its `-d` debug output.
struct MqttResult
{
    struct Message
    {
        QString topic;
        QByteArray payload;
        int qos = 0;
        bool retained = false;
    };

    QString command; // the command line, for failure messages
    bool started = false; // the tool ran at all
    bool killed = false; // still running after the process timeout, killed by us
    int exitCode = -1; // mosquitto: 0 ok, 5 not authorised, 7/255 connection lost, 27 -W timed out
    int connackCode = -1; // -1: no CONNACK received (e.g. the server closed the connection)
    QList<int> grantedQos; // from the SUBACK (128 = refused)
    bool acknowledged = false; // the PUBLISH got PUBACK (QoS1) / PUBCOMP (QoS2); QoS0: sent
    QList<Message> messages; // received messages
    QString standardOutput;
    QString standardError;

    bool connected() const { return connackCode == 0; }
    // Every requested subscription was granted (no 128 in the SUBACK).
    bool subscribed() const { return !grantedQos.isEmpty() && !grantedQos.contains(128); }
    // The broker closed the connection (mosquitto: "The connection was lost").
    bool connectionLost() const;
    QStringList receivedPayloads() const;
    // Multi-line description for QVERIFY2.
    QString describe() const;
};

} // namespace MqttDoctor::Test
