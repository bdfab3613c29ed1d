#pragma once

#include <QString>

/** The stable finding codes (docs/findings.md) and the repair action names. Header-only; any thread. */
namespace MqttDoctor::FindingCodes {

inline QString jetStreamDisabled()
{
    return QStringLiteral("JETSTREAM_DISABLED");
}
inline QString streamMissing()
{
    return QStringLiteral("STREAM_MISSING");
}
inline QString streamSubjectsWrong()
{
    return QStringLiteral("STREAM_SUBJECTS_WRONG");
}
inline QString streamConfigWrong()
{
    return QStringLiteral("STREAM_CONFIG_WRONG");
}
inline QString subjectsOverlap()
{
    return QStringLiteral("SUBJECTS_OVERLAP");
}
inline QString streamLimitHeadroom()
{
    return QStringLiteral("STREAM_LIMIT_HEADROOM");
}
inline QString replicasMismatch()
{
    return QStringLiteral("REPLICAS_MISMATCH");
}
inline QString streamUnhealthy()
{
    return QStringLiteral("STREAM_UNHEALTHY");
}
inline QString mixedServerVersions()
{
    return QStringLiteral("MIXED_SERVER_VERSIONS");
}
inline QString retainedLegacyLayout()
{
    return QStringLiteral("RETAINED_LEGACY_LAYOUT");
}
inline QString retainedOrphaned()
{
    return QStringLiteral("RETAINED_ORPHANED");
}
inline QString retainedDowngrade()
{
    return QStringLiteral("RETAINED_DOWNGRADE");
}
inline QString retainedConsumerMissing()
{
    return QStringLiteral("RETAINED_CONSUMER_MISSING");
}
inline QString legacySessionStreams()
{
    return QStringLiteral("LEGACY_SESSION_STREAMS");
}
inline QString sessionUndecodable()
{
    return QStringLiteral("SESSION_UNDECODABLE");
}
inline QString sessionIdMismatch()
{
    return QStringLiteral("SESSION_ID_MISMATCH");
}
inline QString sessionHashCollision()
{
    return QStringLiteral("SESSION_HASH_COLLISION");
}
inline QString sessionMissingConsumer()
{
    return QStringLiteral("SESSION_MISSING_CONSUMER");
}
inline QString orphanConsumer()
{
    return QStringLiteral("ORPHAN_CONSUMER");
}
inline QString sessionStale()
{
    return QStringLiteral("SESSION_STALE");
}
inline QString duplicateSessionRecords()
{
    return QStringLiteral("DUPLICATE_SESSION_RECORDS");
}
inline QString qos2Orphaned()
{
    return QStringLiteral("QOS2_ORPHANED");
}
inline QString clientIdTakeover()
{
    return QStringLiteral("CLIENT_ID_TAKEOVER");
}
inline QString consumerStuck()
{
    return QStringLiteral("CONSUMER_STUCK");
}
inline QString sessionDurableReplaced()
{
    return QStringLiteral("SESSION_DURABLE_REPLACED");
}
inline QString interestPinned()
{
    return QStringLiteral("INTEREST_PINNED");
}
inline QString jetStreamApiErrors()
{
    return QStringLiteral("JETSTREAM_API_ERRORS");
}
inline QString serverVersionAdvisory()
{
    return QStringLiteral("SERVER_VERSION_ADVISORY");
}
inline QString jetStreamMetaDegraded()
{
    return QStringLiteral("JETSTREAM_META_DEGRADED");
}
inline QString deliberateDeviation()
{
    return QStringLiteral("DELIBERATE_DEVIATION");
}
inline QString upgradeClientIdRefused()
{
    return QStringLiteral("UPGRADE_CLIENT_ID_REFUSED");
}
inline QString upgradeRetainedSkipped()
{
    return QStringLiteral("UPGRADE_RETAINED_SKIPPED");
}
inline QString upgradePayloadTooLarge()
{
    return QStringLiteral("UPGRADE_PAYLOAD_TOO_LARGE");
}
inline QString upgradeInternalSubscription()
{
    return QStringLiteral("UPGRADE_INTERNAL_SUBSCRIPTION");
}

} // namespace MqttDoctor::FindingCodes

/** Repair action names a Finding::repair can hold (the repair planner implements them). */
namespace MqttDoctor::RepairActions {

inline QString createStream()
{
    return QStringLiteral("create_stream");
} ///< create with MqttStreamSpec::createConfig()
inline QString updateStream()
{
    return QStringLiteral("update_stream");
} ///< raw-JSON read-modify-write of the config
inline QString recreateStream()
{
    return QStringLiteral("recreate_stream");
} ///< backup, delete, create, restore (storage/retention)
inline QString resolveOverlap()
{
    return QStringLiteral("resolve_overlap");
} ///< backup, delete or narrow the other stream, then create
inline QString migrateRetained()
{
    return QStringLiteral("migrate_retained");
} ///< republish per subject, then update the config
inline QString republish()
{
    return QStringLiteral("republish");
} ///< orphans on $MQTT.rmsgs → $MQTT.rmsgs.<subject>
inline QString revertRetained()
{
    return QStringLiteral("revert_retained");
} ///< backup, revert to the 2.9 retained shape
inline QString restoreRetainedConsumer()
{
    return QStringLiteral("restore_retained_consumer");
} ///< a server's retained-message consumer on $MQTT_rmsgs, made again on the subject it still listens on
inline QString migrateLegacySessions()
{
    return QStringLiteral("migrate_legacy_sessions");
}
inline QString purgeSession()
{
    return QStringLiteral("purge_session");
} ///< backup, purge the subject (and its consumers)
inline QString createConsumer()
{
    return QStringLiteral("create_consumer");
}
inline QString deleteConsumer()
{
    return QStringLiteral("delete_consumer");
}
inline QString deleteSession()
{
    return QStringLiteral("delete_session");
}
inline QString deleteQos2Records()
{
    return QStringLiteral("delete_qos2_records");
} ///< backup, delete orphaned QoS 2 records by sequence
inline QString adoptDurable()
{
    return QStringLiteral("adopt_durable");
} ///< backup, rewrite the record to name the live durable

// Operator actions (an operator's selection, not a finding: OperatorPlanner plans them).
inline QString deleteSessions()
{
    return QStringLiteral("delete_sessions");
} ///< a batch of sessions: back up, delete records, durables and QoS 2 records by sequence, verify
inline QString disconnectClient()
{
    return QStringLiteral("disconnect_client");
} ///< one MQTT connection: the server's kick request, or a takeover through MQTT
inline QString clearRetained()
{
    return QStringLiteral("clear_retained");
} ///< retained messages: an empty retained PUBLISH through MQTT, or deletes by sequence
inline QString dropBacklog()
{
    return QStringLiteral("drop_backlog");
} ///< one durable: back up, delete and recreate it from the end of the stream

} // namespace MqttDoctor::RepairActions
