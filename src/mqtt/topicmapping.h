#pragma once

#include <QString>

#include "common/result.h"

namespace MqttDoctor {

/**
 * How nats-server maps MQTT topics and topic filters to NATS subjects and back.
 * All functions are pure and thread-safe.
 *
 * MQTT → NATS, level by level (levels are split on `/`, tokens joined with `.`):
 * - a normal level is kept as is; `+` becomes `*`; `#` becomes `>`;
 * - an empty level (leading, trailing or doubled `/`) becomes the token `/`
 *   (`/a` → `/.a`, `a//b` → `a./.b`, `a/` → `a./`);
 * - a `.` inside a level is rejected by 2.9 (`characters ' ' and '.' not supported for MQTT topics`);
 *   2.10+ encodes it as `//` (`living.room` → `living//room`);
 * - a space is rejected by every version.
 *
 * A filter ending in `#` after at least one level (`a/#` → `a.>`) also gets a "level-up" subscription on
 * the parent subject (`a`), whose sid in the session record is `"a fwc"`.
 */
class TopicMapping final
{
public:
    /** Which server generation's mapping applies (2.9: no `.` in topics; 2.10+: `.` ↔ `//`). */
    enum class Dialect { V2_9, V2_10 };

    /** A topic name (PUBLISH, retained topic): no wildcards allowed. */
    static Result<QString> topicToSubject(const QString &topic, Dialect dialect);
    /** A topic filter (SUBSCRIBE): `+` and `#` allowed as whole levels, `#` last. */
    static Result<QString> filterToSubject(const QString &filter, Dialect dialect);
    /**
     * NATS subject (or subscription subject) → MQTT topic or filter: `*` → `+`, `>` → `#`,
     * token `/` → empty level, and (2.10+) `//` → `.`. Total: never fails.
     */
    static QString subjectToTopic(const QString &subject, Dialect dialect);

    /** The sid suffix of level-up subscriptions: `" fwc"`. */
    static QString levelUpSidSuffix() { return QStringLiteral(" fwc"); }
    /** True when `subject` has more than one token and ends with `.>` (needs a level-up sub). */
    static bool needsLevelUp(const QString &subject);
    /** `a.b.>` → `a.b fwc` (the sid of the level-up subscription); empty if !needsLevelUp. */
    static QString levelUpSid(const QString &subject);
    static bool isLevelUpSid(const QString &sid) { return sid.endsWith(levelUpSidSuffix()); }
    /** The NATS subject a session-record sid stands for: `a fwc` → `a`, anything else unchanged. */
    static QString subjectOfSid(const QString &sid);
    /**
     * The MQTT filter a session-record sid came from: `a fwc` → `a/#` (the level-up half of `a/#`),
     * otherwise subjectToTopic(sid).
     */
    static QString sidToFilter(const QString &sid, Dialect dialect);
};

} // namespace MqttDoctor
