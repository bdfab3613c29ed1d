#pragma once

#include <optional>

#include <QString>
#include <QStringView>

namespace MqttDoctor {

/** Go-style durations as natscli takes them: "5s", "500ms", "1m30s", "1.5h", "0"; milliseconds, or nothing when invalid. */
std::optional<double> parseGoDurationMs(QStringView text);
/** parseGoDurationMs() plus days ("30d", "1d12h"), for ages and thresholds. */
std::optional<double> parseAgeMs(QStringView text);
/** An age for people: "45s", "12m", "3h 5m", "41d 2h". */
QString formatAge(qint64 seconds);

} // namespace MqttDoctor
