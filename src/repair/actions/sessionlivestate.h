#pragma once
// What the session and QoS 2 repair actions read from the servers right before a step: the record on a
// subject (or at a sequence) now, and the MQTT clients connected now. Private to repair/actions; blocking,
// on the executor's worker thread.

#include <optional>

#include <QByteArray>
#include <QString>

#include "common/result.h"
#include "records/sessionloader.h"
#include "repair/repairaction.h"

namespace MqttDoctor::SessionLiveState {

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

/** Whether a record body read now references the durable `name` (in `cons` or `pubrel`); false when undecodable. */
bool recordReferences(const QByteArray &body, const QString &name);

} // namespace MqttDoctor::SessionLiveState
