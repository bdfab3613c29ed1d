#pragma once

#include <atomic>

#include <QString>
#include <QStringList>

#include "common/result.h"
#include "repair/repairprogress.h"

namespace MqttDoctor {

struct RepairTarget;

/** What to back up. The defaults back up a whole stream with all its consumers. */
struct BackupRequest
{
    QString stream;
    QString outputPath;
    /** Empty: every message. Else only messages on this subject (wildcards allowed), e.g. `$MQTT.sess.<hash>`. */
    QString subject;
    bool includeMessages = true; ///< false: configs only (e.g. before deleting a consumer)
    bool allConsumers = true; ///< false: only the consumers named in `consumers`
    QStringList consumers; ///< with allConsumers false: these, each must exist
    bool overwrite = false; ///< replace an existing file at outputPath (else refused)
};

struct BackupOptions
{
    RepairProgressHandler progress; ///< optional
    const std::atomic<bool> *cancel = nullptr; ///< set from any thread to stop; no file is left then
    int batchSize = 1024;
    QString toolVersion; ///< recorded in the header; default: the library's version
};

/** A finished backup: the file exists under `path`, complete and synced to disk. */
struct BackupResult
{
    QString path;
    QString stream;
    QString account;
    QString subjectFilter;
    quint64 messages = 0;
    quint64 bytes = 0; ///< message data and header bytes
    qint64 fileBytes = 0; ///< size of the file
    QStringList consumers; ///< names whose configs the file holds
    bool interestRetention = false; ///< read with direct gets (no consumer)
};

/**
 * Backs up a stream, or one subject of it, to a backup file (BackupFormat) with the stream's config,
 * state and consumer configs, through the account's own connection. Limits streams are read with an
 * ordered consumer, interest streams with direct gets (StreamContent). The file is written under a
 * temporary name, synced and renamed: on any error or cancel the call fails and nothing is left
 * under the final name. A repair step must not run unless this returned a result (docs/safety.md).
 * Reads only, so a read-only profile may back up. Blocking: worker thread only.
 */
namespace StreamBackup {

Result<BackupResult> run(const RepairTarget &target, const BackupRequest &request, const BackupOptions &options = {});

/** The Error returned when the cancel flag stopped a backup or restore (kind Internal, says "cancelled"). */
Error cancelledError(const QString &what);
bool isCancelled(const Error &error);

} // namespace StreamBackup

} // namespace MqttDoctor
