// The history database at fleet scale (issue: remember what you saw): a generated history of N accounts (10,000 by
// default) checked every minute for D days (30 by default), as the recorder leaves it: a check row a minute, the
// counts of the accounts whose counts changed (--churn of them per check, 1 %), findings opened and closed, session
// record changes. On it, side by side:
//   write      HistoryRecorder::record of one more check of every account (counts, 2,000 open findings, 10 new ones)
//              beside the raw write of the same check (the same rows inserted as they come into bare tables, one
//              transaction): what remembering costs over storing
//   timeline   HistoryQuery::counts of one account over the whole history (what the History tab's chart reads)
//              beside a raw indexed SELECT of the same rows
//   changes    the whole process `nats-mqtt-doctor-cli changes --account A --since Dd --json` (what an operator
//              runs), beside the same raw SELECT
// Prints medians of --runs runs and the ratios, the database's size against its 1 GiB limit. Asserts nothing.
//
//   bench_history [--accounts N (10000)] [--days D (30)] [--churn F (0.01)] [--runs N (9)]
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>

#include "history/checkrecord.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyquery.h"
#include "history/historyrecorder.h"
#include "processrounds.h"
#include "timedprocess.h"

using namespace MqttDoctor;
using namespace MqttDoctor::BenchData;

namespace {

struct Options
{
    int accounts = 10000;
    int days = 30;
    double churn = 0.01;
    int runs = 9;
};

QString accountName(int i)
{
    return QStringLiteral("acct-%1").arg(i, 5, 10, QLatin1Char('0'));
}

bool exec(QSqlQuery &q)
{
    if (q.exec())
        return true;
    std::fprintf(stderr, "SQL failed: %s\n", qPrintable(q.lastError().text()));
    return false;
}

/** Writes the generated history straight into the tables (what the recorder would have left), in one transaction. */
bool generate(HistoryDatabase &db, const Options &o, const QDateTime &start, qint64 *checks, qint64 *countRows)
{
    QSqlQuery q(db.db());
    q.exec(QStringLiteral("BEGIN IMMEDIATE"));
    QSqlQuery check(db.db()), counts(db.db()), change(db.db()), finding(db.db()), state(db.db());
    check.prepare(QStringLiteral("INSERT INTO checks(at, source, scope, complete, exit_code, accounts, findings, gaps) "
                                 "VALUES(?, 'recorder', '*', 1, 1, ?, 2000, '')"));
    counts.prepare(QStringLiteral("INSERT INTO account_counts(check_id, at, account, sessions, retained, queued_messages, queued_bytes, "
                                  "consumers, connected) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    change.prepare(
        QStringLiteral("INSERT INTO changes(check_id, at, account, kind, subject, client_id, detail) VALUES(?, ?, ?, ?, ?, ?, ?)"));
    finding.prepare(QStringLiteral("INSERT INTO findings(identity, code, severity, account, stream, subject, client_id, title, first_seen, "
                                   "last_seen, first_check, last_check, closed_at, closed_check) VALUES(?, 'SESSION_STALE', 'warning', ?, "
                                   "'', '', ?, ?, ?, ?, ?, ?, ?, ?)"));
    QRandomGenerator rng(42);
    const int minutes = o.days * 24 * 60;
    const int perCheck = std::max(1, int(o.accounts * o.churn));
    for (int m = 0; m < minutes; ++m) {
        const qint64 at = start.addSecs(60LL * m).toMSecsSinceEpoch();
        check.addBindValue(at);
        check.addBindValue(o.accounts);
        if (!exec(check))
            return false;
        const qint64 id = check.lastInsertId().toLongLong();
        ++*checks;
        const int first = int(rng.bounded(o.accounts));
        for (int k = 0; k < perCheck; ++k) {
            const int a = (first + k) % o.accounts; // distinct accounts within a check
            for (const QVariant &v :
                 {QVariant(id), QVariant(at), QVariant(accountName(a)), QVariant(qint64(rng.bounded(2000))),
                  QVariant(qint64(rng.bounded(50))), QVariant(qint64(rng.bounded(100000))), QVariant(qint64(rng.bounded(100000000))),
                  QVariant(qint64(rng.bounded(4000))), QVariant(qint64(rng.bounded(2000)))})
                counts.addBindValue(v);
            if (!exec(counts))
                return false;
            ++*countRows;
        }
        // A session record rewritten somewhere every minute; a finding opened and one closed every 10 minutes.
        const int a = int(rng.bounded(o.accounts));
        for (const QVariant &v : {QVariant(id), QVariant(at), QVariant(accountName(a)), QVariant(QStringLiteral("session_rewritten")),
                                  QVariant(QStringLiteral("$MQTT.sess.abcdefgh")), QVariant(QStringLiteral("device-%1").arg(m)),
                                  QVariant(QStringLiteral("{\"seq\":1,\"subscriptions_added\":[\"a/b 1\"],\"subscriptions_removed\":[]}"))})
            change.addBindValue(v);
        if (!exec(change))
            return false;
        if (m % 10 == 0) {
            const QString client = QStringLiteral("gone-%1").arg(m);
            const QString identity = QStringLiteral("SESSION_STALE|%1|%2").arg(accountName(a), client);
            const qint64 closed = at + 3600 * 1000;
            for (const QVariant &v : {QVariant(identity), QVariant(accountName(a)), QVariant(client), QVariant(identity), QVariant(at),
                                      QVariant(closed), QVariant(id), QVariant(id + 60), QVariant(closed), QVariant(id + 61)})
                finding.addBindValue(v);
            if (!exec(finding))
                return false;
        }
    }
    // The state the next check compares with: every account's last counts, 2,000 findings open since the start.
    state.prepare(
        QStringLiteral("INSERT INTO count_state(account, at, sessions, retained, queued_messages, queued_bytes, consumers, connected) "
                       "VALUES(?, ?, 100, 5, 1000, 100000, 200, 100)"));
    for (int a = 0; a < o.accounts; ++a) {
        state.addBindValue(accountName(a));
        state.addBindValue(start.toMSecsSinceEpoch());
        if (!exec(state))
            return false;
    }
    for (int i = 0; i < 2000; ++i) {
        const QString client = QStringLiteral("stale-%1").arg(i);
        const QString account = accountName(i % o.accounts);
        const QString identity = QStringLiteral("SESSION_STALE|%1|%2").arg(account, client);
        for (const QVariant &v :
             {QVariant(identity), QVariant(account), QVariant(client), QVariant(identity), QVariant(start.toMSecsSinceEpoch()),
              QVariant(start.addSecs(60LL * (minutes - 1)).toMSecsSinceEpoch()), QVariant(qint64(1)), QVariant(*checks),
              QVariant(QMetaType::fromType<qint64>()), QVariant(QMetaType::fromType<qint64>())})
            finding.addBindValue(v);
        if (!exec(finding))
            return false;
    }
    return q.exec(QStringLiteral("COMMIT"));
}

/** One check of every account: `churn` of them with new counts, the 2,000 open findings and 10 new ones. */
CheckRecord nextCheck(const Options &o, const QDateTime &at, int round)
{
    CheckRecord r;
    r.at = at;
    r.source = QStringLiteral("recorder");
    r.cluster = QStringLiteral("bench");
    r.complete = true;
    r.coverage.reserve(o.accounts);
    r.counts.reserve(o.accounts);
    const int changed = std::max(1, int(o.accounts * o.churn));
    for (int a = 0; a < o.accounts; ++a) {
        r.coverage.append({accountName(a), QStringLiteral("checked"), QStringLiteral("checked"), QStringLiteral("checked")});
        const bool moves = (a + round * changed) % o.accounts < changed;
        r.counts.append({accountName(a), moves ? 100 + round : 100, 5, 1000, 100000, 200, 100});
    }
    for (int i = 0; i < 2010; ++i) {
        const QString client = i < 2000 ? QStringLiteral("stale-%1").arg(i) : QStringLiteral("new-%1-%2").arg(round).arg(i);
        const QString account = accountName(i % o.accounts);
        r.findings.append({QStringLiteral("SESSION_STALE|%1|%2").arg(account, client), QStringLiteral("SESSION_STALE"),
                           QStringLiteral("warning"), account, QString(), QString(), client,
                           QStringLiteral("SESSION_STALE|%1|%2").arg(account, client)});
    }
    return r;
}

/** The same check stored as it comes: every count and finding a row of a bare table, one transaction. */
bool rawWrite(QSqlDatabase &db, const CheckRecord &r)
{
    QSqlQuery q(db);
    q.exec(QStringLiteral("BEGIN IMMEDIATE"));
    q.prepare(QStringLiteral("INSERT INTO raw_counts(at, account, sessions, retained, queued_messages, queued_bytes, consumers, connected) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?)"));
    const qint64 at = r.at.toMSecsSinceEpoch();
    for (const CheckRecord::Counts &c : r.counts) {
        for (const QVariant &v : {QVariant(at), QVariant(c.account), QVariant(*c.sessions), QVariant(*c.retained),
                                  QVariant(*c.queuedMessages), QVariant(*c.queuedBytes), QVariant(*c.consumers), QVariant(*c.connected)})
            q.addBindValue(v);
        if (!exec(q))
            return false;
    }
    q.prepare(
        QStringLiteral("INSERT INTO raw_findings(at, identity, code, severity, account, client_id, title) VALUES(?, ?, ?, ?, ?, ?, ?)"));
    for (const CheckRecord::FindingRow &f : r.findings) {
        for (const QVariant &v : {QVariant(at), QVariant(f.identity), QVariant(f.code), QVariant(f.severity), QVariant(f.account),
                                  QVariant(f.clientId), QVariant(f.title)})
            q.addBindValue(v);
        if (!exec(q))
            return false;
    }
    return q.exec(QStringLiteral("COMMIT"));
}

double medianOf(QList<double> v)
{
    return ProcessRounds::median(std::move(v));
}

void line(const char *title, double ours, double raw, const char *rawTitle)
{
    std::printf("  %-44s %9.1f ms   %s %8.1f ms   x%.2f\n", title, ours, rawTitle, raw, raw > 0 ? ours / raw : 0.0);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    Options o;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--accounts"))
            o.accounts = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--days"))
            o.days = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--churn"))
            o.churn = args[i + 1].toDouble();
        else if (args[i] == QLatin1String("--runs"))
            o.runs = args[i + 1].toInt();
    }
    QTemporaryDir dir;
    const QString path = HistoryLocation::databasePath(dir.path(), QStringLiteral("bench"));
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-o.days);
    qint64 checks = 0, countRows = 0;
    QElapsedTimer t;
    t.start();
    {
        auto db = HistoryDatabase::open(path);
        if (!db) {
            std::fprintf(stderr, "%s\n", qPrintable(db.error().toString()));
            return 1;
        }
        QSqlQuery q((*db)->db());
        q.exec(QStringLiteral("INSERT INTO urls(url, last_used) VALUES('nats://bench:4222', 0)"));
        if (!generate(**db, o, start, &checks, &countRows))
            return 1;
    }
    std::printf("History of %d accounts checked every minute for %d days (%.1f%% of accounts' counts change per check): %s checks, %s "
                "count rows, generated in %.1f s; database %.1f MiB (limit 1024 MiB)\n",
                o.accounts, o.days, o.churn * 100, qPrintable(ProcessRounds::thousands(checks)),
                qPrintable(ProcessRounds::thousands(countRows)), t.elapsed() / 1000.0,
                double(QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size()) / 1048576.0);

