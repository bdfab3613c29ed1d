#pragma once

#include <QList>

#include "diagnosis/finding.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * JETSTREAM_META_DEGRADED: servers that answer (VARZ) but are not current members of the JetStream meta
 * group as its leader lists it (JSZ `meta_cluster` read through the system account): JetStream off on a
 * clustered server, a server that never joined, or one the leader lists as offline. MQTT asks for as many
 * stream replicas as the cluster has routes (at most 3), so such a cluster refuses new MQTT streams with
 * "no suitable peers for placement (10005)" while every server is up. Pure; any thread.
 */
class MetaGroupCheck final
{
public:
    /** The finding (cluster scope, account empty), or none: no meta group view, or every server that answers is a member. */
    static QList<Finding> findings(const QList<ServerInfo> &servers);
};

} // namespace MqttDoctor
