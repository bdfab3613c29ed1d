#pragma once

#include <optional>

#include "mqtt/retainedrecord.h"
#include "mqtt/storedmessage.h"

namespace MqttDoctor {

/**
 * The fast path of RetainedRecord::decode (internal): the header encoding read straight from the
 * header block, the JSON encoding with the FastJson scanner, no QJsonDocument or NatsHeaders. It accepts
 * only the forms nats-server writes (known `Nmqtt-R*` keys in their spelling, ASCII values, known JSON
 * fields once, no nulls) and returns nullopt for anything else; the reference decoder then decides, so
 * errors and unusual records come out exactly as before. Pure and thread-safe.
 */
namespace RetainedRecordFast {

std::optional<RetainedRecord> decode(const StoredMessage &message);

} // namespace RetainedRecordFast
} // namespace MqttDoctor
