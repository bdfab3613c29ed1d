#pragma once

#include <QString>

#include "repair/repairplan.h"

namespace MqttDoctor {

/**
 * What a repair run reports as it goes (RepairSession, RepairExecutor), in this order: RoundStarted,
 * then per step StepStarted, BackupWritten (each file, before the step changes anything) and
 * StepFinished, then RoundFinished; Done once at the end of the run. Delivered on the working thread:
 * a handler copies what it needs and posts it on (a GUI must not be touched from there).
 */
struct RepairEvent
{
    enum class Kind { RoundStarted, StepStarted, BackupWritten, StepFinished, RoundFinished, Done };

    Kind kind = Kind::RoundStarted;
    int round = 0; ///< 1 for the first round
    int steps = 0; ///< RoundStarted: how many steps the round has
    RepairStep step; ///< StepStarted, BackupWritten, StepFinished
    StepOutcome outcome; ///< StepFinished
    QString backupFile; ///< BackupWritten
    QString text; ///< RoundFinished, Done: what happened, one line for people
};

} // namespace MqttDoctor
