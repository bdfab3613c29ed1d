#pragma once

#include <QByteArray>
#include <QString>

namespace MqttDoctor {

/**
 * A payload for people: UTF-8 text with control characters escaped (`\n`, `\t`, `\\`), cut at
 * `maxChars` with an ellipsis, or `hex: 01 02 …` for anything that is not printable text. Empty for an
 * empty payload. Shared by the retained messages and the messages in flight. Pure; any thread.
 */
namespace PayloadPreview {
QString text(const QByteArray &payload, int maxChars = 64);
} // namespace PayloadPreview

} // namespace MqttDoctor