    auto db = HistoryDatabase::open(path);
    if (!db)
        return 1;
    QSqlQuery setup((*db)->db());
    setup.exec(
        QStringLiteral("CREATE TABLE raw_counts(at INTEGER, account TEXT, sessions INTEGER, retained INTEGER, queued_messages INTEGER, "
                       "queued_bytes INTEGER, consumers INTEGER, connected INTEGER)"));
    setup.exec(QStringLiteral("CREATE INDEX raw_counts_account ON raw_counts(account, at)"));
    setup.exec(QStringLiteral(
        "CREATE TABLE raw_findings(at INTEGER, identity TEXT, code TEXT, severity TEXT, account TEXT, client_id TEXT, title TEXT)"));

    // write
    QList<double> ours, raw;
    HistoryRecorder recorder(**db);
    for (int run = 0; run < o.runs; ++run) {
        const CheckRecord next = nextCheck(o, QDateTime::currentDateTimeUtc().addSecs(run), run + 1);
        t.restart();
        auto outcome = recorder.record(next);
        ours << double(t.nsecsElapsed()) / 1e6;
        if (!outcome) {
            std::fprintf(stderr, "record: %s\n", qPrintable(outcome.error().toString()));
            return 1;
        }
        t.restart();
        if (!rawWrite((*db)->db(), next))
            return 1;
        raw << double(t.nsecsElapsed()) / 1e6;
    }
    std::printf("Medians of %d runs:\n", o.runs);
    line("write one check of every account (record)", medianOf(ours), medianOf(raw), "raw insert");

