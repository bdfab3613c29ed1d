#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"
#include "nats/streamindex.h"
#include "records/qos2records.h"
#include "records/sessionbatches.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

struct ConsumerOwner;

/** A retained message's topic and payload size (upgrade readiness). */
struct RetainedTopicSize
{
    QString topic;
    qint64 payloadBytes = 0;
};

/**
 * Everything the record-level checks of one account look at, gathered beforehand (no network):
 * every session record of `$MQTT_sess` (undecodable ones included, joined with the consumers), the
 * durables of `$MQTT_msgs`/`$MQTT_out`, the MQTT clients connected now and the per-subject counts.
 */
struct SessionCheckInput
{
    QString account;
    /**
     * Every record, last per subject, joined (SessionLoader::load without filter or limit), in the
     * batches they were read in (shared with the GUI's table: kept once).
     */
    SessionBatches sessions;
    /** Every consumer of `$MQTT_msgs` and `$MQTT_out`; only meaningful when consumersKnown. */
    SessionLoader::ConsumerIndex consumers;
    bool consumersKnown = false;
    /** CONNZ `mqtt_client` of the account; nullopt: unknown (no system connection). */
    std::optional<SessionLoader::ConnectedClients> connected;
    /** Messages per subject of `$MQTT_sess`; nullopt: unknown. */
    std::optional<QList<SubjectCount>> subjectCounts;
    /** "Now" for SESSION_STALE (the gather time, UTC). */
    QDateTime now;
    /** The records of `$MQTT_qos2in` and `$MQTT_out` (QOS2_ORPHANED); nullopt: not read. */
    std::optional<Qos2Records> qos2Records;
    /** The retained messages' topics and sizes, read only for a target version (CheckOptions::targetVersion); nullopt: not read. */
    std::optional<QList<RetainedTopicSize>> retained;
    /**
     * ConsumerOwner::ofAccount(*this) when it was made already (AccountSnapshot::keepConsumerOwners: a GUI
     * refresh needs them for its views too); null: the orphan check makes them.
     */
    std::shared_ptr<const QList<ConsumerOwner>> owners;
};

namespace Checks {

/**
 * The record-level findings of one account (docs/findings.md): SESSION_UNDECODABLE, SESSION_ID_MISMATCH,
 * SESSION_HASH_COLLISION, SESSION_MISSING_CONSUMER, ORPHAN_CONSUMER, SESSION_DURABLE_REPLACED (a missing
 * durable and the orphan that replaced it, reported as one), SESSION_STALE, DUPLICATE_SESSION_RECORDS.
 * Pure; any thread. Sorted (sortFindings).
 *
 * Known client IDs for collisions are the records' ids, the connected MQTT clients and
 * CheckOptions::knownClientIds. A durable is an orphan only when no record references it, no
 * undecodable record sits on its hash (that record's repair removes it) and no connected client owns
 * its hash; without a system connection the orphans are reported as warnings that say so.
 * SESSION_STALE needs the connected state and is skipped without it.
 */
QList<Finding> checkSessions(const SessionCheckInput &input, const CheckOptions &options = {});

} // namespace Checks
} // namespace MqttDoctor
