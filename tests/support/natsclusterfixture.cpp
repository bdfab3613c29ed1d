#include "natsclusterfixture.h"

#include "freeportallocator.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

// 2.9-2.15: "JetStream cluster new metadata leader: n3/vc" on followers,
// "Self is new JetStream cluster metadata leader" on the leader itself.
const QRegularExpression &metaLeaderPattern()
{
    static const QRegularExpression pattern(
        u"JetStream cluster new metadata leader: ([^/\\s]+)|Self is new JetStream cluster metadata leader"_s);
    return pattern;
}

} // namespace

NatsClusterFixture::NatsClusterFixture(int nodeCount, const QString &clusterName, const QString &nodePrefix)
    : m_clusterName(clusterName), m_nodePrefix(nodePrefix)
{
    for (int i = 0; i < nodeCount; ++i)
        m_nodes.push_back(std::make_unique<NatsServerFixture>());
}

NatsClusterFixture::~NatsClusterFixture()
{
    stop();
}

bool NatsClusterFixture::start(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs)
{
    m_errorString.clear();
    const NatsServerBinary binary = NatsServerBinary::locate(versionLabel);
    if (!binary.isValid())
        return fail(binary.errorString());

    if (m_routePorts.size() != nodeCount())
        m_routePorts = FreePortAllocator::allocate(nodeCount());
    if (m_routePorts.size() != nodeCount())
        return fail(u"no free loopback ports for the cluster routes"_s);

    // nats-server 2.10 sometimes loses raft traffic of one node while the routes between the nodes
    // are being replaced at start: either the meta leader is elected without that node and never
    // adds it ("Decreasing our clustersize: 3 -> 2" on every node, later R3 creates fail with 10005
    // "no suitable peers for placement"), or the two other nodes keep splitting their votes and no
    // leader is elected. Neither heals, so such a cluster is started again from empty stores.
    QStringList attempts;
    for (int attempt = 1; attempt <= MaxStartAttempts; ++attempt) {
        if (attempt > 1) {
            stop();
            for (auto &node : m_nodes)
                QDir(node->storeDirectory()).removeRecursively();
        }
        QString problem;
        if (!launchAll(binary, baseConfig, m_routePorts, timeoutMs, &problem)) {
            if (attempt == MaxStartAttempts || !lostPortRace())
                return false;
            // Another process took a port between its pick and the bind: new route ports (the others are picked per launch).
            problem = m_errorString;
            m_errorString.clear();
            m_routePorts = FreePortAllocator::allocate(nodeCount());
            if (m_routePorts.size() != nodeCount())
                return fail(u"no free loopback ports for the cluster routes"_s);
        }
        if (problem.isEmpty())
            problem = waitForFullMetaGroup(MetaGroupTimeoutMs);
        if (problem.isEmpty())
            return true;
        attempts << u"attempt %1: %2"_s.arg(attempt).arg(problem);
        qWarning("NatsClusterFixture: %s; starting the cluster again", qPrintable(attempts.constLast()));
    }
    return fail(u"the cluster did not form: %1"_s.arg(attempts.join(u"; "_s)));
}

bool NatsClusterFixture::launchEach(const NatsServerBinary &binary, const ServerConfig &baseConfig, const QList<quint16> &routePorts,
                                    int timeoutMs)
{
    markLogOffsets();
    for (int i = 0; i < nodeCount(); ++i) {
        ServerConfig config = baseConfig;
        config.setServerName(u"%1%2"_s.arg(m_nodePrefix).arg(i + 1));
        config.setClientPort(0);
        config.setHttpPort(0);
        config.setMqttPort(0);
        ServerConfig::Cluster cluster;
        cluster.name = m_clusterName;
        cluster.port = routePorts.at(i);
        cluster.routePorts = routePorts;
        config.setCluster(cluster);
        if (!m_gatewayRemotes.isEmpty()) {
            ServerConfig::Gateway gateway;
            gateway.name = m_clusterName;
            gateway.port = i < m_gatewayPorts.size() ? m_gatewayPorts.at(i) : 0;
            gateway.remotes = m_gatewayRemotes;
            config.setGateway(gateway);
        }
        if (m_noJetStream.contains(i))
            config.setJetStreamEnabled(false);
        NatsServerBinary nodeBinary = binary;
        if (m_nodeVersions.contains(i)) {
            nodeBinary = NatsServerBinary::locate(m_nodeVersions.value(i));
            if (!nodeBinary.isValid())
                return fail(u"node %1: %2"_s.arg(config.serverName(), nodeBinary.errorString()));
        }
        if (!m_nodes[size_t(i)]->launch(nodeBinary, config))
            return fail(u"node %1: %2"_s.arg(config.serverName(), m_nodes[size_t(i)]->errorString()));
    }

    const QDeadlineTimer deadline(timeoutMs);
    for (int i = 0; i < nodeCount(); ++i) {
        if (!m_nodes[size_t(i)]->waitUntilReady(int(deadline.remainingTime()), NatsServerFixture::Readiness::LogOnly))
            return fail(u"node %1: %2"_s.arg(m_nodes[size_t(i)]->serverName(), m_nodes[size_t(i)]->errorString()));
    }
    return true;
}

