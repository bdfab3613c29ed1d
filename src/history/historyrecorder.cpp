#include "historyrecorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include "history/historydatabase.h"
#include "history/samplejson.h"

namespace MqttDoctor {

namespace {

constexpr qint64 kPruneEveryMs = 3600 * 1000;

Error writeError(const HistoryDatabase &db, const QString &what, const QSqlError &e)
{
    return Error(Error::Kind::Io, QStringLiteral("cannot write the history database %1 (%2): %3").arg(db.path(), what, e.text()),
                 QStringLiteral("check the free space and permissions of its folder, or give another history folder"));
}

QVariant optionalValue(const std::optional<qint64> &v)
{
    return v ? QVariant(*v) : QVariant(QMetaType::fromType<qint64>());
}

/** SQLite stores a null QString as NULL: the text columns are NOT NULL, and empty is "". */
QString text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QString jsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QStringList lines(const QString &text)
{
    return text.isEmpty() ? QStringList() : text.split(QLatin1Char('\n'));
}

/** The keys whose values differ between two stream configs, each with its value before and after. */
QJsonObject configDifference(const QString &beforeText, const QString &afterText)
{
    const QJsonObject before = QJsonDocument::fromJson(beforeText.toUtf8()).object();
    const QJsonObject after = QJsonDocument::fromJson(afterText.toUtf8()).object();
    QJsonObject changed;
    QSet<QString> keys;
    for (auto it = before.begin(); it != before.end(); ++it)
        keys.insert(it.key());
    for (auto it = after.begin(); it != after.end(); ++it)
        keys.insert(it.key());
    QStringList sorted(keys.cbegin(), keys.cend());
    sorted.sort();
    for (const QString &k : std::as_const(sorted))
        if (before.value(k) != after.value(k))
            changed.insert(k, QJsonObject{{QStringLiteral("before"), before.value(k)}, {QStringLiteral("after"), after.value(k)}});
    return changed;
}

} // namespace

HistoryRecorder::HistoryRecorder(HistoryDatabase &database) : m_database(database) {}

Result<HistoryRecorder::Outcome> HistoryRecorder::record(const CheckRecord &check)
{
    QSqlDatabase &db = m_database.db();
    Outcome out;
    const qint64 at = check.at.toMSecsSinceEpoch();
    auto written = m_database.writeTransaction(QStringLiteral("the check"), [&]() -> Result<void> {
        QSqlQuery q(db);
        q.prepare(QStringLiteral(
            "INSERT INTO checks(at, source, scope, complete, exit_code, accounts, findings, gaps) VALUES(?, ?, ?, ?, ?, ?, ?, ?)"));
        q.addBindValue(at);
        q.addBindValue(text(check.source));
        q.addBindValue(text(check.scope));
        q.addBindValue(check.complete ? 1 : 0);
        q.addBindValue(check.exitCode);
        q.addBindValue(int(check.coverage.size()));
        q.addBindValue(int(check.findings.size()));
        q.addBindValue(text(check.gaps.join(QLatin1Char('\n'))));
        if (!q.exec())
            return writeError(m_database, QStringLiteral("the check"), q.lastError());
        out.checkId = q.lastInsertId().toLongLong();
        q.prepare(QStringLiteral("SELECT 1 FROM checks WHERE id < ? LIMIT 1"));
        q.addBindValue(out.checkId);
        out.first = q.exec() && !q.next();

        if (!check.cluster.isEmpty() && m_database.meta(QStringLiteral("cluster")).isEmpty())
            if (auto set = m_database.setMeta(QStringLiteral("cluster"), check.cluster); !set)
                return set.error();
        for (const QString &url : check.urls) {
            q.prepare(QStringLiteral(
                "INSERT INTO urls(url, last_used) VALUES(?, ?) ON CONFLICT(url) DO UPDATE SET last_used = excluded.last_used"));
            q.addBindValue(url);
            q.addBindValue(at);
            if (!q.exec())
                return writeError(m_database, QStringLiteral("the URLs"), q.lastError());
        }
        q.prepare(QStringLiteral("INSERT INTO coverage(check_id, account, streams, records, connections) VALUES(?, ?, ?, ?, ?)"));
        for (const AccountCoverage &c : check.coverage) {
            if (c.complete())
                continue;
            q.addBindValue(out.checkId);
            q.addBindValue(text(c.account));
            q.addBindValue(text(c.streams));
            q.addBindValue(text(c.records));
            q.addBindValue(text(c.connections));
            if (!q.exec())
                return writeError(m_database, QStringLiteral("the coverage"), q.lastError());
        }
        // Counts only where one changed since the account's last (count_state).
        QHash<QString, QVariantList> lastCounts;
        if (!q.exec(
                QStringLiteral("SELECT account, sessions, retained, queued_messages, queued_bytes, consumers, connected FROM count_state")))
            return writeError(m_database, QStringLiteral("reading the last counts"), q.lastError());
        while (q.next())
            lastCounts.insert(q.value(0).toString(), {q.value(1), q.value(2), q.value(3), q.value(4), q.value(5), q.value(6)});
        QSqlQuery state(db);
        state.prepare(QStringLiteral(
            "INSERT INTO count_state(account, at, sessions, retained, queued_messages, queued_bytes, consumers, connected) "
            "VALUES(?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(account) DO UPDATE SET at = excluded.at, sessions = excluded.sessions, "
            "retained = excluded.retained, queued_messages = excluded.queued_messages, queued_bytes = excluded.queued_bytes, "
            "consumers = excluded.consumers, connected = excluded.connected"));
        q.prepare(QStringLiteral("INSERT INTO account_counts(check_id, at, account, sessions, retained, queued_messages, queued_bytes, "
                                 "consumers, connected) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (const CheckRecord::Counts &c : check.counts) {
            const QVariantList values{optionalValue(c.sessions),    optionalValue(c.retained),  optionalValue(c.queuedMessages),
                                      optionalValue(c.queuedBytes), optionalValue(c.consumers), optionalValue(c.connected)};
            if (const auto it = lastCounts.constFind(c.account); it != lastCounts.cend()) {
                bool same = true;
                for (int i = 0; i < values.size() && same; ++i)
                    same = it->at(i).isNull() == values.at(i).isNull()
                        && (values.at(i).isNull() || it->at(i).toLongLong() == values.at(i).toLongLong());
                if (same)
                    continue;
            }
            state.addBindValue(text(c.account));
            state.addBindValue(at);
            for (const QVariant &v : values)
                state.addBindValue(v);
            if (!state.exec())
                return writeError(m_database, QStringLiteral("the account counts"), state.lastError());
            q.addBindValue(out.checkId);
            q.addBindValue(at);
            q.addBindValue(text(c.account));
            q.addBindValue(optionalValue(c.sessions));
            q.addBindValue(optionalValue(c.retained));
            q.addBindValue(optionalValue(c.queuedMessages));
            q.addBindValue(optionalValue(c.queuedBytes));
            q.addBindValue(optionalValue(c.consumers));
            q.addBindValue(optionalValue(c.connected));
            if (!q.exec())
                return writeError(m_database, QStringLiteral("the account counts"), q.lastError());
        }
        q.prepare(QStringLiteral("INSERT INTO account_samples(account, at, sample) VALUES(?, ?, ?) ON CONFLICT(account) DO UPDATE SET "
                                 "at = excluded.at, sample = excluded.sample"));
        for (auto it = check.samples.cbegin(); it != check.samples.cend(); ++it) {
            q.addBindValue(text(it.key()));
            q.addBindValue(at);
            q.addBindValue(jsonText(SampleJson::toJson(it.value())));
            if (!q.exec())
                return writeError(m_database, QStringLiteral("the account samples"), q.lastError());
        }
        if (auto r = recordFindings(check, out.checkId, out); !r)
            return r.error();
        if (auto r = recordSessions(check, out.checkId, out); !r)
            return r.error();
        if (auto r = recordStreams(check, out.checkId, out); !r)
            return r.error();
        if (auto r = recordServers(check, out.checkId, out); !r)
            return r.error();
        if (auto r = recordClientEvents(check.clientEvents); !r)
            return r.error();
        return {};
    });
    if (!written)
        return written.error();

    const qint64 lastPrune = m_database.meta(QStringLiteral("pruned_at")).toLongLong();
    if (at - lastPrune > kPruneEveryMs || m_database.usedBytes() > m_maxBytes)
        if (auto pruned = prune(check.at); !pruned)
            return pruned.error();
    return out;
}

Result<void> HistoryRecorder::recordFindings(const CheckRecord &check, qint64 checkId, Outcome &out)
{
    QSqlDatabase &db = m_database.db();
    const qint64 at = check.at.toMSecsSinceEpoch();
    struct Open
    {
        qint64 id;
        QString account;
        qint64 firstSeen;
    };
    QHash<QString, Open> open;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id, identity, account, first_seen FROM findings WHERE closed_at IS NULL")))
        return writeError(m_database, QStringLiteral("reading the open findings"), q.lastError());
    while (q.next())
        open.insert(q.value(1).toString(), {q.value(0).toLongLong(), q.value(2).toString(), q.value(3).toLongLong()});

    QSqlQuery seen(db);
    seen.prepare(QStringLiteral("UPDATE findings SET last_seen = ?, last_check = ?, severity = ? WHERE id = ?"));
    QSqlQuery opened(db);
    opened.prepare(QStringLiteral("INSERT INTO findings(identity, code, severity, account, stream, subject, client_id, title, "
                                  "first_seen, last_seen, first_check, last_check) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    QSet<QString> found;
    for (const CheckRecord::FindingRow &f : check.findings) {
        if (found.contains(f.identity))
            continue;
        found.insert(f.identity);
        if (const auto it = open.constFind(f.identity); it != open.cend()) {
            seen.addBindValue(at);
            seen.addBindValue(checkId);
            seen.addBindValue(text(f.severity));
            seen.addBindValue(it->id);
            if (!seen.exec())
                return writeError(m_database, QStringLiteral("a finding"), seen.lastError());
            ++out.stillOpen;
            out.firstSeen.insert(f.identity, QDateTime::fromMSecsSinceEpoch(it->firstSeen, Qt::UTC));
            continue;
        }
        for (const QVariant &v : {QVariant(text(f.identity)), QVariant(text(f.code)), QVariant(text(f.severity)), QVariant(text(f.account)),
                                  QVariant(text(f.stream)), QVariant(text(f.subject)), QVariant(text(f.clientId)), QVariant(text(f.title)),
                                  QVariant(at), QVariant(at), QVariant(checkId), QVariant(checkId)})
            opened.addBindValue(v);
        if (!opened.exec())
            return writeError(m_database, QStringLiteral("a finding"), opened.lastError());
        ++out.opened;
        out.firstSeen.insert(f.identity, check.at);
    }

    // Closed: only where this check looked at everything the finding is about.
    QSet<QString> covered;
    for (const AccountCoverage &c : check.coverage)
        if (c.complete())
            covered.insert(c.account);
    QSqlQuery close(db);
    close.prepare(QStringLiteral("UPDATE findings SET closed_at = ?, closed_check = ? WHERE id = ?"));
    for (auto it = open.cbegin(); it != open.cend(); ++it) {
        if (found.contains(it.key()))
            continue;
        const bool looked = it->account.isEmpty() ? check.complete : covered.contains(it->account);
        if (!looked)
            continue;
        close.addBindValue(at);
        close.addBindValue(checkId);
        close.addBindValue(it->id);
        if (!close.exec())
            return writeError(m_database, QStringLiteral("closing a finding"), close.lastError());
        ++out.closed;
    }
    return {};
}

Result<void> HistoryRecorder::addChange(qint64 checkId, qint64 at, const QString &account, const QString &kind, const QString &subject,
                                        const QString &clientId, const QJsonObject &detail)
{
    QSqlQuery q(m_database.db());
    q.prepare(QStringLiteral("INSERT INTO changes(check_id, at, account, kind, subject, client_id, detail) VALUES(?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(checkId);
    q.addBindValue(at);
    q.addBindValue(text(account));
    q.addBindValue(text(kind));
    q.addBindValue(text(subject));
    q.addBindValue(text(clientId));
    q.addBindValue(jsonText(detail));
    if (!q.exec())
        return writeError(m_database, QStringLiteral("a change"), q.lastError());
    return {};
}

Result<void> HistoryRecorder::recordSessions(const CheckRecord &check, qint64 checkId, Outcome &out)
{
    QSqlDatabase &db = m_database.db();
    const qint64 at = check.at.toMSecsSinceEpoch();
    for (auto acc = check.sessions.cbegin(); acc != check.sessions.cend(); ++acc) {
        const QString &account = acc.key();
        const QString baselineKey = QStringLiteral("sessions_baseline:") + account;
        const bool baseline = m_database.meta(baselineKey).isEmpty();
        struct Known
        {
            QString clientId;
            qint64 seq;
            QString subscriptions;
        };
        QHash<QString, Known> known;
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT subject, client_id, seq, subscriptions FROM session_state WHERE account = ?"));
        q.addBindValue(account);
        if (!q.exec())
            return writeError(m_database, QStringLiteral("reading the session state"), q.lastError());
        while (q.next())
            known.insert(q.value(0).toString(), {q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toString()});

        QSqlQuery upsert(db);
        upsert.prepare(QStringLiteral("INSERT INTO session_state(account, subject, client_id, seq, subscriptions) VALUES(?, ?, ?, ?, ?) "
                                      "ON CONFLICT(account, subject) DO UPDATE SET client_id = excluded.client_id, seq = excluded.seq, "
                                      "subscriptions = excluded.subscriptions"));
        for (const CheckRecord::SessionRow &s : acc.value()) {
            const auto it = known.constFind(s.subject);
            if (it != known.cend() && it->seq == s.seq) {
                known.remove(s.subject);
                continue;
            }
            if (!baseline) {
                if (it == known.cend()) {
                    if (auto r = addChange(checkId, at, account, QStringLiteral("session_appeared"), s.subject, s.clientId,
                                           {{QStringLiteral("seq"), s.seq},
                                            {QStringLiteral("subscriptions"), QJsonArray::fromStringList(lines(s.subscriptions))}});
                        !r)
                        return r.error();
                } else {
                    const QStringList before = lines(it->subscriptions);
                    const QStringList after = lines(s.subscriptions);
                    QStringList added, removed;
                    for (const QString &l : after)
                        if (!before.contains(l))
                            added << l;
                    for (const QString &l : before)
                        if (!after.contains(l))
                            removed << l;
                    if (auto r = addChange(checkId, at, account, QStringLiteral("session_rewritten"), s.subject, s.clientId,
                                           {{QStringLiteral("seq_before"), it->seq},
                                            {QStringLiteral("seq"), s.seq},
                                            {QStringLiteral("subscriptions_added"), QJsonArray::fromStringList(added)},
                                            {QStringLiteral("subscriptions_removed"), QJsonArray::fromStringList(removed)}});
                        !r)
                        return r.error();
                }
                ++out.changes;
            }
            known.remove(s.subject);
            upsert.addBindValue(text(account));
            upsert.addBindValue(text(s.subject));
            upsert.addBindValue(text(s.clientId));
            upsert.addBindValue(s.seq);
            upsert.addBindValue(text(s.subscriptions));
            if (!upsert.exec())
                return writeError(m_database, QStringLiteral("the session state"), upsert.lastError());
        }
        QSqlQuery gone(db);
        gone.prepare(QStringLiteral("DELETE FROM session_state WHERE account = ? AND subject = ?"));
        for (auto it = known.cbegin(); it != known.cend(); ++it) {
            if (!baseline) {
                if (auto r = addChange(checkId, at, account, QStringLiteral("session_vanished"), it.key(), it->clientId,
                                       {{QStringLiteral("seq"), it->seq},
                                        {QStringLiteral("subscriptions"), QJsonArray::fromStringList(lines(it->subscriptions))}});
                    !r)
                    return r.error();
                ++out.changes;
            }
            gone.addBindValue(account);
            gone.addBindValue(it.key());
            if (!gone.exec())
                return writeError(m_database, QStringLiteral("the session state"), gone.lastError());
        }
        if (baseline)
            if (auto r = m_database.setMeta(baselineKey, QString::number(at)); !r)
                return r.error();
    }
    return {};
}

Result<void> HistoryRecorder::recordStreams(const CheckRecord &check, qint64 checkId, Outcome &out)
{
    QSqlDatabase &db = m_database.db();
    const qint64 at = check.at.toMSecsSinceEpoch();
    for (auto acc = check.streamConfigs.cbegin(); acc != check.streamConfigs.cend(); ++acc) {
        const QString &account = acc.key();
        const QString baselineKey = QStringLiteral("streams_baseline:") + account;
        const bool baseline = m_database.meta(baselineKey).isEmpty();
        QHash<QString, QString> known;
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT stream, config FROM stream_state WHERE account = ?"));
        q.addBindValue(account);
        if (!q.exec())
            return writeError(m_database, QStringLiteral("reading the stream state"), q.lastError());
        while (q.next())
            known.insert(q.value(0).toString(), q.value(1).toString());
        QSqlQuery upsert(db);
        upsert.prepare(QStringLiteral("INSERT INTO stream_state(account, stream, config) VALUES(?, ?, ?) "
                                      "ON CONFLICT(account, stream) DO UPDATE SET config = excluded.config"));
        for (auto s = acc.value().cbegin(); s != acc.value().cend(); ++s) {
            const auto before = known.constFind(s.key());
            if (before != known.cend() && *before == s.value()) {
                known.remove(s.key());
                continue;
            }
            if (!baseline) {
                const bool created = before == known.cend();
                if (auto r =
                        addChange(checkId, at, account,
                                  created ? QStringLiteral("stream_created") : QStringLiteral("stream_config_changed"), s.key(), {},
                                  created ? QJsonObject{{QStringLiteral("config"), QJsonDocument::fromJson(s.value().toUtf8()).object()}}
                                          : QJsonObject{{QStringLiteral("changed"), configDifference(*before, s.value())}});
                    !r)
                    return r.error();
                ++out.changes;
            }
            known.remove(s.key());
            upsert.addBindValue(text(account));
            upsert.addBindValue(text(s.key()));
            upsert.addBindValue(text(s.value()));
            if (!upsert.exec())
                return writeError(m_database, QStringLiteral("the stream state"), upsert.lastError());
        }
        QSqlQuery gone(db);
        gone.prepare(QStringLiteral("DELETE FROM stream_state WHERE account = ? AND stream = ?"));
        for (auto it = known.cbegin(); it != known.cend(); ++it) {
            if (!baseline) {
                if (auto r = addChange(checkId, at, account, QStringLiteral("stream_deleted"), it.key(), {}, {}); !r)
                    return r.error();
                ++out.changes;
            }
            gone.addBindValue(account);
            gone.addBindValue(it.key());
            if (!gone.exec())
                return writeError(m_database, QStringLiteral("the stream state"), gone.lastError());
        }
        if (baseline)
            if (auto r = m_database.setMeta(baselineKey, QString::number(at)); !r)
                return r.error();
    }
    return {};
}

Result<void> HistoryRecorder::recordServers(const CheckRecord &check, qint64 checkId, Outcome &out)
{
    if (check.servers.isEmpty())
        return {};
    QSqlDatabase &db = m_database.db();
    const qint64 at = check.at.toMSecsSinceEpoch();
    const QString baselineKey = QStringLiteral("servers_baseline");
    const bool baseline = m_database.meta(baselineKey).isEmpty();
    struct Known
    {
        QString name;
        QString version;
    };
    QHash<QString, Known> known;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT server_id, name, version FROM server_state")))
        return writeError(m_database, QStringLiteral("reading the server state"), q.lastError());
    while (q.next())
        known.insert(q.value(0).toString(), {q.value(1).toString(), q.value(2).toString()});
    // A server restarts with a new ID: joined and gone are told by name when the server has one.
    QHash<QString, QString> idByName;
    for (auto it = known.cbegin(); it != known.cend(); ++it)
        idByName.insert(it->name, it.key());
    QSqlQuery upsert(db);
    upsert.prepare(QStringLiteral("INSERT INTO server_state(server_id, name, version) VALUES(?, ?, ?) "
                                  "ON CONFLICT(server_id) DO UPDATE SET name = excluded.name, version = excluded.version"));
    QSqlQuery remove(db);
    remove.prepare(QStringLiteral("DELETE FROM server_state WHERE server_id = ?"));
    for (const CheckRecord::ServerRow &s : check.servers) {
        QString knownId = known.contains(s.id) ? s.id : idByName.value(s.name);
        if (!knownId.isEmpty() && known.contains(knownId)) {
            const Known before = known.take(knownId);
            if (before.version != s.version && !baseline) {
                if (auto r = addChange(checkId, at, {}, QStringLiteral("server_version_changed"), s.name, {},
                                       {{QStringLiteral("before"), before.version}, {QStringLiteral("after"), s.version}});
                    !r)
                    return r.error();
                ++out.changes;
            }
            if (knownId != s.id) {
                remove.addBindValue(knownId);
                if (!remove.exec())
                    return writeError(m_database, QStringLiteral("the server state"), remove.lastError());
            }
        } else if (!baseline) {
            if (auto r = addChange(checkId, at, {}, QStringLiteral("server_joined"), s.name, {},
                                   {{QStringLiteral("id"), s.id}, {QStringLiteral("version"), s.version}});
                !r)
                return r.error();
            ++out.changes;
        }
        upsert.addBindValue(text(s.id));
        upsert.addBindValue(text(s.name));
        upsert.addBindValue(text(s.version));
        if (!upsert.exec())
            return writeError(m_database, QStringLiteral("the server state"), upsert.lastError());
    }
    for (auto it = known.cbegin(); it != known.cend(); ++it) {
        if (auto r =
                addChange(checkId, at, {}, QStringLiteral("server_gone"), it->name, {},
                          {{QStringLiteral("id"), it.key()},
                           {QStringLiteral("version"), it->version},
                           {QStringLiteral("note"), QStringLiteral("not seen by this check: it left the cluster, or did not answer")}});
            !r)
            return r.error();
        ++out.changes;
        remove.addBindValue(it.key());
        if (!remove.exec())
            return writeError(m_database, QStringLiteral("the server state"), remove.lastError());
    }
    if (baseline)
        if (auto r = m_database.setMeta(baselineKey, QString::number(at)); !r)
            return r.error();
    return {};
}

Result<void> HistoryRecorder::recordEvents(const QList<MqttClientEvent> &events)
{
    return m_database.writeTransaction(QStringLiteral("client events"), [&] { return recordClientEvents(events); });
}

Result<void> HistoryRecorder::recordClientEvents(const QList<MqttClientEvent> &events)
{
    QSqlQuery q(m_database.db());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO client_events(server, cid, kind, at, account, client_id, address, reason) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const MqttClientEvent &e : events) {
        q.addBindValue(text(e.server));
        q.addBindValue(qint64(e.connectionId));
        q.addBindValue(e.isTakeover()
                           ? QStringLiteral("takeover")
                           : (e.kind == MqttClientEvent::Kind::Connect ? QStringLiteral("connect") : QStringLiteral("disconnect")));
        q.addBindValue(e.time.toMSecsSinceEpoch());
        q.addBindValue(text(e.account));
        q.addBindValue(text(e.clientId));
        q.addBindValue(text(e.address));
        q.addBindValue(text(e.reason));
        if (!q.exec())
            return writeError(m_database, QStringLiteral("a client event"), q.lastError());
    }
    return {};
}

Result<int> HistoryRecorder::prune(const QDateTime &now)
{
    QSqlDatabase &db = m_database.db();
    QSqlQuery q(db);
    // Returns how many checks went.
    const auto removeBefore = [&](qint64 cutoff) -> Result<int> {
        int removed = 0;
        const QStringList statements{
            QStringLiteral("DELETE FROM checks WHERE at < :cutoff AND id < (SELECT MAX(id) FROM checks)"),
            QStringLiteral("DELETE FROM changes WHERE at < :cutoff"),
            QStringLiteral("DELETE FROM client_events WHERE at < :cutoff"),
            QStringLiteral("DELETE FROM findings WHERE closed_at IS NOT NULL AND closed_at < :cutoff"),
        };
        auto done = m_database.writeTransaction(QStringLiteral("removing old history"), [&]() -> Result<void> {
            for (const QString &statement : statements) {
                q.prepare(statement);
                q.bindValue(QStringLiteral(":cutoff"), cutoff);
                if (!q.exec())
                    return writeError(m_database, QStringLiteral("removing old history"), q.lastError());
                if (statement.contains(QLatin1String("FROM checks")))
                    removed = q.numRowsAffected();
            }
            return {};
        });
        if (!done)
            return done.error();
        return removed;
    };
    auto removed = removeBefore(now.addDays(-m_retentionDays).toMSecsSinceEpoch());
    if (!removed)
        return removed;
    int total = *removed;
    // Over the size limit: the oldest tenth of the time the history spans, again until it fits.
    for (int round = 0; round < 40 && m_database.usedBytes() > m_maxBytes; ++round) {
        qint64 oldest = 0, newest = 0;
        if (q.exec(QStringLiteral("SELECT MIN(at), MAX(at) FROM (SELECT at FROM checks UNION ALL SELECT at FROM changes UNION ALL "
                                  "SELECT at FROM client_events)"))
            && q.next()) {
            oldest = q.value(0).toLongLong();
            newest = q.value(1).toLongLong();
        }
        if (newest <= oldest)
            break;
        auto more = removeBefore(oldest + std::max<qint64>(1, (newest - oldest) / 10));
        if (!more)
            return more;
        total += *more;
        q.exec(QStringLiteral("PRAGMA incremental_vacuum"));
    }
    q.exec(QStringLiteral("PRAGMA incremental_vacuum"));
    if (auto r = m_database.setMeta(QStringLiteral("pruned_at"), QString::number(now.toMSecsSinceEpoch())); !r)
        return r.error();
    return total;
}

} // namespace MqttDoctor
