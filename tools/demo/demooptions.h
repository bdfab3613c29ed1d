#pragma once

#include <QString>
#include <QStringList>

namespace MqttDoctor::Demo {

// Command line of nats-mqtt-doctor-demo:
//   nats-mqtt-doctor-demo [--server-version 2.9|2.10|newest] [--keep-running] [-- command args...]
// Everything after the first "--" is the command; "{url}", "{profile}", "{mqtt-port}" and "{http-port}" in it
// are replaced by the running server's values.
class DemoOptions
{
public:
    // False: stop with exitCode() (help shown or a usage error, message already printed).
    bool parse(const QStringList &arguments);
    int exitCode() const { return m_exitCode; }

    QString serverVersion() const { return m_serverVersion; } // empty: newest if available, else 2.9
    bool keepRunning() const { return m_keepRunning; }
    QStringList command() const { return m_command; }

private:
    QString m_serverVersion;
    bool m_keepRunning = false;
    QStringList m_command;
    int m_exitCode = 0;
};

} // namespace MqttDoctor::Demo
