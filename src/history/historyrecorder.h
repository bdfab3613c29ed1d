#pragma once

#include <QDateTime>
#include <QHash>
#include <QString>

#include "common/result.h"
#include "history/checkrecord.h"

namespace MqttDoctor {

class HistoryDatabase;

/**
 * Writes checks into a history database, each in one transaction (a writer killed mid-way loses that
 * check only):
 * - the check, its coverage and each account's counts;
 * - its findings by identity: one row per problem with first and last seen, closed by the first check
 *   that covered its account completely (the whole cluster, for findings of no account) and no longer
 *   found it; a check that could not look leaves it open;
 * - what changed since the last check: session records appeared, rewritten (their subscriptions before
 *   and after) and vanished, MQTT stream configs created, changed and deleted, servers joined, upgraded
 *   and gone, each compared only where this check read everything (the first check of an account is its
 *   baseline, not a hundred thousand "appeared");
 * - the closed MQTT connections it saw (disconnects, takeovers), each once.
 * Then, at most once an hour, what is older than the retention is removed.
 */
class HistoryRecorder final
{
public:
    struct Outcome
    {
        qint64 checkId = 0;
        int opened = 0; ///< findings seen for the first time (or again after being closed)
        int closed = 0;
        int stillOpen = 0;
        int changes = 0;
        /** No check was recorded before this one (the first of the database). */
        bool first = false;
        /** When each finding of the check was first seen (its identity → time; this check's time when new). */
        QHash<QString, QDateTime> firstSeen;
    };

    explicit HistoryRecorder(HistoryDatabase &database);

    /** Days a check, change or client event is kept (default 30). */
    void setRetentionDays(int days) { m_retentionDays = days; }
    /** The most the database may hold (default 1 GiB): past it, the oldest checks and changes go first. */
    void setMaxBytes(qint64 bytes) { m_maxBytes = bytes; }
    static constexpr qint64 kDefaultMaxBytes = qint64(1) << 30;
    Result<Outcome> record(const CheckRecord &check);
    /** Client events seen between checks (a recorder following the advisories), each once, in one transaction. */
    Result<void> recordEvents(const QList<MqttClientEvent> &events);
    /**
     * Removes what is older than the retention now, then, while the database holds more than its size
     * limit, the oldest tenth of what is left (never the last check, nor the current state the next
     * check is compared with); frees the pages. Returns how many checks went.
     */
    Result<int> prune(const QDateTime &now);

private:
    Result<void> recordFindings(const CheckRecord &check, qint64 checkId, Outcome &out);
    Result<void> recordSessions(const CheckRecord &check, qint64 checkId, Outcome &out);
    Result<void> recordStreams(const CheckRecord &check, qint64 checkId, Outcome &out);
    Result<void> recordServers(const CheckRecord &check, qint64 checkId, Outcome &out);
    Result<void> recordClientEvents(const QList<MqttClientEvent> &events);
    Result<void> addChange(qint64 checkId, qint64 at, const QString &account, const QString &kind, const QString &subject,
                           const QString &clientId, const QJsonObject &detail);

    HistoryDatabase &m_database;
    int m_retentionDays = 30;
    qint64 m_maxBytes = kDefaultMaxBytes;
};

} // namespace MqttDoctor
