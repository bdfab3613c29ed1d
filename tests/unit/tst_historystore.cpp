// The history database without a server: its schema and migrations, the findings' first and last seen and when
// they close (only where a check looked), what changed between two checks, and its failures (a newer schema, a
// file that is not a database, a folder that cannot be written).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include "history/checkrecord.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyquery.h"
#include "history/historyrecorder.h"
#include "history/historyschema.h"
#include "history/samplejson.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

const QDateTime kStart = QDateTime(QDate(2026, 12, 7), QTime(14, 0), Qt::UTC);

CheckRecord::FindingRow finding(const QString &code, const QString &account, const QString &client)
{
    return {code + u'|' + account + u'|' + client, code, u"error"_s, account, QString(), QString(), client, code + u" of "_s + client};
}

AccountCoverage covered(const QString &account, bool complete = true)
{
    return {account, u"checked"_s, complete ? u"checked"_s : u"not_checked"_s, u"checked"_s};
}

CheckRecord check(int minute, const QList<CheckRecord::FindingRow> &findings, const QList<AccountCoverage> &coverage = {covered(u"ACME"_s)})
{
    CheckRecord r;
    r.at = kStart.addSecs(60 * minute);
    r.source = u"cli"_s;
    r.cluster = u"east"_s;
    r.urls = {u"nats://127.0.0.1:4222"_s};
    r.complete = std::all_of(coverage.cbegin(), coverage.cend(), [](const AccountCoverage &c) { return c.complete(); });
    r.coverage = coverage;
    r.findings = findings;
    r.servers = {{u"ID1"_s, u"n1"_s, u"2.10.27"_s}};
    return r;
}

int count(HistoryDatabase &db, const QString &sql)
{
    QSqlQuery q(db.db());
    return q.exec(sql) && q.next() ? q.value(0).toInt() : -1;
}

} // namespace

