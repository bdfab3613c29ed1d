#pragma once

#include <QStringList>
#include <QtGlobal>

#include <optional>

#include "mqtt/layoutoptions.h"
#include "mqtt/serverversion.h"

namespace MqttDoctor {

/** Options of the checks (Checks::checkAccount, Checks::diagnose). */
struct CheckOptions
{
    /** What is known of the servers' MQTT settings: stream_replicas, js_domain, cluster. */
    LayoutOptions layout;
    /**
     * The 2.9 servers are about to be upgraded to 2.10+: also report what the upgrade will do to a
     * 2.9-layout account (RETAINED_LEGACY_LAYOUT). Upgrade hazards that break things (max_streams,
     * subjects another stream captures) are reported as warnings either way.
     */
    bool upgradePlanned = false;
    /**
     * RETAINED_LEGACY_LAYOUT becomes a warning above this many retained messages: the server moves
     * them one by one (three JetStream round trips each) within a 10 s deadline and purges the rest.
     */
    qint64 retainedMigrationWarnAt = 1000;
    /** SESSION_STALE: a persistent session not connected and not written for longer than this (seconds). */
    qint64 staleAfterSecs = 30LL * 24 * 3600;
    /**
     * Client IDs the operator knows of (devices that fail to connect, say), checked for hash collisions
     * with the records' ids and the connected clients (SESSION_HASH_COLLISION).
     */
    QStringList knownClientIds;
    /**
     * INTEREST_PINNED: a session whose client is not connected and whose durables hold more than this many
     * messages in `$MQTT_msgs`/`$MQTT_out` (interest retention keeps them for it).
     */
    qint64 pinnedWarnAt = 10000;
    /**
     * JETSTREAM_API_ERRORS: the account's JetStream API error replies grew by at least this many per minute
     * between two samples. MQTT's own session lookups count one error per CONNECT of a clean-session or new
     * client, so a quiet trickle is normal.
     */
    qint64 apiErrorsPerMinute = 60;
    /**
     * Upgrade readiness (UpgradeReadiness): what this server version will refuse or change for the
     * account's records, against what the servers run now. nullopt: not asked.
     */
    std::optional<ServerVersion> targetVersion;
};

} // namespace MqttDoctor
