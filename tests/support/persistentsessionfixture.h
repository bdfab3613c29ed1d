#pragma once

#include <memory>

#include <QString>
#include <QStringList>

#include "mqttclient.h"
#include "mqttresult.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

namespace MqttDoctor::Test {

// The common setup of the tests of MQTT session records (checks, repairs, delivery findings, streamed
// output): one nats-server whose config holds the account ACME (ServerConfig::standard() unless another
// config is given: user acme/acmepass with JetStream, system user sys/syspass), ACME's MQTT client
// (mosquitto, 30 s per call), the persistent sessions that client makes, and the command-line
// arguments that reach ACME with the system user (so CONNZ is answered).
//
//     PersistentSessionFixture lab;
//     QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
//     QVERIFY(lab.addSession(u"dev-1"_s, {u"dev/#"_s}).subscribed());
//     CliRunner::run(lab.cliArgs() + QStringList{u"check"_s});
class PersistentSessionFixture
{
public:
    static constexpr int MqttTimeoutMs = 30000;

    PersistentSessionFixture() = default;
    PersistentSessionFixture(const PersistentSessionFixture &) = delete;
    PersistentSessionFixture &operator=(const PersistentSessionFixture &) = delete;

    // Starts the server of `versionLabel` with `config` and makes ACME's MQTT client. False (see
    // errorString()) when the server does not start.
    bool start(const QString &versionLabel, const ServerConfig &config = ServerConfig::standard());
    QString errorString() const { return m_server.errorString(); }

    NatsServerFixture &server() { return m_server; }
    // ACME's MQTT client; only after a successful start().
    MqttClient &mqtt() { return *m_mqtt; }
    QString url() const { return m_server.url(); }
    quint16 mqttPort() const { return m_server.mqttPort(); }

    // A persistent session of `clientId` subscribed to `topics` (mosquitto_sub -c ... -E), tried up to
    // three times: a server that has just started may refuse the first one while its MQTT streams
    // settle. The last try's result.
    MqttResult addSession(const QString &clientId, const QStringList &topics, int qos = 1);

    // "--server <url> --user acme --password acmepass --system-user sys --system-password syspass".
    QStringList cliArgs() const;

    static QString user() { return QStringLiteral("acme"); }
    static QString password() { return QStringLiteral("acmepass"); }
    static QString systemUser() { return QStringLiteral("sys"); }
    static QString systemPassword() { return QStringLiteral("syspass"); }

private:
    NatsServerFixture m_server;
    std::unique_ptr<MqttClient> m_mqtt;
};

} // namespace MqttDoctor::Test
