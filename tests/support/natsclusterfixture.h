#pragma once

#include "natsserverfixture.h"
#include "serverconfig.h"

#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace MqttDoctor::Test {

// A JetStream cluster of nodes "n1".."nN" (default 3) on loopback, all with routes to each other,
// each with its own client/http/mqtt/route ports and store. The accounts, MQTT settings
// (e.g. setMqttStreamReplicas(3)), TLS etc. come from the base config given to start().
class NatsClusterFixture
{
public:
    static constexpr int DefaultStartTimeoutMs = 30000;
    // A node restarted with existing state takes ~10 s until its streams are current.
    static constexpr int DefaultNodeRestartTimeoutMs = 45000;
    static constexpr int MaxStartAttempts = 3;
    static constexpr int MetaLeaderTimeoutMs = 15000;
    static constexpr int MetaGroupTimeoutMs = 10000;

    // Nodes are named <nodePrefix>1..<nodePrefix>N (unique names across the clusters of a supercluster).
    explicit NatsClusterFixture(int nodeCount = 3, const QString &clusterName = QStringLiteral("mqttdoctor"),
                                const QString &nodePrefix = QStringLiteral("n"));
    ~NatsClusterFixture();
    NatsClusterFixture(const NatsClusterFixture &) = delete;
    NatsClusterFixture &operator=(const NatsClusterFixture &) = delete;

    // Starts all nodes, then waits until every node is ready, a JetStream meta leader was elected,
    // every node's /healthz is ok and the leader counts every node as a current meta group member.
    // A cluster that elects no leader, or whose meta group stays short of a node (both seen with
    // 2.10), is started again from empty stores, up to MaxStartAttempts times.
    bool start(const QString &versionLabel, const ServerConfig &baseConfig = ServerConfig::standard(),
               int timeoutMs = DefaultStartTimeoutMs);
    void stop();

    // Before start(): the node runs another server version than the others (a mixed-version cluster).
    void setNodeVersion(int index, const QString &versionLabel);
    // Before start(): every node gets a gateway listener (ports[i] for node i, 0 = a free one) and the
    // gateways of the other clusters (a supercluster; NatsSuperclusterFixture sets this).
    void setGateway(const QList<quint16> &ports, const QList<ServerConfig::Gateway::Remote> &remotes);
    // Launches every node and waits until each logged that it is ready; no wait for a meta leader (in
    // a supercluster the JetStream meta group spans every cluster, see NatsSuperclusterFixture).
    bool launchNodes(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs = DefaultStartTimeoutMs);

    int nodeCount() const { return int(m_nodes.size()); }
    // Before start(): the node runs without JetStream (a cluster whose meta group lacks a server that is
    // up). start() then waits for the meta group of the other nodes only.
    void setJetStreamOff(int index) { m_noJetStream.insert(index); }
    NatsServerFixture &node(int index); // 0-based
    const NatsServerFixture &node(int index) const;
    QString clusterName() const { return m_clusterName; }
    QStringList urls() const; // client URLs of all nodes
    QString url() const; // comma-separated, for natsConnection_ConnectTo

    // Stops a node (SIGTERM). If it was the JetStream meta leader and waitForNewLeader is set, waits
    // (up to 20 s) until another node announces a new meta leader.
    bool stopNode(int index, bool waitForNewLeader = true);
    // Restarts a stopped node with its existing config and state, waits until it is healthy.
    bool startNode(int index, int timeoutMs = DefaultNodeRestartTimeoutMs);

    // Waits until a running node logged a new JetStream meta leader since start() or since the
    // last stopNode() of the leader.
    bool waitForMetaLeader(int timeoutMs);
    // A node's last launch lost one of its ports to another process (NatsServerFixture::lostPortRace).
    bool lostPortRace() const;
    // Server name of the most recently logged meta leader, as seen by the running nodes' logs.
    QString metaLeader() const;

    QString errorString() const { return m_errorString; }

    // Empty if the meta leader lists every node as a member and every running one as current;
    // otherwise what is missing.
    QString metaGroupGap() const;
    // The same over any set of nodes (e.g. every node of a supercluster).
    static QString metaGroupGapOf(const QList<const NatsServerFixture *> &nodes);

private:
    bool fail(const QString &message);
    // Launches every node and waits for them. False (errorString()) if a node cannot run at all;
    // true with *problem set if the cluster did not form (no meta leader, a node not healthy).
    bool launchAll(const NatsServerBinary &binary, const ServerConfig &baseConfig, const QList<quint16> &routePorts, int timeoutMs,
                   QString *problem);
    bool launchEach(const NatsServerBinary &binary, const ServerConfig &baseConfig, const QList<quint16> &routePorts, int timeoutMs);
    QString waitForFullMetaGroup(int timeoutMs) const;

    QString m_clusterName;
    QString m_nodePrefix;
    QMap<int, QString> m_nodeVersions;
    QList<quint16> m_gatewayPorts;
    QList<ServerConfig::Gateway::Remote> m_gatewayRemotes;
    QList<quint16> m_routePorts;
    std::vector<std::unique_ptr<NatsServerFixture>> m_nodes;
    void markLogOffsets();

    QSet<int> m_noJetStream; // nodes started without JetStream
    QList<qsizetype> m_leaderLogOffsets; // per node: where to look for the next leader announcement
    QString m_errorString;
};

} // namespace MqttDoctor::Test
