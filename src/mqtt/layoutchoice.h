#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

/** The layout chosen for an account, and why (Layouts::choose). A value type. */
struct LayoutChoice
{
    enum class Basis {
        Versions, ///< from the versions of the servers that serve MQTT
        Streams, ///< no usable version: inferred from the account's existing MQTT streams
        Default, ///< nothing to go by: the 2.10+ layout
    };

    MqttLayout layout;
    Basis basis = Basis::Default;
    QStringList legacyServers; ///< names of MQTT servers older than 2.10 (2.9 layout), sorted
    QStringList currentServers; ///< names of MQTT servers 2.10 or newer, sorted
    QStringList unknownServers; ///< servers whose version is missing or not a version
    QStringList versions; ///< distinct versions of the MQTT servers, oldest first ("2.9.10", "2.10.27")
    QStringList peers; ///< JetStream peers counted for the replicas (server names)
    bool replicasFromConfig = false; ///< replicas come from `stream_replicas`, not from the peers
    QString domainSource; ///< "option", "mqtt" (a server's mqtt.js_domain), "server" or empty (no domain)
    /**
     * Several clusters (a supercluster): the one the account's MQTT streams are placed in, where a
     * stream the tool creates must go too (`placement.cluster`). Empty with one cluster or none.
     */
    QString cluster;

    bool mixed() const { return layout.kind() == MqttLayout::Kind::Mixed; }
    /** Number of JetStream peers (at least 1). */
    int peerCount() const { return qMax(1, int(peers.size())); }

    /** {layout..., basis, versions, legacy_servers, current_servers, unknown_servers, peers, replicas_from_config, domain_source, cluster (null: one cluster)} */
    QJsonObject toJson() const;
    static QString basisName(Basis basis);

    bool operator==(const LayoutChoice &) const = default;
};

} // namespace MqttDoctor