bool NatsClusterFixture::launchNodes(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs)
{
    m_errorString.clear();
    const NatsServerBinary binary = NatsServerBinary::locate(versionLabel);
    if (!binary.isValid())
        return fail(binary.errorString());
    // A launch that lost a port to another process gets new route ports.
    if (m_routePorts.size() != nodeCount() || lostPortRace())
        m_routePorts = FreePortAllocator::allocate(nodeCount());
    if (m_routePorts.size() != nodeCount())
        return fail(u"no free loopback ports for the cluster routes"_s);
    return launchEach(binary, baseConfig, m_routePorts, timeoutMs);
}

void NatsClusterFixture::setNodeVersion(int index, const QString &versionLabel)
{
    m_nodeVersions.insert(index, versionLabel);
}

void NatsClusterFixture::setGateway(const QList<quint16> &ports, const QList<ServerConfig::Gateway::Remote> &remotes)
{
    m_gatewayPorts = ports;
    m_gatewayRemotes = remotes;
}

bool NatsClusterFixture::lostPortRace() const
{
    for (const auto &node : m_nodes)
        if (node->lostPortRace())
            return true;
    return false;
}

bool NatsClusterFixture::launchAll(const NatsServerBinary &binary, const ServerConfig &baseConfig, const QList<quint16> &routePorts,
                                   int timeoutMs, QString *problem)
{
    const QDeadlineTimer deadline(timeoutMs);
    if (!launchEach(binary, baseConfig, routePorts, timeoutMs))
        return false;
    // An election takes well under a second; the rest of the time goes to a next attempt.
    const int leaderWaitMs = int(std::min<qint64>(deadline.remainingTime(), MetaLeaderTimeoutMs));
    if (!waitForMetaLeader(leaderWaitMs)) {
        *problem = u"no JetStream meta leader was elected within %1 ms"_s.arg(leaderWaitMs);
        return true;
    }
    for (int i = 0; i < nodeCount(); ++i) {
        if (!m_nodes[size_t(i)]->waitUntilReady(int(deadline.remainingTime()), NatsServerFixture::Readiness::Healthy)) {
            *problem = u"node %1: %2"_s.arg(m_nodes[size_t(i)]->serverName(), m_nodes[size_t(i)]->errorString());
            return true;
        }
    }
    return true;
}

QString NatsClusterFixture::metaGroupGap() const
{
    // Nodes without JetStream (setJetStreamOff) are not meta group members by design.
    QList<const NatsServerFixture *> nodes;
    for (int i = 0; i < nodeCount(); ++i)
        if (!m_noJetStream.contains(i))
            nodes << m_nodes[size_t(i)].get();
    return metaGroupGapOf(nodes);
}

QString NatsClusterFixture::metaGroupGapOf(const QList<const NatsServerFixture *> &nodes)
{
    // Only the leader's /jsz lists the other members ("replicas"), each with "current".
    for (const NatsServerFixture *node : nodes) {
        if (!node->isRunning())
            continue;
        const std::optional<HttpProbe::Response> response = node->monitor("/jsz"_ba);
        if (!response || response->status != 200)
            continue;
        const QJsonObject meta = QJsonDocument::fromJson(response->body).object().value(u"meta_cluster"_s).toObject();
        if (meta.value(u"leader"_s).toString() != node->serverName())
            continue;
        QStringList members{node->serverName()};
        QStringList notCurrent;
        for (const QJsonValue &replica : meta.value(u"replicas"_s).toArray()) {
            const QJsonObject peer = replica.toObject();
            members << peer.value(u"name"_s).toString();
            if (!peer.value(u"current"_s).toBool())
                notCurrent << peer.value(u"name"_s).toString();
        }
        QStringList gaps;
        for (const NatsServerFixture *other : nodes) {
            if (!members.contains(other->serverName()))
                gaps << u"%1 is not a member"_s.arg(other->serverName());
            else if (other->isRunning() && notCurrent.contains(other->serverName()))
                gaps << u"%1 is not current"_s.arg(other->serverName());
        }
        return gaps.isEmpty() ? QString() : u"meta leader %1: %2"_s.arg(node->serverName(), gaps.join(u", "_s));
    }
    return u"no running node reports itself as the meta leader"_s;
}

