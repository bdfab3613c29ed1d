#pragma once
// The backup files of the operator actions' batch steps, written by the step itself right before it deletes
// (the executor's per-subject backups would read 500 subjects one by one): the stream's config and state, the
// messages at the sequences the step deletes and the configs of the durables it deletes, in the backup file
// format, so that `restore FILE --merge` puts them back. Private to repair/actions; blocking, worker thread.

#include <optional>

#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "repair/backupformat.h"
#include "repair/repairaction.h"

namespace MqttDoctor::SequenceBackup {

/** The messages at `sequences` of `stream` now (many requests at once): nullopt where none is (deleted, 10037). */
Result<QList<std::optional<BackupMessage>>> read(const ExecContext &ctx, const QString &stream, const QList<quint64> &sequences);
/** CONSUMER.INFO of each (stream, name): {name, config}, nullopt where the consumer does not exist. */
Result<QList<std::optional<QJsonObject>>> consumers(const ExecContext &ctx, const QList<std::pair<QString, QString>> &streamAndName);

/**
 * Writes one backup file for `step` of `stream` (its STREAM.INFO config and state, `messages` sorted by sequence,
 * `consumerInfos`) in ctx.backupDir, complete on disk before it returns (else an error and no file). Its path.
 */
Result<QString> write(const ExecContext &ctx, const RepairStep &step, const QString &stream, QList<BackupMessage> messages,
                      const QList<QJsonObject> &consumerInfos, int index);

} // namespace MqttDoctor::SequenceBackup
