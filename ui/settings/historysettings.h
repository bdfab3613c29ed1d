#pragma once

#include <QString>

namespace MqttDoctor {

/**
 * Where the GUI keeps the local history of its refreshes and whether it records them, from QSettings
 * (`history/folder`, `history/record`): the folder is HistoryLocation::defaultFolder() unless set, and the
 * environment variable MQTTDOCTOR_HISTORY_DIR overrides both (tests, a portable set-up). GUI thread.
 */
class HistorySettings final
{
public:
    /** The folder of the history databases. */
    static QString folder();
    /** Whether each refresh is recorded (default: yes). */
    static bool recording();
};

} // namespace MqttDoctor