QString NatsClusterFixture::waitForFullMetaGroup(int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        const QString gap = metaGroupGap();
        if (gap.isEmpty() || deadline.hasExpired())
            return gap;
        QThread::msleep(100);
    }
}

void NatsClusterFixture::stop()
{
    for (auto &node : m_nodes)
        node->stop();
}

NatsServerFixture &NatsClusterFixture::node(int index)
{
    return *m_nodes.at(size_t(index));
}

const NatsServerFixture &NatsClusterFixture::node(int index) const
{
    return *m_nodes.at(size_t(index));
}

QStringList NatsClusterFixture::urls() const
{
    QStringList result;
    for (const auto &node : m_nodes)
        result << node->url();
    return result;
}

QString NatsClusterFixture::url() const
{
    return urls().join(u',');
}

bool NatsClusterFixture::stopNode(int index, bool waitForNewLeader)
{
    if (index < 0 || index >= nodeCount())
        return fail(u"no node %1"_s.arg(index));
    NatsServerFixture &stopped = *m_nodes[size_t(index)];
    const bool wasLeader = metaLeader() == stopped.serverName();
    markLogOffsets();
    if (!stopped.stop())
        return fail(u"node %1 did not stop on SIGTERM and was killed"_s.arg(stopped.serverName()));
    if (wasLeader && waitForNewLeader && !waitForMetaLeader(20000))
        return fail(u"no new JetStream meta leader after stopping the leader %1"_s.arg(stopped.serverName()));
    return true;
}

bool NatsClusterFixture::startNode(int index, int timeoutMs)
{
    if (index < 0 || index >= nodeCount())
        return fail(u"no node %1"_s.arg(index));
    NatsServerFixture &restarted = *m_nodes[size_t(index)];
    if (!restarted.startAgain(timeoutMs, NatsServerFixture::Readiness::Healthy))
        return fail(u"node %1: %2"_s.arg(restarted.serverName(), restarted.errorString()));
    return true;
}

bool NatsClusterFixture::waitForMetaLeader(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        for (int i = 0; i < nodeCount(); ++i) {
            const NatsServerFixture &candidate = *m_nodes[size_t(i)];
            const qsizetype from = i < m_leaderLogOffsets.size() ? m_leaderLogOffsets.at(i) : 0;
            if (candidate.isRunning() && !candidate.logLinesMatching(metaLeaderPattern(), from).isEmpty())
                return true;
        }
        if (deadline.hasExpired())
            return false;
        QThread::msleep(25);
    }
}

QString NatsClusterFixture::metaLeader() const
{
    // The latest announcement by timestamp; log lines start with "[pid] yyyy/MM/dd hh:mm:ss.micro".
    QString latestLine;
    QString leader;
    for (const auto &node : m_nodes) {
        if (!node->isRunning())
            continue;
        const QStringList lines = node->logLinesMatching(metaLeaderPattern());
        if (lines.isEmpty())
            continue;
        const QString line = lines.constLast();
        const QString stamp = line.section(u' ', 1, 2);
        if (!latestLine.isEmpty() && stamp <= latestLine.section(u' ', 1, 2))
            continue;
        latestLine = line;
        const QRegularExpressionMatch match = metaLeaderPattern().match(line);
        leader = match.captured(1).isEmpty() ? node->serverName() : match.captured(1);
    }
    return leader;
}

void NatsClusterFixture::markLogOffsets()
{
    m_leaderLogOffsets.clear();
    for (const auto &node : m_nodes)
        m_leaderLogOffsets << node->logSize();
}

bool NatsClusterFixture::fail(const QString &message)
{
    m_errorString = message;
    return false;
}

} // namespace MqttDoctor::Test
