#include "historyquery.h"

#include <algorithm>

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

#include "history/historydatabase.h"
#include "history/samplejson.h"

namespace MqttDoctor {

namespace {

qint64 ms(const QDateTime &t, qint64 fallback)
{
    return t.isValid() ? t.toMSecsSinceEpoch() : fallback;
}

QDateTime timeOf(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

QString iso(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QJsonValue isoOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(iso(t)) : QJsonValue(QJsonValue::Null);
}

Error readError(HistoryDatabase &db, const QSqlError &e)
{
    return Error(Error::Kind::Io, QStringLiteral("cannot read the history database %1: %2").arg(db.path(), e.text()));
}

int severityRank(const QString &s)
{
    static const QStringList order{QStringLiteral("critical"), QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("info")};
    const qsizetype i = order.indexOf(s);
    return i < 0 ? int(order.size()) : int(i);
}

QString joined(const QJsonArray &a)
{
    QStringList out;
    for (const QJsonValue &v : a)
        out << v.toString().replace(QLatin1Char(' '), QStringLiteral(" QoS "));
    return out.join(QStringLiteral(", "));
}

QString who(const QString &clientId)
{
    return clientId.isEmpty() ? QStringLiteral("an undecodable record") : QStringLiteral("client \"%1\"").arg(clientId);
}

/** One line for people about a recorded change. */
QString changeText(const QString &kind, const QString &subject, const QString &clientId, const QJsonObject &d)
{
    if (kind == QLatin1String("session_appeared"))
        return QStringLiteral("session record of %1 appeared (%2)")
            .arg(who(clientId),
                 d.value(QLatin1String("subscriptions")).toArray().isEmpty()
                     ? QStringLiteral("no subscriptions")
                     : QStringLiteral("subscriptions: ") + joined(d.value(QLatin1String("subscriptions")).toArray()));
    if (kind == QLatin1String("session_rewritten")) {
        const QJsonArray added = d.value(QLatin1String("subscriptions_added")).toArray();
        const QJsonArray removed = d.value(QLatin1String("subscriptions_removed")).toArray();
        QStringList parts;
        if (!added.isEmpty())
            parts << QStringLiteral("subscribed to ") + joined(added);
        if (!removed.isEmpty())
            parts << QStringLiteral("no longer to ") + joined(removed);
        return QStringLiteral("session record of %1 rewritten (%2)")
            .arg(who(clientId), parts.isEmpty() ? QStringLiteral("same subscriptions") : parts.join(QStringLiteral("; ")));
    }
    if (kind == QLatin1String("session_vanished"))
        return QStringLiteral("session record of %1 vanished").arg(who(clientId));
    if (kind == QLatin1String("stream_created"))
        return QStringLiteral("stream %1 created").arg(subject);
    if (kind == QLatin1String("stream_deleted"))
        return QStringLiteral("stream %1 deleted").arg(subject);
    if (kind == QLatin1String("stream_config_changed")) {
        const QJsonObject changed = d.value(QLatin1String("changed")).toObject();
        QStringList parts;
        for (auto it = changed.begin(); it != changed.end(); ++it) {
            const QJsonObject v = it.value().toObject();
            const auto text = [](const QJsonValue &x) {
                return x.isUndefined() || x.isNull()
                    ? QStringLiteral("(none)")
                    : QString::fromUtf8(QJsonDocument(QJsonArray{x}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
            };
            parts << QStringLiteral("%1 %2 → %3")
                         .arg(it.key(), text(v.value(QLatin1String("before"))), text(v.value(QLatin1String("after"))));
        }
        return QStringLiteral("stream %1 config changed: %2").arg(subject, parts.join(QStringLiteral(", ")));
    }
    if (kind == QLatin1String("server_joined"))
        return QStringLiteral("server %1 joined (%2)").arg(subject, d.value(QLatin1String("version")).toString());
    if (kind == QLatin1String("server_gone"))
        return QStringLiteral("server %1 not seen any more (it left the cluster, or did not answer)").arg(subject);
    if (kind == QLatin1String("server_version_changed"))
        return QStringLiteral("server %1 now runs %2 (was %3)")
            .arg(subject, d.value(QLatin1String("after")).toString(), d.value(QLatin1String("before")).toString());
    return kind + QLatin1Char(' ') + subject;
}

} // namespace

QJsonObject HistoryQuery::FindingSpan::toJson() const
{
    return {{QStringLiteral("code"), code},
            {QStringLiteral("severity"), severity},
            {QStringLiteral("account"), account},
            {QStringLiteral("stream"), stream},
            {QStringLiteral("subject"), subject},
            {QStringLiteral("client_id"), clientId},
            {QStringLiteral("title"), title},
            {QStringLiteral("first_seen"), iso(firstSeen)},
            {QStringLiteral("last_seen"), iso(lastSeen)},
            {QStringLiteral("closed_at"), isoOrNull(closedAt)},
            {QStringLiteral("open"), !closedAt.isValid()}};
}

QJsonObject HistoryQuery::Entry::toJson() const
{
    return {{QStringLiteral("at"), iso(at)},      {QStringLiteral("account"), account},    {QStringLiteral("kind"), kind},
            {QStringLiteral("subject"), subject}, {QStringLiteral("client_id"), clientId}, {QStringLiteral("text"), text},
            {QStringLiteral("detail"), detail}};
}

QJsonObject HistoryQuery::Checks::toJson() const
{
    return {{QStringLiteral("count"), count},
            {QStringLiteral("complete"), complete},
            {QStringLiteral("first"), isoOrNull(first)},
            {QStringLiteral("last"), isoOrNull(last)}};
}

HistoryQuery::HistoryQuery(HistoryDatabase &database) : m_database(database) {}

Result<HistoryQuery::Checks> HistoryQuery::checks(const Window &w)
{
    QSqlQuery q(m_database.db());
    const QString accountFilter = w.account.isEmpty() ? QString() : QStringLiteral(" AND (scope = '*' OR scope = :account)");
    q.prepare(
        QStringLiteral("SELECT COUNT(*), COALESCE(SUM(complete), 0), MIN(at), MAX(at) FROM checks WHERE at >= :since AND at <= :until")
        + accountFilter);
    q.bindValue(QStringLiteral(":since"), ms(w.since, 0));
    q.bindValue(QStringLiteral(":until"), ms(w.until, std::numeric_limits<qint64>::max()));
    if (!w.account.isEmpty())
        q.bindValue(QStringLiteral(":account"), w.account);
    if (!q.exec() || !q.next())
        return readError(m_database, q.lastError());
    Checks out;
    out.count = q.value(0).toInt();
    out.complete = q.value(1).toInt();
    out.first = timeOf(q.value(2));
    out.last = timeOf(q.value(3));
    return out;
}

Result<QList<HistoryQuery::FindingSpan>> HistoryQuery::findings(const Window &w)
{
    QSqlQuery q(m_database.db());
    q.setForwardOnly(true);
    q.prepare(
        QStringLiteral(
            "SELECT identity, code, severity, account, stream, subject, client_id, title, first_seen, last_seen, closed_at FROM findings "
            "WHERE first_seen <= :until AND (closed_at IS NULL OR closed_at >= :since)")
        + (w.account.isEmpty() ? QString() : QStringLiteral(" AND (account = :account OR account = '')")));
    q.bindValue(QStringLiteral(":since"), ms(w.since, 0));
    q.bindValue(QStringLiteral(":until"), ms(w.until, std::numeric_limits<qint64>::max()));
    if (!w.account.isEmpty())
        q.bindValue(QStringLiteral(":account"), w.account);
    if (!q.exec())
        return readError(m_database, q.lastError());
    QList<FindingSpan> out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString(),
                    q.value(5).toString(), q.value(6).toString(), q.value(7).toString(), timeOf(q.value(8)), timeOf(q.value(9)),
                    timeOf(q.value(10))});
    std::stable_sort(out.begin(), out.end(), [](const FindingSpan &a, const FindingSpan &b) {
        const int ra = severityRank(a.severity), rb = severityRank(b.severity);
        return ra != rb ? ra < rb : a.firstSeen < b.firstSeen;
    });
    return out;
}

namespace {

/** Every `step`-th of `list`, the last one always: a timeline thinned to what a chart can show. */
template<typename T>
QList<T> thinned(QList<T> list, int maxPoints)
{
    if (maxPoints <= 0 || list.size() <= maxPoints)
        return list;
    const double step = double(list.size()) / double(maxPoints);
    QList<T> out;
    out.reserve(maxPoints + 1);
    for (double i = 0; qsizetype(i) < list.size(); i += step)
        out.append(list.at(qsizetype(i)));
    if (out.last().at != list.last().at)
        out.append(list.last());
    return out;
}

} // namespace

Result<QList<HistoryQuery::CountsPoint>> HistoryQuery::counts(const Window &w, int maxPoints)
{
    QSqlQuery q(m_database.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT at, sessions, retained, queued_messages, queued_bytes, consumers, connected FROM account_counts "
                             "WHERE account = ? AND at >= ? AND at <= ? ORDER BY at"));
    q.addBindValue(w.account);
    q.addBindValue(ms(w.since, 0));
    q.addBindValue(ms(w.until, std::numeric_limits<qint64>::max()));
    if (!q.exec())
        return readError(m_database, q.lastError());
    const auto value = [&q](int i) { return q.value(i).isNull() ? qint64(-1) : q.value(i).toLongLong(); };
    QList<CountsPoint> out;
    while (q.next())
        out.append({timeOf(q.value(0)), value(1), value(2), value(3), value(4), value(5), value(6)});
    // Counts are written when they change: the value at the window's start is the last one before it, and
    // the last one holds until the window's last check.
    QSqlQuery before(m_database.db());
    before.prepare(QStringLiteral("SELECT at, sessions, retained, queued_messages, queued_bytes, consumers, connected FROM account_counts "
                                  "WHERE account = ? AND at < ? ORDER BY at DESC LIMIT 1"));
    before.addBindValue(w.account);
    before.addBindValue(ms(w.since, 0));
    if (w.since.isValid() && before.exec() && before.next()) {
        const auto v = [&before](int i) { return before.value(i).isNull() ? qint64(-1) : before.value(i).toLongLong(); };
        out.prepend({w.since, v(1), v(2), v(3), v(4), v(5), v(6)});
    }
    if (!out.isEmpty()) {
        QSqlQuery last(m_database.db());
        last.prepare(QStringLiteral("SELECT MAX(at) FROM checks WHERE at <= ? AND (scope = '*' OR scope = ?)"));
        last.addBindValue(ms(w.until, std::numeric_limits<qint64>::max()));
        last.addBindValue(w.account);
        if (last.exec() && last.next() && !last.value(0).isNull()) {
            const QDateTime end = timeOf(last.value(0));
            if (end > out.last().at) {
                CountsPoint held = out.last();
                held.at = end;
                out.append(held);
            }
        }
    }
    return thinned(std::move(out), maxPoints);
}

Result<QList<HistoryQuery::SeverityPoint>> HistoryQuery::severities(const Window &w, int maxPoints)
{
    // A point for every check that looked (at the account: a check of every account or of it), zeros where
    // nothing was open; a finding is open at a check between its first check and its last one.
    const qint64 since = ms(w.since, 0);
    const qint64 until = ms(w.until, std::numeric_limits<qint64>::max());
    QSqlQuery q(m_database.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, at FROM checks WHERE at >= ? AND at <= ?")
              + (w.account.isEmpty() ? QString() : QStringLiteral(" AND (scope = '*' OR scope = ?)")) + QStringLiteral(" ORDER BY at, id"));
    q.addBindValue(since);
    q.addBindValue(until);
    if (!w.account.isEmpty())
        q.addBindValue(w.account);
    if (!q.exec())
        return readError(m_database, q.lastError());
    QList<SeverityPoint> out;
    QHash<qint64, qsizetype> byCheck;
    while (q.next()) {
        byCheck.insert(q.value(0).toLongLong(), out.size());
        out.append({timeOf(q.value(1))});
    }
    q.prepare(
        QStringLiteral("SELECT c.id, f.severity, COUNT(*) FROM checks c JOIN findings f ON f.first_check <= c.id AND f.last_check >= c.id "
                       "WHERE c.at >= ? AND c.at <= ?")
        + (w.account.isEmpty() ? QString() : QStringLiteral(" AND (f.account = ? OR f.account = '')"))
        + QStringLiteral(" GROUP BY c.id, f.severity"));
    q.addBindValue(since);
    q.addBindValue(until);
    if (!w.account.isEmpty())
        q.addBindValue(w.account);
    if (!q.exec())
        return readError(m_database, q.lastError());
    while (q.next()) {
        const auto it = byCheck.constFind(q.value(0).toLongLong());
        if (it == byCheck.cend())
            continue; // a check of another account
        SeverityPoint &p = out[*it];
        const QString severity = q.value(1).toString();
        const int n = q.value(2).toInt();
        if (severity == QLatin1String("critical"))
            p.critical = n;
        else if (severity == QLatin1String("error"))
            p.error = n;
        else if (severity == QLatin1String("warning"))
            p.warning = n;
        else
            p.info = n;
    }
    return thinned(std::move(out), maxPoints);
}

Result<QHash<QString, AccountSample>> HistoryQuery::previousSamples(const QDateTime &now, qint64 maxAgeSeconds)
{
    QSqlQuery q(m_database.db());
    q.prepare(QStringLiteral("SELECT account, sample FROM account_samples WHERE at >= ? AND at <= ?"));
    q.addBindValue(now.addSecs(-maxAgeSeconds).toMSecsSinceEpoch());
    q.addBindValue(now.toMSecsSinceEpoch());
    if (!q.exec())
        return readError(m_database, q.lastError());
    QHash<QString, AccountSample> out;
    while (q.next()) {
        const QString account = q.value(0).toString();
        if (auto s = SampleJson::fromJson(account, QJsonDocument::fromJson(q.value(1).toString().toUtf8()).object()))
            out.insert(account, *s);
    }
    return out;
}

Result<QList<HistoryQuery::Entry>> HistoryQuery::changeRows(const QString &where, const QVariantList &values)
{
    QSqlQuery q(m_database.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT at, account, kind, subject, client_id, detail FROM changes WHERE ") + where
              + QStringLiteral(" ORDER BY at, id"));
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (!q.exec())
        return readError(m_database, q.lastError());
    QList<Entry> out;
    while (q.next()) {
        Entry e;
        e.at = timeOf(q.value(0));
        e.account = q.value(1).toString();
        e.kind = q.value(2).toString();
        e.subject = q.value(3).toString();
        e.clientId = q.value(4).toString();
        e.detail = QJsonDocument::fromJson(q.value(5).toString().toUtf8()).object();
        e.text = changeText(e.kind, e.subject, e.clientId, e.detail);
        out.append(std::move(e));
    }
    return out;
}

Result<QList<HistoryQuery::Entry>> HistoryQuery::findingEntries(const Window &w, const QString &clientId)
{
    auto spans = findings(w);
    if (!spans)
        return spans.error();
    const QDateTime since = w.since.isValid() ? w.since : QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    const QDateTime until = w.until.isValid() ? w.until : QDateTime::currentDateTimeUtc().addYears(100);
    QList<Entry> out;
    for (const FindingSpan &f : std::as_const(*spans)) {
        if (!clientId.isEmpty() && f.clientId != clientId)
            continue;
        const QJsonObject detail{{QStringLiteral("severity"), f.severity}, {QStringLiteral("title"), f.title}};
        if (f.firstSeen >= since && f.firstSeen <= until)
            out.append({f.firstSeen, f.account, QStringLiteral("finding_opened"), f.code, f.clientId,
                        QStringLiteral("%1 %2 found: %3").arg(f.severity, f.code, f.title), detail});
        if (f.closedAt.isValid() && f.closedAt >= since && f.closedAt <= until)
            out.append({f.closedAt, f.account, QStringLiteral("finding_closed"), f.code, f.clientId,
                        QStringLiteral("%1 no longer found: %2 (first seen %3)").arg(f.code, f.title, iso(f.firstSeen)), detail});
    }
    return out;
}

Result<QList<HistoryQuery::Entry>> HistoryQuery::changes(const Window &w)
{
    QString where = QStringLiteral("at >= ? AND at <= ?");
    QVariantList values{ms(w.since, 0), ms(w.until, std::numeric_limits<qint64>::max())};
    if (!w.account.isEmpty()) {
        where += QStringLiteral(" AND (account = ? OR account = '')");
        values << w.account;
    }
    auto rows = changeRows(where, values);
    if (!rows)
        return rows.error();
    auto found = findingEntries(w, {});
    if (!found)
        return found.error();
    QList<Entry> out = *rows + *found;
    std::stable_sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) { return a.at < b.at; });
    return out;
}

