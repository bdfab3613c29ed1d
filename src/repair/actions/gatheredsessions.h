#pragma once
// Lookups in the session state a plan was made from (PlanContext::sessions: the records and the durables
// gathered by the check), shared by the session and QoS 2 repair actions. Pure; private to repair/actions.

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "records/sessionloader.h"
#include "repair/repairaction.h"

namespace MqttDoctor::GatheredSessions {

/** The gathered record on `subject`, or nullptr. */
const SessionEntry *entryOn(const PlanContext &ctx, const QString &subject);
/** Names of the decodable records (other than on `exceptSubject`) that reference the durable `name`. */
QStringList referencingSubjects(const PlanContext &ctx, const QString &name, const QString &exceptSubject = {});
/** The gathered consumer info (CONSUMER.LIST object plus "stream"), empty when unknown. */
QJsonObject consumerInfo(const PlanContext &ctx, const QString &name);
/** Every gathered durable of the hash: `<hash>_*` on `$MQTT_msgs` and `$MQTT_PUBREL_<hash>` on `$MQTT_out`, sorted. */
QStringList durablesOfHash(const PlanContext &ctx, const QString &hash);
/** The session subject of a hash: a gathered record's subject when one sits on it, else the layout's. */
QString subjectOfHash(const PlanContext &ctx, const QString &hash);
/** "N pending, M unacknowledged" of a consumer info object. */
QString pendingText(const QJsonObject &info);

} // namespace MqttDoctor::GatheredSessions
