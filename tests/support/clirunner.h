#pragma once

#include <QJsonObject>
#include <QStringList>

#include "commandrunner.h"

namespace MqttDoctor::Test {

// Runs the built nats-mqtt-doctor-cli ($MQTTDOCTOR_BINARY_DIR/bin) as an operator would.
class CliRunner
{
public:
    struct Run
    {
        CommandRunner::Result process;
        QJsonObject json; // stdout parsed as one JSON object (with --json), empty otherwise
        bool jsonValid = false;
        qint64 elapsedMs = 0;

        int exitCode() const { return process.exitCode; }
        QString out() const { return QString::fromUtf8(process.standardOutput); }
        QString err() const { return QString::fromUtf8(process.standardError); }
        QString describe() const; // for failure messages
    };

    static QString path();
    static Run run(const QStringList &arguments, int timeoutMs = 60000);
};

} // namespace MqttDoctor::Test
