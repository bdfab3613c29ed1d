#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include "mqtt/layoutchoice.h"
#include "mqtt/layoutoptions.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/serverversion.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Choosing the expected MQTT layout from gathered state (no network): server versions, JetStream
 * domain, replicas. Pure functions; any thread.
 */
namespace Layouts {

/** The layout a server of version `v` creates: before 2.10 the 2.9 layout, else 2.10+. */
MqttLayout::Kind kindFor(const ServerVersion &v);

/** A server counts as serving MQTT unless it is known to have no MQTT listener. */
bool servesMqtt(const ServerInfo &server);

/**
 * The domain whose token the sessions subject carries: options.domain when set (even empty), else the
 * first `mqtt { js_domain }` of a server that serves MQTT (VARZ `mqtt.js_domain`), else the first
 * non-empty ServerInfo::jsDomain of the JetStream servers that serve MQTT. `source` (optional) gets
 * "option", "mqtt", "server" or "" (none).
 */
QString domainFor(const QList<ServerInfo> &servers, const LayoutOptions &options, QString *source = nullptr);

/**
 * The cluster MQTT streams are placed in: `cluster` if given, else the cluster of the account's MQTT
 * streams (of any stream), else the cluster with the most JetStream servers; empty when not clustered.
 */
QString placementCluster(const QList<ServerInfo> &servers, const QString &cluster = {}, const QList<StreamInfo> &streams = {});
/**
 * The JetStream clusters there are (sorted): those of the servers, the clusters they have gateways to
 * (even when no server of one answers) and those the streams are placed in. More than one: a supercluster.
 */
QStringList jetStreamClusters(const QList<ServerInfo> &servers, const QList<StreamInfo> &streams = {});

/**
 * The JetStream peers that MQTT streams can be placed on (sorted server names): the JetStream servers
 * of `cluster` (empty: the cluster the given streams are placed in, else the cluster with the most
 * JetStream servers), plus any peer named in those streams' cluster info (leader, replicas) — so a
 * partial server list (no system connection) still sees the cluster's size. Not clustered: one peer.
 */
QStringList jetStreamPeers(const QList<ServerInfo> &servers, const QString &cluster = {}, const QList<StreamInfo> &streams = {});

/**
 * What the server uses: a known `stream_replicas` (> 0) as is, not capped; else the
 * cluster size capped at 3 (nats-server counts the routes; one per peer here), 1 when not clustered.
 */
int expectedReplicas(std::optional<int> streamReplicas, int peerCount);
/** The same, counting the peers of `servers` (see jetStreamPeers). */
int expectedReplicas(const QList<ServerInfo> &servers, std::optional<int> streamReplicas = std::nullopt, const QString &cluster = {});

/**
 * The layout the servers expect in an account. From the versions of the servers that serve MQTT: all
 * 2.10+ → 2.10+; all older → 2.9; both → mixed (MqttLayout::Kind::Mixed). When no version can be
 * parsed, from the account's existing MQTT streams (`streams`), else the 2.10+ layout. Domain and
 * replicas as domainFor() and expectedReplicas(); `streams` also help count the peers.
 */
LayoutChoice choose(const QList<ServerInfo> &servers, const LayoutOptions &options = {}, const QList<StreamInfo> &streams = {});

} // namespace Layouts
} // namespace MqttDoctor
