#pragma once
// Shared by the session repair actions (sessionactions.cpp, sessionmigrate.cpp): what they read right
// before a step (the last record on a session subject, the MQTT clients connected now) and how they
// find the consumers of a session hash in the gathered state. Private to repair/actions.

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "records/sessionloader.h"
#include "repair/repairaction.h"

namespace MqttDoctor::SessionRepair {

/** A message read back with `STREAM.MSG.GET` (the last on a subject, or by sequence). */
struct StoredRecord
{
    QString subject;
    quint64 seq = 0;
    qint64 timeNs = 0; ///< store time, ns since the epoch (0 when the reply had none)
    QByteArray headers;
    QByteArray data;
};

/** `STREAM.MSG.GET <stream> {"last_by_subj": subject}`; nullopt when the subject (or the stream) holds nothing. */
Result<std::optional<StoredRecord>> lastOnSubject(const ExecContext &ctx, const QString &stream, const QString &subject);
/** `STREAM.MSG.GET <stream> {"seq": seq}`; nullopt when the message (or the stream) is gone. */
Result<std::optional<StoredRecord>> bySequence(const ExecContext &ctx, const QString &stream, quint64 seq);

/**
 * The MQTT clients of the step's account connected now (`mqtt_client` → server), asked through the
 * account's own connection: every account imports the system account's `$SYS.REQ.SERVER.PING.CONNZ`
 * service scoped to itself (no system credentials needed). nullopt when no server answers it (no
 * system account, or the import was removed): the caller falls back on the record's sequence.
 */
std::optional<SessionLoader::ConnectedClients> connectedNow(const ExecContext &ctx, const QString &clientId = {});

/** Whether a record body references the durable `name` (in `cons` or `pubrel`); false when undecodable. */
bool recordReferences(const QByteArray &body, const QString &name);

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

/** A session subject the delete_consumer precondition re-reads, with what the plan saw on it. */
struct WatchedSubject
{
    QString subject;
    quint64 seq = 0;            ///< the record the plan saw (0: none)
    bool purgedBefore = false;  ///< an earlier step of the same plan purges exactly that record
    QJsonObject toJson() const;
    static WatchedSubject fromJson(const QJsonObject &o);
};

/**
 * A delete_consumer step (backup of the config, then CONSUMER.DELETE) for `name` of the gathered
 * state; `why` ends the one-line description ("orphaned", "of the undecodable record on ...").
 * `watched` are the session subjects re-read right before it.
 */
RepairStep deleteConsumerStep(const PlanContext &ctx, const QString &stream, const QString &name, const QString &why,
                              const QList<WatchedSubject> &watched);

/** The RepairAction objects of this family that live outside sessionactions.cpp. */
const RepairAction *migrateLegacySessionsAction();
const RepairAction *deleteConsumerAction();
const RepairAction *createConsumerAction();
const RepairAction *adoptDurableAction();

/** "N pending, M unacknowledged" of a consumer info object. */
QString pendingText(const QJsonObject &info);

} // namespace MqttDoctor::SessionRepair
