#pragma once

#include <atomic>

#include <QString>
#include <QStringList>

#include "common/result.h"
#include "repair/repairprogress.h"

namespace MqttDoctor {

struct RepairTarget;

struct RestoreOptions
{
    /**
     * The stream already holds messages that are not in the backup (within the backup's subject
     * filter): without merge the restore is refused and nothing changes; with merge the backup's
     * missing messages are added and the stream's own are kept.
     */
    bool merge = false;
    /** Validate the file and compare with the stream; change nothing (allowed on read-only profiles). */
    bool dryRun = false;
    RepairProgressHandler progress; ///< optional
    const std::atomic<bool> *cancel = nullptr; ///< stops publishing; what was acknowledged stays (a rerun continues)
    int inFlight = 256; ///< publishes awaiting their ack at once
    int idleTimeoutMs = 10000; ///< a publish ack later than this counts as failed
    QString auditPath; ///< empty: AuditLog::defaultPath()
};

struct RestoreResult
{
    QString path;
    QString stream;
    QString account;
    QString subjectFilter; ///< the backup's subject filter (empty: whole stream)
    quint64 messages = 0; ///< message lines in the file
    quint64 restored = 0; ///< published and acknowledged (dry run: would publish)
    quint64 alreadyPresent = 0; ///< skipped: an identical message is in the stream
    quint64 conflicts = 0; ///< skipped: a per-subject stream holds another message on the subject (kept)
    quint64 failed = 0; ///< publish refused or not acknowledged
    quint64 headersStripped = 0; ///< messages published without some of their headers (BackupFormat::isStrippedHeader)
    bool streamCreated = false; ///< (dry run: would be created)
    QStringList consumersCreated;
    QStringList consumersExisting;
    QStringList
        consumersSkipped; ///< ephemeral consumers (no durable name): not recreated, but a server's retained-message consumer on $MQTT_rmsgs
    QStringList failures; ///< the first failures' texts
    QStringList warnings;
    bool cancelled = false;
    bool dryRun = false;
    QString auditPath;
    QString auditError; ///< the audit entry could not be written (the restore itself happened)

    bool complete() const { return failed == 0 && !cancelled; }
};

/**
 * Restores a backup file into the account's stream (docs/cli.md "restore"):
 *
 * 1. refuses when the profile is read-only (unless dryRun), then validates every line of the file;
 *    a damaged file gives an error with the line number and nothing changes;
 * 2. if the stream is missing, creates it from the backed-up raw config ("already in use" is re-read);
 *    if it exists, reads its messages (within the backup's subject filter; interest streams without a
 *    consumer) and refuses without `merge` when it holds messages the backup does not have;
 * 3. creates the backed-up durable consumers that are missing, before any publish (an interest stream
 *    drops messages nobody is interested in); ephemeral ones are skipped;
 * 4. republishes the messages in order, each with its publish ack, without the headers JetStream
 *    would enforce or dedupe on (BackupFormat::isStrippedHeader); a message already in the stream
 *    (same subject, data and restorable headers) is skipped, so a rerun after a crash continues
 *    where it stopped; on a per-subject stream (max_msgs_per_subject 1) a subject holding another
 *    message keeps it (counted as conflict);
 * 5. appends one audit entry (not for dry runs or refusals that changed nothing).
 *
 * New sequences are assigned by the server; messages of an interest stream that were consumed after
 * an earlier restore are published again by a rerun (QoS 1 is at-least-once). Blocking: worker thread.
 */
namespace StreamRestore {

Result<RestoreResult> run(const RepairTarget &target, const QString &path, const RestoreOptions &options = {});

} // namespace StreamRestore

} // namespace MqttDoctor
