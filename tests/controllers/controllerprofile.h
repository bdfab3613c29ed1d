#pragma once

#include <QStringLiteral>

#include "natsserverfixture.h"
#include "nats/profile.h"

namespace MqttDoctor::Test {

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