class TestHistoryStore : public QObject
{
    Q_OBJECT

private slots:
    void schemaFromEmpty()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"east.sqlite"_s);
        {
            auto db = HistoryDatabase::open(path);
            QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
            QCOMPARE(*HistorySchema::versionOf((*db)->db()), HistorySchema::kCurrentVersion);
            QSqlQuery q((*db)->db());
            QVERIFY(q.exec(u"PRAGMA journal_mode"_s) && q.next());
            QCOMPARE(q.value(0).toString(), u"wal"_s);
            for (const QString &table : {u"checks"_s, u"findings"_s, u"changes"_s, u"session_state"_s, u"client_events"_s})
                QCOMPARE(count(**db, u"SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '%1'"_s.arg(table)), 1);
            QVERIFY(*(*db)->integrityOk());
        }
        // Opened again: nothing to migrate, nothing lost.
        auto again = HistoryDatabase::open(path);
        QVERIFY(again);
        QCOMPARE(*HistorySchema::versionOf((*again)->db()), HistorySchema::kCurrentVersion);
        // Every version's migration has statements, and there is none past the current one.
        for (int v = 1; v <= HistorySchema::kCurrentVersion; ++v)
            QVERIFY(!HistorySchema::migration(v).isEmpty());
        QVERIFY(HistorySchema::migration(HistorySchema::kCurrentVersion + 1).isEmpty());
    }

    void migrationsFromTheFirstSchema()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"east.sqlite"_s);
        {
            // A database as the first release left it: schema 1, with a check in it.
            QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"v1"_s);
            raw.setDatabaseName(path);
            QVERIFY(raw.open());
            QVERIFY(HistorySchema::migrate(raw, 1));
            QSqlQuery q(raw);
            QVERIFY(q.exec(
                u"INSERT INTO checks(at, source, scope, complete, exit_code, accounts, findings, gaps) VALUES(1, 'cli', '*', 1, 0, 1, 0, '')"_s));
            QCOMPARE(*HistorySchema::versionOf(raw), 1);
            raw.close();
        }
        QSqlDatabase::removeDatabase(u"v1"_s);
        // Read only, an older schema is refused with what to do; opened for writing, it is migrated and keeps its data.
        auto readOnly = HistoryDatabase::open(path, HistoryDatabase::Mode::ReadOnly);
        QVERIFY(!readOnly);
        QVERIFY2(readOnly.error().toString().contains(u"older schema"_s), qPrintable(readOnly.error().toString()));
        auto db = HistoryDatabase::open(path);
        QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
        QCOMPARE(*HistorySchema::versionOf((*db)->db()), HistorySchema::kCurrentVersion);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM checks"_s), 1);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM account_samples"_s), 0);
        QVERIFY(*(*db)->integrityOk());
    }

    void samplesForTheNextCheck()
    {
        QTemporaryDir dir;
        auto db = HistoryDatabase::open(dir.filePath(u"east.sqlite"_s));
        QVERIFY(db);
        AccountSample sample;
        sample.account = u"ACME"_s;
        sample.time = kStart;
        sample.api = JetStreamApiCounts{1200, 17, u"jsz"_s, 3};
        sample.consumersKnown = true;
        ConsumerProgress p;
        p.stream = u"$MQTT_msgs"_s;
        p.deliveredConsumerSeq = 40;
        p.deliveredStreamSeq = 39;
        p.ackFloorConsumerSeq = 2;
        p.ackFloorStreamSeq = 3;
        p.numAckPending = 38;
        p.numRedelivered = 5;
        p.numPending = 7;
        p.maxAckPending = 1000;
        sample.consumers.insert(u"dur-1"_s, p);
        CheckRecord r = check(0, {});
        r.samples.insert(u"ACME"_s, sample);
        QVERIFY(HistoryRecorder(**db).record(r));

        HistoryQuery query(**db);
        auto samples = query.previousSamples(kStart.addSecs(60), 3600);
        QVERIFY(samples);
        QCOMPARE(samples->size(), 1);
        const AccountSample back = samples->value(u"ACME"_s);
        QCOMPARE(back.time, kStart);
        QVERIFY(back.api && back.api->errors == 17 && back.api->total == 1200 && back.api->servers == 3 && back.api->source == u"jsz"_s);
        QVERIFY(back.consumersKnown);
        const ConsumerProgress c = back.consumers.value(u"dur-1"_s);
        QCOMPARE(c.stream, p.stream);
        QVERIFY(c.deliveredConsumerSeq == 40 && c.deliveredStreamSeq == 39 && c.ackFloorConsumerSeq == 2 && c.ackFloorStreamSeq == 3);
        QVERIFY(c.numAckPending == 38 && c.numRedelivered == 5 && c.numPending == 7 && c.maxAckPending == 1000);
        // Too old to compare with: none.
        QCOMPARE(query.previousSamples(kStart.addSecs(7200), 3600)->size(), 0);
    }

    void newerSchemaIsRefusedAndKept()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"east.sqlite"_s);
        {
            auto db = HistoryDatabase::open(path);
            QVERIFY(db);
            QSqlQuery q((*db)->db());
            QVERIFY(q.exec(u"PRAGMA user_version = 99"_s));
        }
        auto refused = HistoryDatabase::open(path);
        QVERIFY(!refused);
        QVERIFY2(refused.error().toString().contains(u"newer release"_s), qPrintable(refused.error().toString()));
        auto readOnly = HistoryDatabase::open(path, HistoryDatabase::Mode::ReadOnly);
        QVERIFY(!readOnly);
        QVERIFY(readOnly.error().toString().contains(u"newer release"_s));
    }

    void notADatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"east.sqlite"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto db = HistoryDatabase::open(path);
        QVERIFY(!db);
        QVERIFY2(db.error().toString().contains(u"not a history database"_s), qPrintable(db.error().toString()));
        QFile again(path);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray(4096, 'x')); // left as it was
    }

    void unwritableFolder()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(u"a-file"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        // A folder below a file cannot be made, whoever runs the test (root included).
        auto db = HistoryDatabase::open(dir.filePath(u"a-file/history/east.sqlite"_s));
        QVERIFY(!db);
        QCOMPARE(db.error().kind(), Error::Kind::Io);
        QVERIFY2(db.error().toString().contains(u"--history-dir"_s), qPrintable(db.error().toString()));
    }

    void findingOpenAcrossChecksIsOneRow()
    {
        QTemporaryDir dir;
        auto db = HistoryDatabase::open(dir.filePath(u"east.sqlite"_s));
        QVERIFY(db);
        HistoryRecorder recorder(**db);
        const auto broken = finding(u"SESSION_CONSUMER_MISSING"_s, u"ACME"_s, u"dev-1"_s);
        QCOMPARE(recorder.record(check(0, {}))->opened, 0);
        QCOMPARE(recorder.record(check(1, {broken}))->opened, 1);
        auto third = recorder.record(check(2, {broken}));
        QCOMPARE(third->opened, 0);
        QCOMPARE(third->stillOpen, 1);
        QCOMPARE(recorder.record(check(3, {broken}))->stillOpen, 1);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM findings"_s), 1);

        HistoryQuery query(**db);
        auto spans = query.findings({kStart.addSecs(-3600), {}, {}});
        QVERIFY(spans);
        QCOMPARE(spans->size(), 1);
        QCOMPARE(spans->first().firstSeen, kStart.addSecs(60));
        QCOMPARE(spans->first().lastSeen, kStart.addSecs(180));
        QVERIFY(!spans->first().closedAt.isValid());

        // A check that could not read ACME's records leaves it open; one that looked at everything closes it.
        QCOMPARE(recorder.record(check(4, {}, {covered(u"ACME"_s, false)}))->closed, 0);
        QCOMPARE(recorder.record(check(5, {}, {covered(u"OTHER"_s)}))->closed, 0);
        QCOMPARE(recorder.record(check(6, {}))->closed, 1);
        spans = query.findings({kStart.addSecs(-3600), {}, {}});
        QCOMPARE(spans->first().closedAt, kStart.addSecs(360));
        // Found again later: a new row, the old one stays closed.
        QCOMPARE(recorder.record(check(7, {broken}))->opened, 1);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM findings"_s), 2);

        // Open by severity at each check: one error from minute 1 to 3, none at 0 and 4 to 6 (4 and 5 could not
        // close it, but did not see it either), one again at 7: a point for every check, zeros included.
        auto bySeverity = query.severities({kStart, kStart.addSecs(420), {}});
        QVERIFY(bySeverity);
        QStringList points;
        for (const auto &p : std::as_const(*bySeverity))
            points << u"%1:%2"_s.arg(kStart.secsTo(p.at) / 60).arg(p.error);
        QCOMPARE(points, (QStringList{u"0:0"_s, u"1:1"_s, u"2:1"_s, u"3:1"_s, u"4:0"_s, u"5:0"_s, u"6:0"_s, u"7:1"_s}));

        // The changes of the window: opened at minute 1, closed at 6, opened at 7; the checks are counted.
        auto changes = query.changes({kStart, kStart.addSecs(420), {}});
        QVERIFY(changes);
        QStringList kinds;
        for (const auto &e : std::as_const(*changes))
            kinds << e.kind + u'@' + QString::number(kStart.secsTo(e.at) / 60);
        QCOMPARE(kinds, (QStringList{u"finding_opened@1"_s, u"finding_closed@6"_s, u"finding_opened@7"_s}));
        QCOMPARE(query.checks({kStart, kStart.addSecs(420), {}})->count, 8);
        QCOMPARE(query.checks({kStart.addSecs(3600), {}, {}})->count, 0);
    }

    void sessionChangesAfterTheBaseline()
    {
        QTemporaryDir dir;
        auto db = HistoryDatabase::open(dir.filePath(u"east.sqlite"_s));
        QVERIFY(db);
        HistoryRecorder recorder(**db);
        CheckRecord first = check(0, {});
        first.sessions.insert(
            u"ACME"_s, {{u"$MQTT.sess.aaaa"_s, u"dev-1"_s, 5, u"site/1/# 1"_s}, {u"$MQTT.sess.bbbb"_s, u"dev-2"_s, 6, u"site/2/# 1"_s}});
        auto baseline = recorder.record(first);
        QCOMPARE(baseline->changes, 0); // the first look is the baseline, not "appeared"

        CheckRecord second = check(1, {});
        second.sessions.insert(
            u"ACME"_s,
            {{u"$MQTT.sess.bbbb"_s, u"dev-2"_s, 9, u"site/2/# 1\nsite/2b/# 0"_s}, {u"$MQTT.sess.cccc"_s, u"dev-3"_s, 10, QString()}});
        second.servers = {{u"ID1"_s, u"n1"_s, u"2.11.0"_s}, {u"ID2"_s, u"n2"_s, u"2.11.0"_s}};
        QCOMPARE(recorder.record(second)->changes, 5);

        HistoryQuery query(**db);
        auto story = query.client(u"dev-2"_s, {kStart.addSecs(-60), {}, {}});
        QVERIFY(story);
        QCOMPARE(story->size(), 1);
        QCOMPARE(story->first().kind, u"session_rewritten"_s);
        QCOMPARE(story->first().detail.value(u"subscriptions_added"_s).toArray().first().toString(), u"site/2b/# 0"_s);
        QVERIFY2(story->first().text.contains(u"subscribed to site/2b/# QoS 0"_s), qPrintable(story->first().text));
        auto all = query.changes({kStart.addSecs(-60), {}, u"ACME"_s});
        QStringList kinds;
        for (const auto &e : std::as_const(*all))
            kinds << e.kind;
        kinds.sort();
        QCOMPARE(kinds,
                 (QStringList{u"server_joined"_s, u"server_version_changed"_s, u"session_appeared"_s, u"session_rewritten"_s,
                              u"session_vanished"_s}));

        // The account's counts over time, as a chart reads them.
        CheckRecord counted = check(3, {});
        counted.servers = second.servers;
        counted.counts = {{u"ACME"_s, 2, 5, 100, 4096, 4, std::nullopt}};
        QVERIFY(recorder.record(counted));
        auto timeline = query.counts({kStart.addSecs(-60), {}, u"ACME"_s});
        QVERIFY(timeline);
        QCOMPARE(timeline->size(), 1);
        QVERIFY(timeline->first().sessions == 2 && timeline->first().queuedBytes == 4096 && timeline->first().connected == -1);
        // The same counts again are not written again; the timeline holds the value up to the last check.
        CheckRecord same = counted;
        same.at = kStart.addSecs(240);
        QVERIFY(recorder.record(same));
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM account_counts"_s), 1);
        timeline = query.counts({kStart.addSecs(-60), {}, u"ACME"_s});
        QCOMPARE(timeline->size(), 2);
        QCOMPARE(timeline->last().at, kStart.addSecs(240));
        QCOMPARE(timeline->last().sessions, 2);

        // A check that did not read the records completely compares nothing: no vanished sessions.
        CheckRecord partial = check(2, {});
        partial.servers = second.servers;
        QCOMPARE(recorder.record(partial)->changes, 0);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM session_state"_s), 2);
    }

    void sizeLimit()
    {
        QTemporaryDir dir;
        auto db = HistoryDatabase::open(dir.filePath(u"east.sqlite"_s));
        QVERIFY(db);
        HistoryRecorder recorder(**db);
        constexpr qint64 kLimit = 256 * 1024;
        recorder.setMaxBytes(kLimit);
        // A check a minute with 200 findings, each open for one check: closed rows pile up.
        for (int minute = 0; minute < 60; ++minute) {
            QList<CheckRecord::FindingRow> findings;
            for (int i = 0; i < 200; ++i)
                findings << finding(u"SESSION_STALE"_s, u"ACME"_s, u"device-%1-%2"_s.arg(minute).arg(i));
            QVERIFY(recorder.record(check(minute, findings)));
        }
        QVERIFY2((*db)->usedBytes() <= kLimit + 64 * 1024, qPrintable(QString::number((*db)->usedBytes())));
        // The newest checks stay, the oldest went.
        QCOMPARE(count(**db, u"SELECT MAX(at) FROM checks"_s) > 0, true);
        QSqlQuery q((*db)->db());
        QVERIFY(q.exec(u"SELECT MIN(at), MAX(at), COUNT(*) FROM checks"_s) && q.next());
        QCOMPARE(q.value(1).toLongLong(), kStart.addSecs(59 * 60).toMSecsSinceEpoch());
        QVERIFY2(q.value(0).toLongLong() > kStart.toMSecsSinceEpoch(), "the oldest checks were removed");
        QVERIFY(*(*db)->integrityOk());
    }

    void locationFindsTheDatabase()
    {
        QTemporaryDir dir;
        QCOMPARE(HistoryLocation::clusterName({}), QString());
        ServerInfo a;
        a.name = u"n1"_s;
        QCOMPARE(HistoryLocation::clusterName({a}), u"n1"_s);
        a.cluster = u"east/1"_s;
        QCOMPARE(HistoryLocation::clusterName({a}), u"east/1"_s);
        QCOMPARE(QFileInfo(HistoryLocation::databasePath(dir.path(), u"east/1"_s)).fileName(), u"east_1.sqlite"_s);

        auto none = HistoryLocation::find(dir.path(), {}, {});
        QVERIFY(!none);
        QVERIFY(none.error().toString().contains(u"no history yet"_s));
        for (const QString &cluster : {u"east"_s, u"west"_s}) {
            auto db = HistoryDatabase::open(HistoryLocation::databasePath(dir.path(), cluster));
            QVERIFY(db);
            CheckRecord r = check(0, {});
            r.cluster = cluster;
            r.urls = {u"nats://%1:4222"_s.arg(cluster)};
            QVERIFY(HistoryRecorder(**db).record(r));
        }
        QCOMPARE(QFileInfo(*HistoryLocation::find(dir.path(), {}, {u"nats://west:4222"_s})).fileName(), u"west.sqlite"_s);
        QCOMPARE(QFileInfo(*HistoryLocation::find(dir.path(), u"east"_s, {})).fileName(), u"east.sqlite"_s);
        auto which = HistoryLocation::find(dir.path(), {}, {u"nats://elsewhere:4222"_s});
        QVERIFY(!which);
        QVERIFY2(which.error().toString().contains(u"east, west"_s), qPrintable(which.error().toString()));
    }

    void retention()
    {
        QTemporaryDir dir;
        auto db = HistoryDatabase::open(dir.filePath(u"east.sqlite"_s));
        QVERIFY(db);
        HistoryRecorder recorder(**db);
        recorder.setRetentionDays(1);
        const auto broken = finding(u"STREAM_MISSING"_s, u"ACME"_s, {});
        QVERIFY(recorder.record(check(0, {broken})));
        QVERIFY(recorder.record(check(1, {})));
        // Two days later: the old checks and the closed finding go, the new check stays.
        QVERIFY(recorder.record(check(2 * 24 * 60, {})));
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM checks"_s), 1);
        QCOMPARE(count(**db, u"SELECT COUNT(*) FROM findings"_s), 0);
    }
};

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
