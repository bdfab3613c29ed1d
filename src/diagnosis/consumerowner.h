#pragma once

#include <QList>
#include <QString>

#include "diagnosis/durablereplacement.h"
#include "diagnosis/sessionchecks.h"

namespace MqttDoctor {

/**
 * Who owns a durable of `$MQTT_msgs`/`$MQTT_out`: the one rule behind ORPHAN_CONSUMER
 * (Checks::checkSessions) and the consumers view, so that the two never disagree.
 *
 * In this order: a session record of `$MQTT_sess` that names the durable owns it (Session); a name the
 * MQTT gateway does not give its durables (no `<hash>_…` or `$MQTT_PUBREL_<hash>`) belongs to someone
 * else (NotMqtt); an undecodable record on the durable's hash will have it removed by that record's own
 * repair (UndecodableRecord); a connected client whose ID has the hash owns it, since a clean-session
 * client's durables live only while it is connected and no record names them (ConnectedClient); else
 * it is an orphan. Records left in legacy `$MQTT_sess_<hash>` streams own nothing (servers since 2.5
 * do not read them; LEGACY_SESSION_STREAMS). Pure; any thread.
 */
struct ConsumerOwner
{
    enum class Kind { Session, NotMqtt, UndecodableRecord, ConnectedClient, Orphan };

    QString name;
    QString stream;
    QString hash; ///< the client-ID hash in the durable's name; empty for NotMqtt
    qint64 numPending = 0;
    qint64 numAckPending = 0;
    QString filterSubject; ///< the consumer's `filter_subject`
    Kind kind = Kind::Orphan;
    /** Session: the client ID of the record naming it; ConnectedClient: the connected client with the hash. */
    QString clientId;
    /** Orphan: the client ID of the record that sits on the hash but does not name it (empty: no record there). */
    QString recordOnHash;
    /** The connected clients were not known (no system connection): an orphan may be a connected client's. */
    bool connectedUnknown = false;
    /**
     * Unnamed, but it stands in for this missing durable of a record (same hash and filter:
     * SESSION_DURABLE_REPLACED, DurableReplacement), whose client is `clientId`: not an orphan.
     */
    QString replacing;

    bool isOrphan() const { return kind == Kind::Orphan && replacing.isEmpty(); }

    /**
     * Every consumer of `input.consumers`, in the index's order; none when `input.consumersKnown` is
     * false.
     */
    static QList<ConsumerOwner> ofAccount(const SessionCheckInput &input);
    /** The same with the account's durable replacements already worked out (DurableReplacement::ofAccount of `input`). */
    static QList<ConsumerOwner> ofAccount(const SessionCheckInput &input, const QList<DurableReplacement> &replacements);
};

} // namespace MqttDoctor
