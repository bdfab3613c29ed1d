#include "historydatabase.h"

#include <atomic>

#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

#include "historyschema.h"

namespace MqttDoctor {

namespace {

constexpr int kBusyTimeoutMs = 10000;

QString nextConnectionName()
{
    static std::atomic<quint64> counter{0};
    return QStringLiteral("mqttdoctor-history-%1").arg(++counter);
}

Error openError(const QString &path, const QString &why, const QString &hint)
{
    return Error(Error::Kind::Io, QStringLiteral("cannot open the history database %1: %2").arg(QDir::toNativeSeparators(path), why), hint);
}

} // namespace

HistoryDatabase::HistoryDatabase(QString connectionName, QString path)
    : m_connectionName(std::move(connectionName)), m_path(std::move(path))
{}

HistoryDatabase::~HistoryDatabase()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

Result<std::unique_ptr<HistoryDatabase>> HistoryDatabase::open(const QString &path, Mode mode)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return openError(path, QStringLiteral("Qt's SQLite driver is not installed"),
                         QStringLiteral("install the Debian package libqt6sql6-sqlite"));
    const QFileInfo file(path);
    if (mode != Mode::ReadWrite && !file.exists())
        return Error(Error::Kind::NotFound, QStringLiteral("no history at %1").arg(QDir::toNativeSeparators(path)),
                     QStringLiteral("record checks first: check --record, the recorder (record), or the application"));
    if (mode == Mode::ReadWrite && !QDir().mkpath(file.absolutePath()))
        return openError(
            path, QStringLiteral("its folder cannot be created"),
            QStringLiteral("give a history folder this user may write (--history-dir, or the application's history folder setting)"));
    if (mode == Mode::ReadWrite && !file.exists() && !QFileInfo(file.absolutePath()).isWritable())
        return openError(
            path, QStringLiteral("its folder %1 is not writable").arg(QDir::toNativeSeparators(file.absolutePath())),
            QStringLiteral("give a history folder this user may write (--history-dir, or the application's history folder setting)"));
    if (mode == Mode::ReadWrite && file.exists() && !file.isWritable())
        return openError(path, QStringLiteral("the file is read-only"),
                         QStringLiteral("make it writable, or give another history folder (--history-dir, or the application's setting)"));

    std::unique_ptr<HistoryDatabase> out(new HistoryDatabase(nextConnectionName(), file.absoluteFilePath()));
    out->m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), out->m_connectionName);
    out->m_db.setDatabaseName(out->m_path);
    QString options = QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs);
    if (mode != Mode::ReadWrite)
        options += QStringLiteral(";QSQLITE_OPEN_READONLY");
    out->m_db.setConnectOptions(options);
    if (!out->m_db.open())
        return openError(path, out->m_db.lastError().text(), QStringLiteral("check the file and its folder's permissions"));

    QSqlQuery q(out->m_db);
    // A file that is not SQLite fails here, on its first read.
    if (!q.exec(QStringLiteral("PRAGMA foreign_keys = ON")) || !q.exec(QStringLiteral("PRAGMA user_version")))
        return openError(path, q.lastError().text(),
                         QStringLiteral("the file is not a history database or is damaged: move it away and the next check starts "
                                        "a new one"));
    if (mode == Mode::ReadWrite) {
        // A new database frees the pages of what retention removes (PRAGMA incremental_vacuum): set before
        // its first table, as SQLite requires.
        if (q.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")) && q.next() && q.value(0).toInt() == 0)
            q.exec(QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL"));
        // WAL: readers do not wait for a writer, and a writer killed mid-write loses only its own transaction.
        if (!q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !q.exec(QStringLiteral("PRAGMA synchronous = NORMAL")))
            return openError(path, q.lastError().text(), QStringLiteral("check the free space and permissions of its folder"));
        if (auto migrated = HistorySchema::migrate(out->m_db); !migrated)
            return migrated.error();
    } else if (mode == Mode::ReadOnly) {
        auto version = HistorySchema::versionOf(out->m_db);
        if (!version)
            return version.error();
        if (*version > HistorySchema::kCurrentVersion)
            return openError(path, QStringLiteral("it is of a newer release (schema version %1)").arg(*version),
                             QStringLiteral("use the newer release"));
        if (*version < HistorySchema::kCurrentVersion)
            return openError(path, QStringLiteral("it is of an older schema (version %1) and was opened read-only").arg(*version),
                             QStringLiteral("record one check with this release to migrate it"));
    }
    return out;
}

Result<void> HistoryDatabase::writeTransaction(const QString &what, const std::function<Result<void>()> &work)
{
    const auto failed = [&](const QString &step, const QSqlError &e) {
        return Error(Error::Kind::Io, QStringLiteral("cannot write the history database %1 (%2, %3): %4").arg(m_path, what, step, e.text()),
                     QStringLiteral("check the free space and permissions of its folder, or give another history folder"));
    };
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failed(QStringLiteral("starting"), q.lastError());
    if (auto done = work(); !done) {
        q.exec(QStringLiteral("ROLLBACK"));
        return done;
    }
    if (!q.exec(QStringLiteral("COMMIT"))) {
        const QSqlError e = q.lastError();
        q.exec(QStringLiteral("ROLLBACK"));
        return failed(QStringLiteral("committing"), e);
    }
    return {};
}

qint64 HistoryDatabase::usedBytes()
{
    QSqlQuery q(m_db);
    qint64 pages = 0, freePages = 0, pageSize = 0;
    if (q.exec(QStringLiteral("PRAGMA page_count")) && q.next())
        pages = q.value(0).toLongLong();
    if (q.exec(QStringLiteral("PRAGMA freelist_count")) && q.next())
        freePages = q.value(0).toLongLong();
    if (q.exec(QStringLiteral("PRAGMA page_size")) && q.next())
        pageSize = q.value(0).toLongLong();
    return (pages - freePages) * pageSize;
}

Result<bool> HistoryDatabase::integrityOk()
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA integrity_check")) || !q.next())
        return Error(Error::Kind::Io, QStringLiteral("integrity check of %1: %2").arg(m_path, q.lastError().text()));
    return q.value(0).toString() == QLatin1String("ok");
}

QString HistoryDatabase::meta(const QString &key)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT value FROM meta WHERE key = ?"));
    q.addBindValue(key);
    if (q.exec() && q.next())
        return q.value(0).toString();
    return {};
}

Result<void> HistoryDatabase::setMeta(const QString &key, const QString &value)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"));
    q.addBindValue(key);
    q.addBindValue(value.isNull() ? QStringLiteral("") : value);
    if (!q.exec())
        return Error(Error::Kind::Io, QStringLiteral("writing to the history database %1: %2").arg(m_path, q.lastError().text()));
    return {};
}

} // namespace MqttDoctor
