#pragma once

#include "serverconfig.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace MqttDoctor::Test {
class NatsServerFixture;
}

namespace MqttDoctor::Demo {

// The demo's accounts and the MQTT state it creates with mosquitto clients:
// * SYS  system account, sys/syspass
// * ACME JetStream, acme/acmepass: persistent sessions with QoS 1 subscriptions (all offline
//        afterwards), retained QoS 0/QoS 1 messages, QoS 1 messages queued for the offline sessions
// * BETA JetStream with limits, beta/betapass: two sessions, a retained and a queued message
// * NOJS no JetStream, nojs/nojspass: an MQTT connect is refused (the server logs why)
class DemoScenario
{
public:
    static Test::ServerConfig serverConfig();

    // Runs the mosquitto clients. `cancelled` is checked between steps. False: see errorString().
    bool populate(const Test::NatsServerFixture &server, const std::function<bool()> &cancelled);
    QString errorString() const { return m_errorString; }

    // Human-readable lines: what exists in which account.
    QStringList summary() const { return m_summary; }

private:
    bool createSession(const Test::NatsServerFixture &server, const QString &account, const QString &clientId,
                       const QStringList &topics);
    bool publish(const Test::NatsServerFixture &server, const QString &account, const QString &topic,
                 const QByteArray &payload, int qos, bool retain);

    QString m_errorString;
    QStringList m_summary;
};

} // namespace MqttDoctor::Demo
