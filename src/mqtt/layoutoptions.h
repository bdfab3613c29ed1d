#pragma once

#include <QString>

#include <optional>

namespace MqttDoctor {

/** What the caller knows about the servers' MQTT settings beyond what they report (all optional). */
struct LayoutOptions
{
    /**
     * `mqtt { stream_replicas }` when known and > 0. It wins over the cluster-derived count and is not
     * capped (a value above the JetStream peers makes stream creation fail).
     */
    std::optional<int> streamReplicas;
    /**
     * The JetStream domain whose token the sessions subject carries when the servers' own
     * `jetstream { domain }` is not what decides it: `mqtt { js_domain }`, `default_js_domain` for the
     * account, or the profile's domain. When set (even to an empty string) it wins over
     * ServerInfo::jsDomain (a set js_domain/default_js_domain decides, even when empty).
     */
    std::optional<QString> domain;
    /** The cluster whose JetStream servers count for replicas; empty: the streams' cluster, else the largest. */
    QString cluster;
};

} // namespace MqttDoctor
