#pragma once

#include <QString>
#include <QStringList>

namespace MqttDoctor {

/*
 * NATS subject matching on subject filters (no network; any thread). Tokens are separated by '.';
 * '*' matches exactly one token; '>' as the last token matches one or more trailing tokens.
 * An invalid filter (empty, an empty token, '>' not last) matches nothing.
 */

/** True when `subject` is a valid subject filter. */
bool isValidSubjectFilter(const QString &subject);

/**
 * True when some concrete subject matches both filters — what JetStream rejects as
 * "subjects overlap with an existing stream (10065)". `$MQTT.>` and `$MQTT.sess.>` overlap;
 * `$MQTT.rmsgs` and `$MQTT.rmsgs.>` do not ('>' needs at least one token); `a.*.c` and `a.b.*` do.
 */
bool subjectsOverlap(const QString &a, const QString &b);

/** True when every subject `a` matches is also matched by `b` (`$MQTT.sess.hub.>` ⊆ `$MQTT.sess.>`). */
bool subjectIsSubsetOf(const QString &a, const QString &b);

/** True when every subject `a` matches is matched by at least one filter of `filters`. */
bool subjectCoveredBy(const QString &a, const QStringList &filters);

} // namespace MqttDoctor