Result<QList<HistoryQuery::Entry>> HistoryQuery::client(const QString &clientId, const Window &w)
{
    QString where = QStringLiteral("client_id = ? AND at >= ? AND at <= ?");
    QVariantList values{clientId, ms(w.since, 0), ms(w.until, std::numeric_limits<qint64>::max())};
    if (!w.account.isEmpty()) {
        where += QStringLiteral(" AND account = ?");
        values << w.account;
    }
    auto rows = changeRows(where, values);
    if (!rows)
        return rows.error();
    QList<Entry> out = *rows;
    QSqlQuery q(m_database.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT at, account, kind, server, address, reason, cid FROM client_events WHERE ") + where
              + QStringLiteral(" ORDER BY at"));
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (!q.exec())
        return readError(m_database, q.lastError());
    while (q.next()) {
        Entry e;
        e.at = timeOf(q.value(0));
        e.account = q.value(1).toString();
        e.kind = q.value(2).toString();
        e.subject = q.value(3).toString();
        e.clientId = clientId;
        const QString address = q.value(4).toString();
        const QString reason = q.value(5).toString();
        e.detail = {{QStringLiteral("server"), e.subject},
                    {QStringLiteral("address"), address},
                    {QStringLiteral("reason"), reason},
                    {QStringLiteral("cid"), q.value(6).toLongLong()}};
        if (e.kind == QLatin1String("takeover"))
            e.text = QStringLiteral("taken over on %1: its connection from %2 was replaced by another with the same client ID")
                         .arg(e.subject, address);
        else if (e.kind == QLatin1String("connect"))
            e.text = QStringLiteral("connected to %1 from %2").arg(e.subject, address);
        else
            e.text = QStringLiteral("disconnected from %1 (from %2): %3").arg(e.subject, address, reason);
        out.append(std::move(e));
    }
    auto found = findingEntries(w, clientId);
    if (!found)
        return found.error();
    out += *found;
    std::stable_sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) { return a.at < b.at; });
    return out;
}

} // namespace MqttDoctor
