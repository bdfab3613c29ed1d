#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/** One nats-server as it reports itself. */
struct ServerInfo
{
    QString name;
    QString id;
    QString version; ///< "2.9.10"
    QString cluster; ///< cluster name, empty when not clustered
    QString host;
    bool jetstream = false;
    QString jsDomain;
    QString mqttHost; ///< empty when the server has no MQTT listener or does not say
    int mqttPort = 0; ///< 0 when unknown or none
    bool mqttKnown = false; ///< false when the reply could not tell (no system connection)
    /** This server's gateway name (its cluster's, in a supercluster); empty without gateways. */
    QString gateway;
    /** The other clusters this server has gateways configured to (VARZ `gateway.gateways`), sorted. */
    QStringList gatewayRemotes;
    /** Accepts leaf node connections (VARZ `leaf.port`). */
    bool leafListener = false;
    /** Leaf node remotes this server connects out to (it is a leaf node of a hub). */
    int leafRemotes = 0;
    /** VARZ's `mqtt` block as the server reports it (host, port, ack_wait in ns, max_ack_pending, tls_timeout...). */
    QJsonObject mqtt;
    /** VARZ `max_payload` (bytes); 0 when unknown. */
    qint64 maxPayload = 0;
    /**
     * JSZ `meta_cluster` as this server reported it (name, leader, cluster_size; the meta leader also lists
     * `replicas` with `offline`/`current`); empty when not read (no system connection) or not clustered.
     */
    QJsonObject metaCluster;
    bool metaClusterKnown = false; ///< JSZ was read from this server
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::ServerInfo)
