#pragma once

#include <functional>

#include <QString>

namespace MqttDoctor {

/** How far a backup or restore is. `total` is 0 while unknown. */
struct RepairProgress
{
    QString phase; ///< "reading", "publishing", "checking", ...
    quint64 done = 0;
    quint64 total = 0;
};

/** Called on the working thread; must return quickly and not touch a QObject directly (post instead). */
using RepairProgressHandler = std::function<void(const RepairProgress &)>;

} // namespace MqttDoctor
