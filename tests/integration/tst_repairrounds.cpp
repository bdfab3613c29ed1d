// Repairs whose steps make new findings visible end in one run: after each round the repair checks the
// account again and runs another round for what the round uncovered (RepairSession), through the CLI as
// an operator runs it, against real servers of every version. The catalogue breaks whose repair uncovers
// a follow-up finding, each a case here:
//   - $MQTT_sess deleted while persistent sessions exist: create_stream, then the lost sessions' durables
//     are ORPHAN_CONSUMER (one pins a queued message) and round 2 backs them up and deletes them.
// For contrast, a break whose follow-up the planner sees at once takes one round:
//   - $MQTT_msgs deleted (its durables go with it): create_stream and, in the same plan, the durables every
//     session record names (SESSION_MISSING_CONSUMER), created from the records.
// Each case asserts: exit 0, the rounds with the expected actions, nothing repairable left, a fresh `check`
// clean, MQTT clients connect; the audit log names each step's round and the backups hold what round 2
// removed. `--finding` keeps every round to its codes and the rest is listed as not selected. In-process:
// the round limit, a declined round and the session's events.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "nats/connectionset.h"
#include "repair/repairsession.h"
#include "streamrepaircase.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace MqttDoctor::Test::StreamRepair;
using namespace Qt::StringLiterals;

namespace {

const QStringList kClients{QStringLiteral("rounds-1"), QStringLiteral("rounds-2"), QStringLiteral("rounds-3"), QStringLiteral("rounds-4")};

/** `repair --json` as ACME's user with changes allowed, backups and audit log in `dir`. */
CliRunner::Run repairRun(const NatsServerFixture &server, const QTemporaryDir &dir, const QStringList &extra)
{
    qputenv("XDG_DATA_HOME", QFile::encodeName(dir.path()));
    return CliRunner::run(acmeArgs(server.url())
                              + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--backup-dir"),
                                            dir.filePath(QStringLiteral("backups"))}
                              + extra + QStringList{QStringLiteral("--json")},
                          180000);
}

QJsonArray roundsOf(const CliRunner::Run &run)
{
    return run.json.value(QLatin1String("rounds")).toArray();
}

/** The actions of one round's plan, in order. */
QStringList actionsOf(const QJsonObject &round)
{
    QStringList out;
    for (const QJsonValue &s : round.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray())
        out << s.toObject().value(QLatin1String("action")).toString();
    return out;
}

/** What a failed run did, short: each round's actions, the stop, what remains. */
QString summary(const CliRunner::Run &run)
{
    QStringList lines{
        QStringLiteral("exit %1, stop %2")
            .arg(run.exitCode())
            .arg(QString::fromUtf8(QJsonDocument(run.json.value(QLatin1String("stop")).toObject()).toJson(QJsonDocument::Compact)))};
    for (const QJsonValue &r : run.json.value(QLatin1String("rounds")).toArray())
        lines << QStringLiteral("round %1: %2")
                     .arg(r.toObject().value(QLatin1String("round")).toInt())
                     .arg(actionsOf(r.toObject()).join(u' '));
    for (const QJsonValue &f : run.json.value(QLatin1String("remaining")).toArray())
        lines << QStringLiteral("remaining: %1 %2")
                     .arg(f.toObject().value(QLatin1String("code")).toString(), f.toObject().value(QLatin1String("title")).toString());
    if (!run.jsonValid)
        lines << run.describe();
    lines << run.err().left(2000);
    return lines.join(u'\n');
}

QString stopReason(const CliRunner::Run &run)
{
    return run.json.value(QLatin1String("stop")).toObject().value(QLatin1String("reason")).toString();
}

/** Four persistent QoS 1 sessions, each with a message queued while it is offline. */
void makeSessions(const NatsServerFixture &server)
{
    const MqttClient acme = acmeMqtt(server);
    for (const QString &id : kClients) {
        const MqttResult s = acme.createPersistentSession(id, {QStringLiteral("cmd/%1/#").arg(id)}, 1);
        QVERIFY2(s.subscribed(), qPrintable(s.describe()));
        QVERIFY2(acme.publish(QStringLiteral("cmd/%1/reboot").arg(id), "reboot", 1, false, id + QStringLiteral("-pub")).acknowledged,
                 "queued for the offline session");
    }
}

/** The round field of every audit entry of the run, as "round:action". */
QStringList auditRounds(const QTemporaryDir &dir)
{
    QFile file(QDir(dir.path()).filePath(QStringLiteral("nats-mqtt-doctor/audit.jsonl")));
    QStringList out;
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("no audit log: ") + file.fileName()};
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (!e.isEmpty())
            out << QStringLiteral("%1:%2")
                       .arg(e.value(QLatin1String("details")).toObject().value(QLatin1String("round")).toInt())
                       .arg(e.value(QLatin1String("action")).toString());
    }
    return out;
}

void verifyCleanCheck(const NatsServerFixture &server)
{
    const CliRunner::Run after = check(acmeArgs(server.url()));
    QVERIFY2(after.exitCode() == 0 && findingsAbove(after, QStringLiteral("info")).isEmpty(), qPrintable(describe(after)));
}

} // namespace

