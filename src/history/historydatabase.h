#pragma once

#include <functional>
#include <memory>

#include <QSqlDatabase>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

/**
 * One open history database (SQLite through Qt SQL): WAL mode, so a recorder and the application
 * may write and read it at once, each waiting up to a few seconds for the other's write; foreign keys
 * on; migrated to the current schema (HistorySchema) when opened for writing.
 *
 * A Qt SQL connection belongs to the thread that opened it: open, use and destroy a HistoryDatabase
 * on one thread (a worker, never the GUI thread: a write may wait for another writer).
 */
class HistoryDatabase final
{
public:
    /**
     * ReadWrite: created and migrated. ReadOnly: the current schema only. AnyVersion: read only, whatever its
     * schema, for what every version has (the `urls` and `meta` tables).
     */
    enum class Mode { ReadWrite, ReadOnly, AnyVersion };

    /**
     * Opens (ReadWrite: creates, with its folder) the database at `path`. Errors name the file and what
     * to do: a folder that cannot be written, a damaged file, a database of a newer release.
     */
    static Result<std::unique_ptr<HistoryDatabase>> open(const QString &path, Mode mode = Mode::ReadWrite);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase &) = delete;
    HistoryDatabase &operator=(const HistoryDatabase &) = delete;

    QSqlDatabase &db() { return m_db; }
    QString path() const { return m_path; }
    /**
     * Runs `work` in one `BEGIN IMMEDIATE` transaction: committed when it succeeds, rolled back when it fails.
     * IMMEDIATE takes the write lock before the first read (waiting up to the busy timeout for another
     * writer): a deferred transaction that read and then writes fails at once when another writer
     * committed in between. `what` names the write in errors.
     */
    Result<void> writeTransaction(const QString &what, const std::function<Result<void>()> &work);
    /** The bytes its pages hold (free pages not counted). */
    qint64 usedBytes();
    /** `PRAGMA integrity_check` says "ok". */
    Result<bool> integrityOk();
    /** A meta value ("cluster", "created"); empty when not set. */
    QString meta(const QString &key);
    Result<void> setMeta(const QString &key, const QString &value);

private:
    HistoryDatabase(QString connectionName, QString path);

    QString m_connectionName;
    QString m_path;
    QSqlDatabase m_db;
};

} // namespace MqttDoctor
