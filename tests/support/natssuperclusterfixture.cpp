#include "natssuperclusterfixture.h"

#include "freeportallocator.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

NatsSuperclusterFixture::NatsSuperclusterFixture() : m_east(3, u"east"_s, u"e"_s), m_west(1, u"west"_s, u"w"_s) {}

NatsSuperclusterFixture::~NatsSuperclusterFixture()
{
    stop();
}

QList<const NatsServerFixture *> NatsSuperclusterFixture::nodes() const
{
    QList<const NatsServerFixture *> out;
    for (int i = 0; i < m_east.nodeCount(); ++i)
        out << &m_east.node(i);
    for (int i = 0; i < m_west.nodeCount(); ++i)
        out << &m_west.node(i);
    return out;
}

bool NatsSuperclusterFixture::start(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs)
{
    m_errorString.clear();
    QStringList attempts;
    for (int attempt = 1; attempt <= MaxStartAttempts; ++attempt) {
        if (attempt > 1) {
            stop();
            for (const NatsServerFixture *node : nodes())
                QDir(node->storeDirectory()).removeRecursively();
        }
        // Gateway ports afresh each attempt: a port lost to another process is not tried again.
        const QList<quint16> ports = FreePortAllocator::allocate(m_east.nodeCount() + m_west.nodeCount());
        if (ports.size() != m_east.nodeCount() + m_west.nodeCount()) {
            m_errorString = u"no free loopback ports for the gateways"_s;
            return false;
        }
        const QList<quint16> eastPorts = ports.mid(0, m_east.nodeCount());
        const QList<quint16> westPorts = ports.mid(m_east.nodeCount());
        const QList<ServerConfig::Gateway::Remote> remotes{{m_east.clusterName(), eastPorts}, {m_west.clusterName(), westPorts}};
        m_east.setGateway(eastPorts, remotes);
        m_west.setGateway(westPorts, remotes);

        const QString problem = tryStart(versionLabel, baseConfig, timeoutMs);
        if (problem.isEmpty())
            return true;
        if (!m_errorString.isEmpty() && !m_east.lostPortRace() && !m_west.lostPortRace())
            return false; // a node cannot run at all
        m_errorString.clear();
        attempts << u"attempt %1: %2"_s.arg(attempt).arg(problem);
        qWarning("NatsSuperclusterFixture: %s; starting again", qPrintable(attempts.constLast()));
    }
    m_errorString = u"the supercluster did not form: %1"_s.arg(attempts.join(u"; "_s));
    return false;
}

QString NatsSuperclusterFixture::tryStart(const QString &versionLabel, const ServerConfig &baseConfig, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    if (!m_east.launchNodes(versionLabel, baseConfig, timeoutMs)) {
        m_errorString = u"east: "_s + m_east.errorString();
        return m_errorString;
    }
    if (!m_west.launchNodes(versionLabel, baseConfig, int(deadline.remainingTime()))) {
        m_errorString = u"west: "_s + m_west.errorString();
        return m_errorString;
    }
    const QDeadlineTimer leaderDeadline(std::min<qint64>(deadline.remainingTime(), MetaGroupTimeoutMs));
    while (!m_east.waitForMetaLeader(0) && !m_west.waitForMetaLeader(0)) {
        if (leaderDeadline.hasExpired())
            return u"no JetStream meta leader was elected"_s;
        QThread::msleep(50);
    }
    for (NatsClusterFixture *cluster : {&m_east, &m_west}) {
        for (int i = 0; i < cluster->nodeCount(); ++i) {
            NatsServerFixture &node = cluster->node(i);
            if (!node.waitUntilReady(int(deadline.remainingTime()), NatsServerFixture::Readiness::Healthy))
                return u"node %1: %2"_s.arg(node.serverName(), node.errorString());
        }
    }
    const QDeadlineTimer groupDeadline(MetaGroupTimeoutMs);
    for (;;) {
        const QString gap = NatsClusterFixture::metaGroupGapOf(nodes());
        if (gap.isEmpty())
            return {};
        if (groupDeadline.hasExpired())
            return gap;
        QThread::msleep(100);
    }
}

void NatsSuperclusterFixture::stop()
{
    m_west.stop();
    m_east.stop();
}

} // namespace MqttDoctor::Test
