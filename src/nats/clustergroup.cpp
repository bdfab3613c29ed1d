#include "clustergroup.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

#include <algorithm>

namespace MqttDoctor {

namespace {

QString clusterGroupServerName(const ServerInfo &s)
{
    return s.name.isEmpty() ? s.id : s.name;
}

// Unclustered servers sort after the clusters.
bool clusterGroupNameLess(const QString &a, const QString &b)
{
    if (a.isEmpty() != b.isEmpty())
        return b.isEmpty();
    return a < b;
}

} // namespace

QList<ServerInfo> ClusterGroup::sortedByCluster(QList<ServerInfo> servers)
{
    std::stable_sort(servers.begin(), servers.end(), [](const ServerInfo &a, const ServerInfo &b) {
        if (a.cluster != b.cluster)
            return clusterGroupNameLess(a.cluster, b.cluster);
        return clusterGroupServerName(a) < clusterGroupServerName(b);
    });
    return servers;
}

QList<ClusterGroup> ClusterGroup::of(const QList<ServerInfo> &servers)
{
    QMap<QString, ClusterGroup> groups;
    QMap<QString, QSet<QString>> gatewaysOf;
    for (const ServerInfo &s : servers) {
        ClusterGroup &g = groups[s.cluster];
        g.name = s.cluster;
        g.servers << clusterGroupServerName(s);
        for (const QString &remote : s.gatewayRemotes)
            gatewaysOf[s.cluster].insert(remote);
    }
    for (auto it = gatewaysOf.cbegin(); it != gatewaysOf.cend(); ++it) {
        for (const QString &remote : it.value()) {
            if (groups.contains(remote))
                continue;
            ClusterGroup missing;
            missing.name = remote;
            for (const ServerInfo &s : servers)
                if (s.gatewayRemotes.contains(remote))
                    missing.gatewayFrom << clusterGroupServerName(s);
            missing.gatewayFrom.sort();
            missing.problem = QStringLiteral("no server of cluster %1 answers, though %2 %3 a gateway to it: the gateway "
                                             "connection is down or the cluster's servers are stopped. What is placed in %1 "
                                             "(streams, MQTT sessions) cannot be read or repaired until it is back")
                                  .arg(remote, missing.gatewayFrom.join(QStringLiteral(", ")),
                                       missing.gatewayFrom.size() == 1 ? QStringLiteral("has") : QStringLiteral("have"));
            groups.insert(remote, missing);
        }
    }
    QList<ClusterGroup> out;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        ClusterGroup g = it.value();
        g.servers.sort();
        QStringList remotes(gatewaysOf.value(g.name).begin(), gatewaysOf.value(g.name).end());
        remotes.sort();
        g.gateways = remotes;
        out << g;
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ClusterGroup &a, const ClusterGroup &b) { return clusterGroupNameLess(a.name, b.name); });
    return out;
}

QJsonObject ClusterGroup::toJson() const
{
    return QJsonObject{{QStringLiteral("name"), name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(name)},
                       {QStringLiteral("servers"), QJsonArray::fromStringList(servers)},
                       {QStringLiteral("gateways"), QJsonArray::fromStringList(gateways)},
                       {QStringLiteral("reachable"), !servers.isEmpty()},
                       {QStringLiteral("problem"), problem.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(problem)}};
}

} // namespace MqttDoctor
