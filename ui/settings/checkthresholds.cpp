#include "checkthresholds.h"

#include <QSettings>

namespace MqttDoctor {

namespace {

constexpr auto kStaleAfter = "checks/staleAfterSecs";
constexpr auto kPinnedWarnAt = "checks/pinnedWarnAt";
constexpr auto kApiErrorsPerMinute = "checks/apiErrorsPerMinute";

// A stored value when it is a number of at least `minimum`; else `fallback` (a hand-edited file cannot break the checks).
qint64 stored(const QSettings &settings, const char *key, qint64 minimum, qint64 fallback)
{
    bool ok = false;
    const qint64 v = settings.value(QLatin1String(key)).toLongLong(&ok);
    return ok && v >= minimum ? v : fallback;
}

void store(QSettings &settings, const char *key, qint64 value, qint64 defaultValue)
{
    if (value == defaultValue)
        settings.remove(QLatin1String(key));
    else
        settings.setValue(QLatin1String(key), value);
}

} // namespace

CheckOptions CheckThresholds::load(CheckOptions base)
{
    const QSettings settings;
    const CheckOptions defaults;
    base.staleAfterSecs = stored(settings, kStaleAfter, 1, defaults.staleAfterSecs);
    base.pinnedWarnAt = stored(settings, kPinnedWarnAt, 0, defaults.pinnedWarnAt);
    base.apiErrorsPerMinute = stored(settings, kApiErrorsPerMinute, 1, defaults.apiErrorsPerMinute);
    return base;
}

void CheckThresholds::save(const CheckOptions &options)
{
    QSettings settings;
    const CheckOptions defaults;
    store(settings, kStaleAfter, options.staleAfterSecs, defaults.staleAfterSecs);
    store(settings, kPinnedWarnAt, options.pinnedWarnAt, defaults.pinnedWarnAt);
    store(settings, kApiErrorsPerMinute, options.apiErrorsPerMinute, defaults.apiErrorsPerMinute);
}

CheckOptions CheckThresholds::applied(CheckOptions base, const CheckOptions &thresholds)
{
    base.staleAfterSecs = thresholds.staleAfterSecs;
    base.pinnedWarnAt = thresholds.pinnedWarnAt;
    base.apiErrorsPerMinute = thresholds.apiErrorsPerMinute;
    return base;
}

} // namespace MqttDoctor
