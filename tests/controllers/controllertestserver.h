#pragma once

#include <QStringLiteral>

#include "mqttclient.h"
#include "natsserverfixture.h"
#include "nats/profile.h"
#include "serverconfig.h"

namespace MqttDoctor::Test {

/**
 * What the controller tests start from: a real nats-server of `version` with `config`, and persistent MQTT
 * sessions of `clientIds` in ACME (user acme). Empty on success, else what went wrong (mosquitto's clients
 * missing, the server not starting, a session not made).
 */
inline QString startWithSessions(NatsServerFixture &server, const QString &version, const QStringList &clientIds,
                                 const ServerConfig &config = ServerConfig::standard())
{
    if (const QString missing = MqttClient::missingTools(); !missing.isEmpty())
        return QStringLiteral("mosquitto clients are missing (%1): install the Debian package mosquitto-clients").arg(missing);
    if (!server.start(version, config))
        return server.errorString();
    const MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
    for (const QString &id : clientIds)
        if (const MqttResult r = mqtt.createPersistentSession(id, {QStringLiteral("site/cmd")}, 1); !r.connected() || !r.subscribed())
            return r.describe();
    return {};
}

/** A profile of the standard test server (ServerConfig::standard): the user of ACME, and the system account unless asked not to. */
inline Profile acmeProfile(const NatsServerFixture &server, bool withSystem = true)
{
    Profile p;
    p.name = QStringLiteral("controller-test");
    p.servers = {server.url()};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = QStringLiteral("acme");
    p.auth.password = QStringLiteral("acmepass");
    if (withSystem) {
        p.system.kind = Credentials::Kind::UserPassword;
        p.system.user = QStringLiteral("sys");
        p.system.password = QStringLiteral("syspass");
    }
    p.timeoutMs = 5000;
    return p;
}

} // namespace MqttDoctor::Test
