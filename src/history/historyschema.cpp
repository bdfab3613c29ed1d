#include "historyschema.h"

#include <QSqlError>
#include <QSqlQuery>

namespace MqttDoctor {

namespace {

Error sqlError(const QString &what, const QSqlError &e)
{
    return Error(Error::Kind::Io, QStringLiteral("%1: %2").arg(what, e.text()),
                 QStringLiteral("the history database may be damaged: move it away and the next check starts a new one"));
}

} // namespace

QStringList HistorySchema::migration(int version)
{
    switch (version) {
    case 1:
        return {
            // What the database is of, and the URLs it was recorded through (how `history` finds it offline).
            QStringLiteral("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
            QStringLiteral("CREATE TABLE urls(url TEXT PRIMARY KEY, last_used INTEGER NOT NULL)"),
            // One row per recorded check; times are milliseconds since the epoch, UTC.
            // scope: "*" for a check of every account, else the one account it checked.
            QStringLiteral("CREATE TABLE checks(id INTEGER PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, "
                           "scope TEXT NOT NULL, complete INTEGER NOT NULL, exit_code INTEGER NOT NULL, accounts INTEGER NOT NULL, "
                           "findings INTEGER NOT NULL, gaps TEXT NOT NULL)"),
            QStringLiteral("CREATE INDEX checks_at ON checks(at)"),
            // Only the accounts a check could not look at completely (the others were covered at every level).
            QStringLiteral("CREATE TABLE coverage(check_id INTEGER NOT NULL REFERENCES checks(id) ON DELETE CASCADE, "
                           "account TEXT NOT NULL, streams TEXT NOT NULL, records TEXT NOT NULL, connections TEXT NOT NULL, "
                           "PRIMARY KEY(check_id, account))"),
            // A finding that stays open over many checks is one row: first and last seen, closed when a check
            // that covered its account completely no longer finds it.
            QStringLiteral("CREATE TABLE findings(id INTEGER PRIMARY KEY, identity TEXT NOT NULL, code TEXT NOT NULL, "
                           "severity TEXT NOT NULL, account TEXT NOT NULL, stream TEXT NOT NULL, subject TEXT NOT NULL, "
                           "client_id TEXT NOT NULL, title TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, "
                           "first_check INTEGER NOT NULL, last_check INTEGER NOT NULL, closed_at INTEGER, closed_check INTEGER)"),
            QStringLiteral("CREATE UNIQUE INDEX findings_open ON findings(identity) WHERE closed_at IS NULL"),
            QStringLiteral("CREATE INDEX findings_account ON findings(account, last_seen)"),
            QStringLiteral("CREATE INDEX findings_closed ON findings(closed_at)"),
            QStringLiteral("CREATE TABLE account_counts(check_id INTEGER NOT NULL REFERENCES checks(id) ON DELETE CASCADE, "
                           "at INTEGER NOT NULL, account TEXT NOT NULL, sessions INTEGER, retained INTEGER, "
                           "queued_messages INTEGER, queued_bytes INTEGER, consumers INTEGER, connected INTEGER, "
                           "PRIMARY KEY(check_id, account))"),
            QStringLiteral("CREATE INDEX account_counts_account ON account_counts(account, at)"),
            // Each account's last counts: a check writes an account's counts only when one of them changed (an
            // idle fleet of 10,000 accounts checked every minute adds nothing).
            QStringLiteral("CREATE TABLE count_state(account TEXT PRIMARY KEY, at INTEGER NOT NULL, sessions INTEGER, retained INTEGER, "
                           "queued_messages INTEGER, queued_bytes INTEGER, consumers INTEGER, connected INTEGER)"),
            // The last state seen of each session record, stream config and server: what the next check is
            // compared with. Only the differences go into `changes`.
            QStringLiteral("CREATE TABLE session_state(account TEXT NOT NULL, subject TEXT NOT NULL, client_id TEXT NOT NULL, "
                           "seq INTEGER NOT NULL, subscriptions TEXT NOT NULL, PRIMARY KEY(account, subject))"),
            QStringLiteral("CREATE TABLE stream_state(account TEXT NOT NULL, stream TEXT NOT NULL, config TEXT NOT NULL, "
                           "PRIMARY KEY(account, stream))"),
            QStringLiteral("CREATE TABLE server_state(server_id TEXT PRIMARY KEY, name TEXT NOT NULL, version TEXT NOT NULL)"),
            QStringLiteral("CREATE TABLE changes(id INTEGER PRIMARY KEY, check_id INTEGER, at INTEGER NOT NULL, "
                           "account TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, client_id TEXT NOT NULL, "
                           "detail TEXT NOT NULL)"),
            QStringLiteral("CREATE INDEX changes_at ON changes(at)"),
            QStringLiteral("CREATE INDEX changes_client ON changes(client_id, at)"),
            // Client connects, disconnects and takeovers, each once (a connection is its server and cid).
            QStringLiteral("CREATE TABLE client_events(server TEXT NOT NULL, cid INTEGER NOT NULL, kind TEXT NOT NULL, "
                           "at INTEGER NOT NULL, account TEXT NOT NULL, client_id TEXT NOT NULL, address TEXT NOT NULL, "
                           "reason TEXT NOT NULL, PRIMARY KEY(server, cid, kind))"),
            QStringLiteral("CREATE INDEX client_events_client ON client_events(client_id, at)"),
            QStringLiteral("CREATE INDEX client_events_at ON client_events(at)"),
        };
    case 2:
        return {
            // The last sample of each account: the next check's two-sample checks compare with it.
            QStringLiteral("CREATE TABLE account_samples(account TEXT PRIMARY KEY, at INTEGER NOT NULL, sample TEXT NOT NULL)"),
        };
    default: return {};
    }
}

Result<int> HistorySchema::versionOf(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return sqlError(QStringLiteral("reading the history database's version"), q.lastError());
    return q.value(0).toInt();
}

Result<void> HistorySchema::migrate(QSqlDatabase &db, int target)
{
    auto version = versionOf(db);
    if (!version)
        return version.error();
    if (*version > kCurrentVersion)
        return Error(Error::Kind::Io,
                     QStringLiteral("the history database %1 is of a newer release (schema version %2; this release knows up "
                                    "to %3)")
                         .arg(db.databaseName())
                         .arg(*version)
                         .arg(kCurrentVersion),
                     QStringLiteral("use the newer release, or give another history folder (--history-dir, or the application's setting)"));
    for (int v = *version + 1; v <= target; ++v) {
        // IMMEDIATE: the write lock first (waiting for another writer), then the version read again, so
        // that two programs opening a new database at once migrate it once.
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return sqlError(QStringLiteral("starting the migration to version %1").arg(v), q.lastError());
        auto now = versionOf(db);
        if (!now) {
            q.exec(QStringLiteral("ROLLBACK"));
            return now.error();
        }
        if (*now >= v) {
            q.exec(QStringLiteral("COMMIT"));
            continue;
        }
        for (const QString &statement : migration(v))
            if (!q.exec(statement)) {
                const QSqlError e = q.lastError();
                q.exec(QStringLiteral("ROLLBACK"));
                return sqlError(QStringLiteral("migrating the history database to version %1 (%2)").arg(v).arg(statement), e);
            }
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(v)) || !q.exec(QStringLiteral("COMMIT"))) {
            const QSqlError e = q.lastError();
            q.exec(QStringLiteral("ROLLBACK"));
            return sqlError(QStringLiteral("migrating the history database to version %1").arg(v), e);
        }
    }
    return {};
}

} // namespace MqttDoctor
