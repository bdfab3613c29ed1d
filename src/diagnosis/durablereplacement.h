#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include "diagnosis/sessionchecks.h"

namespace MqttDoctor {

/**
 * A session record that names a durable which does not exist while a durable of the same hash, stream
 * and filter subject exists that no record names: the server made a new durable for the subscription
 * and the record still holds the old name (SESSION_DURABLE_REPLACED). Those two halves are one problem,
 * not a missing consumer and an orphan. Pure; any thread.
 */
struct DurableReplacement
{
    QString clientId;
    QString subject; ///< the session record's subject
    quint64 seq = 0; ///< the record's sequence
    QString sid; ///< the record's `cons` key
    QString stream; ///< `$MQTT_msgs`
    QString filterSubject;
    QString recorded; ///< the durable the record names (missing)
    QString live; ///< the durable that exists and no record names
    qint64 livePending = 0; ///< the live durable's num_pending
    qint64 liveAckPending = 0; ///< its num_ack_pending

    /**
     * Every replacement of an account: for each missing durable of a decodable record on `$MQTT_msgs`, the
     * one unnamed durable of the record's hash with the record's filter subject (none, or two or more of
     * them: not a replacement, the missing durable and the orphans are reported as they are). Empty unless
     * the consumers are known.
     */
    static QList<DurableReplacement> ofAccount(const SessionCheckInput &input);
    /** The recorded and live names of `replacements`: the missing-consumer and orphan checks leave them out. */
    static QSet<QString> namesOf(const QList<DurableReplacement> &replacements);
};

} // namespace MqttDoctor
