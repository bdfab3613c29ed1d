#pragma once

#include <QByteArray>

#include <optional>

#include "mqtt/sessionrecord.h"

namespace MqttDoctor {

/**
 * The fast path of SessionRecord::decode (internal): one pass over the UTF-8 bytes, no QJsonDocument,
 * consumer configs kept as slices of the body. It accepts only a strict subset of what the reference
 * decoder accepts (ASCII strings, plain integers, the known top-level fields each once, no duplicate
 * keys, no nulls at the top level, shallow nesting) and returns nullopt for anything else; the
 * reference decoder (QJsonDocument) then decides, so every error and every unusual record comes out
 * exactly as before. Never reads outside the given bytes. Pure and thread-safe.
 */
namespace SessionRecordFast {

/** The record of a body in the common form, or nullopt (use the reference decoder). */
std::optional<SessionRecord> decodeBody(const QByteArray &json);

/**
 * Recognises the header blocks nats-server writes without parsing them into strings: none (empty),
 * `NATS/1.0` with only line ends, and `NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:<digits>\r\n\r\n`.
 * False for anything else (use NatsHeaders).
 */
bool headerForm(const QByteArray &block, SessionRecord::HeaderForm &form, std::optional<quint64> &expectedLastSequence);

} // namespace SessionRecordFast
} // namespace MqttDoctor
