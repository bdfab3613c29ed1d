#pragma once

#include <optional>

#include <QString>

class QDateTime;

namespace MqttDoctor::Rfc3339Time {

/**
 * Nanoseconds since the epoch from RFC 3339 with 0 to 9 fraction digits ("2026-12-02T15:50:37.344798216Z", as the
 * server's STREAM.MSG.GET replies and our backups write times); nullopt for anything else, also for a time outside
 * what 64-bit nanoseconds hold (before 1677-09-21 or after 2262-04-11). QDateTime keeps milliseconds only, so the
 * fraction is read here. Pure, any thread.
 */
std::optional<qint64> parseNs(const QString &text);

/**
 * `utc` as QDateTime::toString(Qt::ISODateWithMs) writes a UTC time ("2026-12-05T03:40:12.123Z"), made
 * without QDateTime's general formatting (a listing writes a million of them); an invalid time gives "".
 * Pure, any thread.
 */
QString formatMs(const QDateTime &utc);
} // namespace MqttDoctor::Rfc3339Time
