#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

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

/** A stream as JSZ or the JetStream API shows it: raw JSON kept so unknown fields survive. */
struct StreamInfo
{
    QString name;
    QJsonObject config;
    QJsonObject state;
    QJsonObject cluster; ///< {name, leader, replicas:[...]}; empty on a single server
    QString created;
    QList<QJsonObject> consumers; ///< consumer info objects, when fetched
    bool consumersKnown = false;
    QString source; ///< "api" (account connection) or "jsz" (system view)

    bool isMqtt() const { return name.startsWith(QLatin1String("$MQTT_")); }
    bool isLegacySession() const { return name.startsWith(QLatin1String("$MQTT_sess_")); }
};

/**
 * The JetStream API counters of an account: requests the servers answered for it and how many of those
 * were error replies (`api` of `$JS.API.INFO`, or of each server's JSZ account details, summed). Counted
 * since each server started; only their growth between two samples says something.
 */
struct JetStreamApiCounts
{
    qint64 total = 0;
    qint64 errors = 0;
    /** "jsz": summed over the JSZ replies of `servers` servers; "api": the one server that answered `$JS.API.INFO`. */
    QString source;
    int servers = 0;
    /** The two samples count the same servers the same way (a restart or a server more makes them incomparable). */
    bool comparableWith(const JetStreamApiCounts &earlier) const
    {
        return source == earlier.source && servers == earlier.servers && total >= earlier.total && errors >= earlier.errors;
    }
};

/** An account with its JetStream state. */
struct AccountInfo
{
    QString name;
    bool isSystem = false;
    bool jetstream = false;
    bool jetstreamKnown = true; ///< false when no source could tell
    QJsonObject limits; ///< {max_memory, max_storage, max_streams, max_consumers, ...} when known
    bool limitsKnown = false;
    qint64 memory = 0;
    qint64 storage = 0;
    int streamCount = 0;
    int consumerCount = 0;
    QList<StreamInfo> streams; ///< every stream of the account (not only MQTT ones)
    bool streamsKnown = false;
    QString source; ///< "jsz", "api" or "accountz"
    /** The account's JetStream API counters; nullopt: not read. */
    std::optional<JetStreamApiCounts> api;
    /**
     * The JetStream domain the account's streams were read in (its JetStream API's account info:
     * the domain asked for, else the connected server's); empty for none. Known only with source "api".
     */
    QString readDomain;
    bool readDomainKnown = false;

    QList<StreamInfo> mqttStreams() const
    {
        QList<StreamInfo> out;
        for (const StreamInfo &s : streams)
            if (s.isMqtt())
                out.append(s);
        return out;
    }
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::ServerInfo)
Q_DECLARE_METATYPE(MqttDoctor::AccountInfo)
