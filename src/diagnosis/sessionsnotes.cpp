#include "sessionsnotes.h"

#include "diagnosis/accountsnapshot.h"

namespace MqttDoctor {

QStringList SessionsNotes::of(const AccountSnapshot &snapshot, qsizetype legacySessions, bool systemConnection)
{
    QStringList notes;
    if (snapshot.noSessionsStream && legacySessions == 0)
        notes << QStringLiteral("The account has no $MQTT_sess stream: no MQTT client of it has connected yet.");
    else if (snapshot.noSessionsStream)
        notes << QStringLiteral("The account has no $MQTT_sess stream: the %1 listed %2 left in legacy $MQTT_sess_<hash> streams, "
                                "which servers since 2.5 do not read (LEGACY_SESSION_STREAMS).")
                     .arg(legacySessions == 1 ? QStringLiteral("session") : QStringLiteral("%1 sessions").arg(legacySessions),
                          legacySessions == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    if (snapshot.recordAccess && !snapshot.records.connected)
        notes << (systemConnection ? QStringLiteral("Connected state unknown: %1").arg(snapshot.connectedWhy)
                                   : QStringLiteral("Connected state unknown: there is no system account connection."));
    if (!snapshot.account.jetstream)
        notes << QStringLiteral("The account has no JetStream: it keeps no MQTT state.");
    return notes;
}

} // namespace MqttDoctor