class TestRepairRounds : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase() { prepareRepairTests(m_data); }

    void deletedSessions_data() { addVersionRows(); }
    void deletedSessions()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeSessions(server);
        if (QTest::currentTestFailed())
            return;
        // Each session's durables: its subscription's on $MQTT_msgs, and on some versions its PUBREL one on $MQTT_out.
        ConnectionSet connections(acmeProfile(server.url()));
        auto conn = connections.primary();
        QVERIFY2(conn, "connect");
        const qsizetype durables = consumerNamesOf(*conn, kMsgs).size() + consumerNamesOf(*conn, kOut).size();
        QVERIFY2(durables >= kClients.size(), qPrintable(consumerNamesOf(*conn, kMsgs).join(u',')));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));

        QTemporaryDir dir;
        const CliRunner::Run run = repairRun(server, dir, {QStringLiteral("--yes")});
        QVERIFY2(run.jsonValid && run.exitCode() == 0, qPrintable(summary(run)));
        const QJsonArray rounds = roundsOf(run);
        QVERIFY2(rounds.size() == 2, qPrintable(summary(run)));
        QCOMPARE(actionsOf(rounds.at(0).toObject()), QStringList{QStringLiteral("create_stream")});
        // Every durable the lost records named (not the server's own consumers) goes, each backed up first.
        const QStringList round2 = actionsOf(rounds.at(1).toObject());
        QVERIFY2(round2.size() >= kClients.size() && round2.size() <= durables, qPrintable(summary(run)));
        QCOMPARE(round2, QStringList(round2.size(), QStringLiteral("delete_consumer")));
        QCOMPARE(stopReason(run), QStringLiteral("nothing_repairable"));
        QVERIFY2(run.json.value(QLatin1String("remaining")).toArray().isEmpty(), qPrintable(run.describe()));
        // The whole run's plan and outcomes: step ids run on across the rounds.
        const QJsonArray steps = run.json.value(QLatin1String("applied")).toObject().value(QLatin1String("steps")).toArray();
        QCOMPARE(steps.size(), 1 + round2.size());
        QCOMPARE(steps.last().toObject().value(QLatin1String("step")).toString(), QString::number(1 + round2.size()));
        // Round 2's durables were backed up with their pending messages before they went.
        const QJsonArray backups = run.json.value(QLatin1String("backups")).toArray();
        QCOMPARE(backups.size(), round2.size());
        for (const QJsonValue &b : backups)
            QVERIFY2(QFile::exists(b.toString()), qPrintable(b.toString()));
        QStringList audit = auditRounds(dir);
        QCOMPARE(audit.value(0), QStringLiteral("1:create_stream"));
        QCOMPARE(audit.size(), 1 + round2.size());
        QCOMPARE(audit.last(), QStringLiteral("2:delete_consumer"));

        verifyCleanCheck(server);
        verifyMqttWorks(server);
        // A lost session's client starts clean.
        const MqttResult again = acmeMqtt(server).createPersistentSession(kClients.first(), {QStringLiteral("cmd/again/#")}, 1);
        QVERIFY2(again.subscribed(), qPrintable(again.describe()));
    }

    void deletedMessages_data() { addVersionRows(); }
    void deletedMessages()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeSessions(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kMsgs), qPrintable(admin.error()));

        QTemporaryDir dir;
        const CliRunner::Run run = repairRun(server, dir, {QStringLiteral("--yes")});
        QVERIFY2(run.jsonValid && run.exitCode() == 0, qPrintable(summary(run)));
        const QJsonArray rounds = roundsOf(run);
        QVERIFY2(rounds.size() == 1, qPrintable(summary(run)));
        const QStringList actions = actionsOf(rounds.at(0).toObject());
        QVERIFY2(actions.size() > kClients.size() && actions.first() == QStringLiteral("create_stream"), qPrintable(summary(run)));
        QCOMPARE(actions.mid(1), QStringList(actions.size() - 1, QStringLiteral("create_consumer")));
        QCOMPARE(stopReason(run), QStringLiteral("nothing_repairable"));
        verifyCleanCheck(server);
        verifyMqttWorks(server);
        // The sessions resume on their recreated durables.
        const MqttResult resumed =
            acmeMqtt(server).subscribeAndCollect(kClients.first(), {QStringLiteral("unrelated/topic")}, 1, 0, 4, true);
        QVERIFY2(resumed.connected(), qPrintable(resumed.describe()));
    }

    // `--finding STREAM_MISSING` keeps every round to that code: the orphans the round uncovers are left,
    // listed as not selected instead of the account being called clean.
    void findingScope()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9")), qPrintable(server.errorString()));
        makeSessions(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));
        QTemporaryDir dir;
        qputenv("XDG_DATA_HOME", QFile::encodeName(dir.path()));
        const QStringList scoped{QStringLiteral("--allow-changes"),
                                 QStringLiteral("repair"),
                                 QStringLiteral("--yes"),
                                 QStringLiteral("--finding"),
                                 QStringLiteral("STREAM_MISSING"),
                                 QStringLiteral("--backup-dir"),
                                 dir.filePath(QStringLiteral("backups"))};
        const CliRunner::Run text = CliRunner::run(acmeArgs(server.url()) + scoped, 180000);
        QVERIFY2(text.exitCode() == 0, qPrintable(text.describe()));
        QVERIFY2(text.out().contains(QStringLiteral("Repair complete after 1 round: nothing repairable remains")),
                 qPrintable(text.describe()));
        QVERIFY2(text.out().count(QStringLiteral("not selected: warning ORPHAN_CONSUMER")) >= kClients.size(), qPrintable(text.describe()));
        QVERIFY2(!text.out().contains(QStringLiteral("Check is clean")), qPrintable(text.describe()));

        const CliRunner::Run again = CliRunner::run(acmeArgs(server.url()) + scoped + QStringList{QStringLiteral("--json")}, 180000);
        QVERIFY2(again.jsonValid && again.exitCode() == 0, qPrintable(again.describe()));
        QCOMPARE(roundsOf(again).size(), 0);
        QCOMPARE(stopReason(again), QStringLiteral("nothing_to_do"));
        const QJsonArray notSelected = again.json.value(QLatin1String("not_selected")).toArray();
        QVERIFY2(notSelected.size() >= kClients.size(), qPrintable(again.describe()));
        for (const QJsonValue &f : notSelected)
            QCOMPARE(f.toObject().value(QLatin1String("code")).toString(), QStringLiteral("ORPHAN_CONSUMER"));
    }

    // The session in-process: the round limit, a declined round and the events, as a front end sees them.
    void sessionStopsAndEvents()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest")), qPrintable(server.errorString()));
        makeSessions(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));
        QTemporaryDir dir;
        ConnectionSet connections(acmeProfile(server.url(), true));
        RepairSession::Options options;
        options.account = acme();
        options.backupDir = dir.filePath(QStringLiteral("backups"));
        options.auditPath = dir.filePath(QStringLiteral("audit.jsonl"));

        // One round allowed: the orphans it uncovers stay, and the run says so.
        options.maxRounds = 1;
        RepairSession limited(connections, options);
        QVERIFY2(limited.check(), "check");
        QVERIFY(!limited.blocked());
        limited.planFirstRound();
        QVERIFY(limited.hasPendingRound());
        QStringList events;
        QVERIFY2(limited.runRound([&events](const RepairEvent &e) {
            static const QStringList names{u"round_started"_s, u"step_started"_s,   u"backup_written"_s,
                                           u"step_finished"_s, u"round_finished"_s, u"done"_s};
            events << names.value(int(e.kind))
                    + (e.kind == RepairEvent::Kind::StepFinished ? u':' + StepOutcome::stateName(e.outcome.state) : QString());
        }),
                 "round 1");
        QCOMPARE(events, (QStringList{u"round_started"_s, u"step_started"_s, u"step_finished:applied"_s, u"round_finished"_s, u"done"_s}));
        QCOMPARE(limited.stopReason(), RepairSession::Stop::RoundLimit);
        QVERIFY2(limited.stopText().contains(u"ORPHAN_CONSUMER"_s) && limited.stopText().contains(u"run repair again"_s),
                 qPrintable(limited.stopText()));
        QVERIFY(!limited.hasPendingRound());
        QCOMPARE(limited.exitCode(), 1); // warnings remain
        QCOMPARE(limited.fixed().size(), 1);
        QCOMPARE(limited.fixed().first().code, u"STREAM_MISSING"_s);

        // The orphans planned, and the operator says no: nothing changes, the run says why.
        options.maxRounds = 3;
        RepairSession declined(connections, options);
        QVERIFY2(declined.check(), "check");
        declined.planFirstRound();
        QVERIFY(declined.hasPendingRound());
        declined.decline();
        QCOMPARE(declined.stopReason(), RepairSession::Stop::Declined);
        QVERIFY(!declined.hasPendingRound());
        QVERIFY(!declined.runRound()); // nothing pending: refused, nothing ran
        QCOMPARE(declined.exitCode(), 1);
        QCOMPARE(declined.toJson().value(u"stop"_s).toObject().value(u"reason"_s).toString(), u"declined"_s);
        QVERIFY(declined.toJson().value(u"applied"_s).isNull());

        // Approved: clean, and a dry run afterwards has nothing to do.
        RepairSession approved(connections, options);
        QVERIFY2(approved.check(), "check");
        approved.planFirstRound();
        QVERIFY2(approved.runRound(), "round 1");
        QCOMPARE(approved.stopReason(), RepairSession::Stop::NothingRepairable);
        QCOMPARE(approved.rounds().size(), 1);
        QCOMPARE(approved.exitCode(), 0);
        RepairSession after(connections, options);
        QVERIFY2(after.check(), "check");
        after.planFirstRound();
        QCOMPARE(after.stopReason(), RepairSession::Stop::NothingToDo);
        QCOMPARE(after.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRepairRounds)
#include "tst_repairrounds.moc"
