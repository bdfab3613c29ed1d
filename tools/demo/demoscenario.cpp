#include "demoscenario.h"

#include "mqttclient.h"
#include "natsserverfixture.h"

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Demo {

namespace {

struct Credentials
{
    QString user;
    QString password;
};

Credentials credentialsOf(const QString &account)
{
    if (account == u"ACME")
        return {u"acme"_s, u"acmepass"_s};
    if (account == u"BETA")
        return {u"beta"_s, u"betapass"_s};
    return {u"nojs"_s, u"nojspass"_s};
}

} // namespace

Test::ServerConfig DemoScenario::serverConfig()
{
    Test::ServerConfig config; // SYS with sys/syspass is the default system account
    config.setServerName(u"mqttdoctor-demo"_s);
    config.addAccount(Test::ServerConfig::jetStreamAccount(u"ACME"_s, u"acme"_s, u"acmepass"_s));
    Test::ServerConfig::JetStreamLimits limits;
    limits.maxMemory = 64LL * 1024 * 1024;
    limits.maxFile = 512LL * 1024 * 1024;
    limits.maxStreams = 20;
    limits.maxConsumers = 100;
    config.addAccount(Test::ServerConfig::limitedAccount(u"BETA"_s, u"beta"_s, u"betapass"_s, limits));
    config.addAccount(Test::ServerConfig::plainAccount(u"NOJS"_s, u"nojs"_s, u"nojspass"_s));
    return config;
}

bool DemoScenario::populate(const Test::NatsServerFixture &server, const std::function<bool()> &cancelled)
{
    m_summary.clear();
    const QString acme = u"ACME"_s;
    const QString beta = u"BETA"_s;

    // Each step is one mosquitto run; stop at the first failure or on Ctrl-C.
    const QList<std::function<bool()>> steps = {
        [&] { return createSession(server, acme, u"sensor-sub-1"_s, {u"sensors/+/temp"_s, u"alerts/#"_s}); },
        [&] { return createSession(server, acme, u"dashboard-2"_s, {u"sensors/#"_s}); },
        [&] { return createSession(server, acme, u"offline-logger"_s, {u"alerts/#"_s, u"status/#"_s}); },
        [&] { return publish(server, acme, u"sensors/kitchen/temp"_s, "21.5", 1, true); },
        [&] { return publish(server, acme, u"sensors/garage/temp"_s, "9.0", 0, true); },
        [&] { return publish(server, acme, u"status/gateway"_s, "online", 1, true); },
        [&] { return publish(server, acme, u"alerts/smoke"_s, "smoke!", 1, false); },
        [&] { return publish(server, acme, u"alerts/door"_s, "front door open", 1, false); },
        [&] { return createSession(server, beta, u"beta-app-1"_s, {u"beta/cmd/+"_s}); },
        [&] { return createSession(server, beta, u"beta-app-2"_s, {u"beta/telemetry/#"_s, u"beta/cmd/#"_s}); },
        [&] { return publish(server, beta, u"beta/config"_s, R"({"interval":5})", 1, true); },
        [&] { return publish(server, beta, u"beta/cmd/reboot"_s, "now", 1, false); },
        [&] { return publish(server, beta, u"beta/telemetry/t1"_s, "42", 1, false); },
    };
    for (const auto &step : steps) {
        if (cancelled()) {
            m_errorString = u"cancelled"_s;
            return false;
        }
        if (!step())
            return false;
    }

    // NOJS has no JetStream: nats-server refuses MQTT clients of such accounts.
    const Credentials nojs = credentialsOf(u"NOJS"_s);
    const Test::MqttResult refused =
        Test::MqttClient(server.mqttPort(), nojs.user, nojs.password).connectOnce(u"nojs-client"_s);
    m_summary << (refused.connected() ? u"NOJS: MQTT client \"nojs-client\" connected (unexpected)"_s
                                      : u"NOJS: MQTT client \"nojs-client\" was refused (no JetStream)"_s);
    return true;
}

bool DemoScenario::createSession(const Test::NatsServerFixture &server, const QString &account,
                                 const QString &clientId, const QStringList &topics)
{
    const Credentials credentials = credentialsOf(account);
    const Test::MqttClient client(server.mqttPort(), credentials.user, credentials.password);
    const Test::MqttResult result = client.createPersistentSession(clientId, topics, 1);
    if (!result.connected() || !result.subscribed()) {
        m_errorString = u"creating the session \"%1\" in %2 failed:\n%3"_s.arg(clientId, account, result.describe());
        return false;
    }
    m_summary << u"%1: persistent session \"%2\" (offline), QoS 1 subscriptions %3"_s.arg(
        account, clientId, topics.join(u", "_s));
    return true;
}

bool DemoScenario::publish(const Test::NatsServerFixture &server, const QString &account, const QString &topic,
                           const QByteArray &payload, int qos, bool retain)
{
    const Credentials credentials = credentialsOf(account);
    const Test::MqttClient client(server.mqttPort(), credentials.user, credentials.password);
    const Test::MqttResult result = client.publish(topic, payload, qos, retain, u"demo-publisher"_s);
    if (!result.acknowledged) {
        m_errorString = u"publishing to \"%1\" in %2 failed:\n%3"_s.arg(topic, account, result.describe());
        return false;
    }
    m_summary << u"%1: %2 QoS %3 message on \"%4\": %5"_s.arg(account, retain ? u"retained"_s : u"queued"_s)
                     .arg(qos)
                     .arg(topic, QString::fromUtf8(payload));
    return true;
}

} // namespace MqttDoctor::Demo
