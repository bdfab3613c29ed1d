#pragma once

#include "diagnosis/checkoptions.h"

namespace MqttDoctor {

/**
 * The thresholds of the checks that the GUI lets the operator set (Tools > Check Thresholds), kept in
 * QSettings: when a persistent session counts as stale (SESSION_STALE), how many pinned messages make a
 * finding (INTEREST_PINNED) and how fast the JetStream API errors may grow (JETSTREAM_API_ERRORS). The
 * CLI's `check` takes the same values as `--stale-after`, `--pinned-warn-at` and `--api-errors-per-minute`.
 * GUI thread.
 */
class CheckThresholds final
{
public:
    /** `base` with the stored thresholds (the defaults of CheckOptions where nothing is stored). */
    static CheckOptions load(CheckOptions base = {});
    /** Stores the thresholds of `options`; a value equal to its default is removed, so a later default applies. */
    static void save(const CheckOptions &options);
    /** `base` with the thresholds of `thresholds`. Pure. */
    static CheckOptions applied(CheckOptions base, const CheckOptions &thresholds);
};

} // namespace MqttDoctor
