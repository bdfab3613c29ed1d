#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QString>

#include "common/result.h"
#include "repair/backupformat.h"

class QFile;

namespace MqttDoctor {

/**
 * A path in `dir` for a new backup that no file has yet: `fileName(stamp)` with the time now in UTC,
 * to the millisecond (`yyyyMMdd'T'HHmmsszzz'Z'`), asked again on the next millisecond while that file
 * exists (a rerun right after a failure must not reuse its backup's name). After a second of names
 * that all exist, the last one is returned: the writer refuses to overwrite it and says so.
 */
QString freshBackupPath(const QString &dir, const std::function<QString(const QString &stamp)> &fileName);

/**
 * Writes a file that appears under its final name only when complete: the bytes go to a temporary
 * file in the same folder ("<name>.tmp-<random>"); commit() flushes, fsyncs, renames it over the final
 * name and fsyncs the folder. Without a commit (error, cancel, destruction) the temporary file is
 * removed and the final name is untouched. One thread at a time.
 */
class AtomicFileWriter final
{
public:
    explicit AtomicFileWriter(QString finalPath);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    /** Creates the temporary file. Fails (Io) when the folder is not writable, or when the final file exists and !overwrite. */
    Result<void> open(bool overwrite);
    Result<void> write(const QByteArray &bytes);
    /** Flush, fsync, rename, fsync the folder. After an error nothing is left under the final name. */
    Result<void> commit();
    /** Removes the temporary file (also done by the destructor when not committed). */
    void discard();

    QString finalPath() const { return m_finalPath; }
    QString temporaryPath() const;
    qint64 bytesWritten() const { return m_written; }

private:
    Error ioError(const QString &what) const;

    QString m_finalPath;
    std::unique_ptr<QFile> m_file;
    qint64 m_written = 0;
    bool m_committed = false;
};

/**
 * Reads and validates a backup file line by line (BackupFormat). Every error names the file and
 * the line number: "backup.jsonl line 7: the message's data is missing or not base64". A file is
 * valid only with its header first, strictly increasing sequences, and a final end line whose
 * counts match (a cut file is refused). Pure file I/O; any thread.
 */
class BackupFileReader final
{
public:
    /** Called for each message line; return false to stop reading (the result then has `stopped`). */
    using MessageHandler = std::function<bool(BackupMessage &&message, qint64 lineNumber)>;

    struct Summary
    {
        BackupHeader header;
        BackupTrailer trailer;
        qint64 lines = 0;
        bool stopped = false; ///< the handler returned false; header and counts so far only
    };

    static Result<Summary> read(const QString &path, const MessageHandler &onMessage = {});
};

} // namespace MqttDoctor
