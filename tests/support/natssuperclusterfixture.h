#pragma once

#include "natsclusterfixture.h"

#include <QList>
#include <QString>

namespace MqttDoctor::Test {

// Two JetStream clusters joined by gateways on loopback: "east" (nodes e1, e2, e3) and "west" (node
// w1), one JetStream meta group over all four nodes. The accounts and MQTT settings come from the
// base config given to start(), as for NatsClusterFixture.
class NatsSuperclusterFixture
{
public:
    static constexpr int DefaultStartTimeoutMs = 40000;
    static constexpr int MaxStartAttempts = 3;
    static constexpr int MetaGroupTimeoutMs = 15000;

    NatsSuperclusterFixture();
    ~NatsSuperclusterFixture();
    NatsSuperclusterFixture(const NatsSuperclusterFixture &) = delete;
    NatsSuperclusterFixture &operator=(const NatsSuperclusterFixture &) = delete;

    // Starts every node of both clusters, then waits until a meta leader was elected, every node is
    // healthy and the leader counts all four as current members. Started again from empty stores
    // when the meta group does not form, up to MaxStartAttempts times.
    bool start(const QString &versionLabel, const ServerConfig &baseConfig = ServerConfig::standard(),
               int timeoutMs = DefaultStartTimeoutMs);
    void stop();

    NatsClusterFixture &east() { return m_east; }
    NatsClusterFixture &west() { return m_west; }
    QList<const NatsServerFixture *> nodes() const;

    QString errorString() const { return m_errorString; }

private:
    QString tryStart(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs);

    NatsClusterFixture m_east;
    NatsClusterFixture m_west;
    QString m_errorString;
};

} // namespace MqttDoctor::Test
