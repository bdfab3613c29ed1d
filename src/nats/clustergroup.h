#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * The servers of one cluster, as `servers` and the GUI's tree group them; in a supercluster also the
 * clusters its servers have gateways to. A cluster that some server has a gateway to but none of
 * whose servers answers is a group without servers and with a problem (the gateway is down, or
 * that cluster is stopped). A value type; of() is pure.
 */
struct ClusterGroup
{
    QString name; ///< empty: servers that are not in a cluster
    QStringList servers; ///< the answering servers' names, sorted
    QStringList gateways; ///< the clusters this one has gateways to, sorted
    QStringList gatewayFrom; ///< the servers that have a gateway to this cluster (for a group without servers)
    QString problem; ///< empty when fine

    /** Groups the servers by cluster, sorted by name (the unclustered ones last), plus the unreachable gateway clusters. */
    static QList<ClusterGroup> of(const QList<ServerInfo> &servers);
    /** The servers sorted by cluster (unclustered last), then name. */
    static QList<ServerInfo> sortedByCluster(QList<ServerInfo> servers);

    /** {name (null: not clustered), servers, gateways, reachable, problem (null when fine)} */
    QJsonObject toJson() const;

    bool operator==(const ClusterGroup &) const = default;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::ClusterGroup)