    // timeline
    const QString account = accountName(42);
    ours.clear();
    raw.clear();
    qint64 points = 0, rows = 0;
    HistoryQuery query(**db);
    for (int run = 0; run < o.runs; ++run) {
        t.restart();
        auto timeline = query.counts({start.addSecs(-60), {}, account}, 0);
        ours << double(t.nsecsElapsed()) / 1e6;
        points = timeline ? timeline->size() : -1;
        t.restart();
        QSqlQuery q((*db)->db());
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT at, sessions, retained, queued_messages, queued_bytes, consumers, connected FROM account_counts "
                                 "WHERE account = ? AND at >= ? ORDER BY at"));
        q.addBindValue(account);
        q.addBindValue(start.addSecs(-60).toMSecsSinceEpoch());
        q.exec();
        rows = 0;
        while (q.next())
            ++rows;
        raw << double(t.nsecsElapsed()) / 1e6;
    }
    const double rawTimeline = medianOf(raw);
    line(qPrintable(QStringLiteral("%1-day timeline of one account (%2 points)").arg(o.days).arg(points)), medianOf(ours), rawTimeline,
         "raw select");
    (*db).reset();

    // changes, whole process
    QList<double> process;
    qint64 rssKiB = 0;
    const QString cli = ProcessRounds::treeProgram(QStringLiteral("bin/nats-mqtt-doctor-cli"));
    for (int run = 0; run < o.runs; ++run) {
        const auto outcome =
            TimedProcess::run(cli,
                              {QStringLiteral("changes"), QStringLiteral("--account"), account, QStringLiteral("--since"),
                               QStringLiteral("%1d").arg(o.days + 1), QStringLiteral("--json"), QStringLiteral("--history-dir"), dir.path(),
                               QStringLiteral("--cluster"), QStringLiteral("bench")},
                              {}, 120000, ProcessRounds::treeProgram(QStringLiteral("bench/fleet_launch")));
        if (!outcome.succeeded()) {
            std::fprintf(stderr, "changes: %s\n", qPrintable(outcome.describe()));
            break;
        }
        process << outcome.wallMs;
        rssKiB = std::max(rssKiB, outcome.peakRssKiB);
    }
    if (!process.isEmpty())
        std::printf("  %-44s %9.1f ms   (peak %.1f MiB)   x%.1f the raw timeline select\n",
                    qPrintable(QStringLiteral("changes --account A --since %1d --json (process)").arg(o.days + 1)), medianOf(process),
                    double(rssKiB) / 1024.0, rawTimeline > 0 ? medianOf(process) / rawTimeline : 0.0);
    std::printf("Database after the runs: %.1f MiB\n",
                double(QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size()) / 1048576.0);
    return 0;
}
