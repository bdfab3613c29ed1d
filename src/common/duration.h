#pragma once

#include <optional>

#include <QStringView>

namespace MqttDoctor {

/** Go-style durations as natscli takes them: "5s", "500ms", "1m30s", "1.5h", "0"; milliseconds, or nothing when invalid. */
std::optional<double> parseGoDurationMs(QStringView text);

} // namespace MqttDoctor
