#pragma once

#include <QStringList>

namespace MqttDoctor {

struct AccountSnapshot;

/**
 * What a list of an account's sessions cannot show, in one sentence each: no `$MQTT_sess` yet (or only
 * sessions left in legacy streams), the connected state unknown (and why), no JetStream at all. The GUI's
 * Sessions view and the CLI's `sessions` say the same. Pure; any thread.
 */
class SessionsNotes final
{
public:
    SessionsNotes() = delete;

    /**
     * The notes of `snapshot` (loaded), in the order to show them. `legacySessions`: how many of the sessions
     * listed came from legacy `$MQTT_sess_<hash>` streams; `systemConnection`: the connections have the
     * system account (without it the connected state is unknown by design).
     */
    static QStringList of(const AccountSnapshot &snapshot, qsizetype legacySessions, bool systemConnection);
};

} // namespace MqttDoctor
