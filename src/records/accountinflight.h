#pragma once

#include <optional>

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "records/qos2records.h"
#include "records/sessioninflight.h"

namespace MqttDoctor {

/**
 * What is in flight in one account (docs/cli.md, `inflight`): every session with QoS 2 messages
 * waiting for a PUBREL, PUBRELs waiting for a PUBCOMP or queued messages, with the oldest of each,
 * and the QoS 2 records whose session no longer exists (QOS2_ORPHANED). A value; any thread.
 */
struct AccountInflight
{
    struct Session
    {
        QString hash;
        QString clientId; ///< from its record (empty when undecodable)
        QString subject; ///< its `$MQTT_sess` subject
        qint64 queuedTotal = 0; ///< num_pending + num_ack_pending of its `$MQTT_msgs` durables
        std::optional<SessionInflight::Queued> oldestQueued;
        int qos2Incoming = 0;
        QDateTime oldestQos2Incoming;
        QList<int> qos2PacketIds;
        int pubrelPending = 0;
        QDateTime oldestPubrel;
        QList<int> pubrelPacketIds;
        /** The oldest store time of anything in flight (invalid: nothing dated). */
        QDateTime oldest() const;
        QJsonObject toJson(const QDateTime &now) const;
    };

    QString account;
    QList<Session> sessions; ///< oldest in flight first
    QList<Qos2Records::Orphans> orphans; ///< QOS2_ORPHANED
    bool qos2Streams = true; ///< `$MQTT_qos2in` and `$MQTT_out` exist
    QStringList notes;
    QDateTime now; ///< when it was read (ages are counted from it)

    /** Only the sessions and orphans with something in flight stored before `cutoff` (invalid: all). */
    AccountInflight olderThan(const QDateTime &cutoff) const;
    /** `{"account", "sessions": [...], "orphans": [...], "qos2_streams", "notes", "time"}` (docs/cli.md). */
    QJsonObject toJson() const;
};

} // namespace MqttDoctor
