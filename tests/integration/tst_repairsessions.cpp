// The record-level repairs (purge_session, create_consumer, delete_consumer, delete_session,
// migrate_legacy_sessions) against real servers of every version: MQTT state made by real mosquitto
// clients, broken the way tst_sessionchecks breaks it, then gathered, checked, planned
// (RepairPlanner) and run (RepairExecutor) in-process, as the CLI's `repair --yes` does. Each case
// asserts that the finding is gone from a fresh check, that the broken client works again (the
// missing-consumer one receives a QoS 1 message published while it was offline), that every other
// session, queued and retained message is intact, that the backups restore what was removed, that a
// rerun finds everything done, and that read-only and dry runs change nothing.
#include <QDir>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "persistentsessionfixture.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "repair/repairaction.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
#include "repair/streamcontent.h"
#include "repair/streamrestore.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::Literals::StringLiterals;

namespace {

QString sessSubject(const QString &clientId)
{
    return u"$MQTT.sess."_s + ClientIdHash::hash(clientId);
}

/**
 * The server with ACME's persistent sessions, the account's connections (with the system user for CONNZ),
 * and the repair pipeline.
 */
struct Lab : PersistentSessionFixture
{
    Profile profile;
    std::unique_ptr<ConnectionSet> connections;
    std::shared_ptr<NatsConnection> conn;
    QTemporaryDir dir;

    bool start(const QString &version)
    {
        if (!PersistentSessionFixture::start(version))
            return false;
        profile = acmeWithSystemProfile(url(), true);
        profile.name = u"repair-test"_s;
        connections = std::make_unique<ConnectionSet>(profile);
        auto c = connections->primary();
        conn = c ? *c : nullptr;
        return conn != nullptr;
    }

    Result<QJsonObject> api(const QString &op, const QJsonObject &body = {}) { return JetStreamClient(conn).call(op, body); }

    /** A JetStream publish with a plain inbox reply; empty on success. */
    QString publish(const QString &subject, const QByteArray &data)
    {
        auto reply = conn->request(subject, data, 5000);
        return !reply ? reply.error().toString() : reply->data.contains("\"seq\"") ? QString() : QString::fromUtf8(reply->data);
    }

    QStringList consumerNames(const QString &stream)
    {
        QStringList out;
        if (auto list = JetStreamClient(conn).consumerList(stream))
            for (const QJsonObject &c : *list)
                out << c.value("name"_L1).toString();
        out.sort();
        return out;
    }

    /** Every message of a stream as "subject #seq" → data (one subject only when given). */
    QMap<QString, QByteArray> contents(const QString &stream, const QString &subject = {})
    {
        QMap<QString, QByteArray> out;
        auto info = api(u"STREAM.INFO."_s + stream);
        if (!info)
            return {{u"error"_s, info.error().toString().toUtf8()}};
        auto read = StreamContent::read(conn, {}, stream, info->value("config"_L1).toObject(), subject, {},
                                        [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                            for (const StreamMessage &m : batch)
                                                out.insert(u"%1 #%2"_s.arg(m.subject).arg(m.sequence), m.data);
                                            return true;
                                        });
        if (!read)
            out.insert(u"error"_s, read.error().toString().toUtf8());
        return out;
    }

    /** Streams, message counts and consumers with their delivery subjects. */
    QMap<QString, QString> snapshot()
    {
        QMap<QString, QString> out;
        auto streams = JetStreamClient(conn).streamList();
        if (!streams)
            return {{u"error"_s, streams.error().toString()}};
        for (const QJsonObject &s : *streams) {
            const QString name = s.value("config"_L1).toObject().value("name"_L1).toString();
            QStringList consumers;
            if (auto list = JetStreamClient(conn).consumerList(name))
                for (const QJsonObject &c : *list)
                    consumers << c.value("name"_L1).toString() + u'>'
                            + c.value("config"_L1).toObject().value("deliver_subject"_L1).toString();
            consumers.sort();
            out.insert(name,
                       u"%1 msgs, last %2; %3"_s.arg(s.value("state"_L1).toObject().value("messages"_L1).toInteger())
                           .arg(s.value("state"_L1).toObject().value("last_seq"_L1).toInteger())
                           .arg(consumers.join(u',')));
        }
        return out;
    }

    Result<DiagnosisInput> gather(qint64 staleAfterSecs = 30LL * 24 * 3600)
    {
        DiagnosisGatherer::Request req;
        req.account = acme();
        req.options.staleAfterSecs = staleAfterSecs;
        return DiagnosisGatherer::gather(*connections, req);
    }

    static QList<Finding> findings(const DiagnosisInput &in, const QStringList &codes)
    {
        QList<Finding> out;
        for (const Finding &f : Checks::diagnose(in))
            if (codes.contains(f.code))
                out.append(f);
        return out;
    }

    RepairPlan plan(const DiagnosisInput &in, const QStringList &codes)
    {
        RepairPlanner::Options o;
        o.account = acme();
        o.onlyCodes = codes;
        return RepairPlanner::plan(in, findings(in, codes), o);
    }

    RepairTarget target(bool allowChanges)
    {
        Profile p = profile;
        p.allowChanges = allowChanges;
        return RepairTarget::fromConnection(p, conn, acme());
    }

    Result<RepairExecutor::Report> run(const RepairPlan &plan, bool allowChanges = true, bool dryRun = false)
    {
        RepairExecutor::Options o;
        o.backupDir = dir.filePath(u"backups"_s);
        o.auditPath = dir.filePath(u"audit.jsonl"_s);
        o.dryRun = dryRun;
        return RepairExecutor::run(target(allowChanges), plan, o);
    }

    QStringList backupFiles() { return QDir(dir.filePath(u"backups"_s)).entryList(QDir::Files); }

    /** A client may be refused once by a server that cached the purged session (wrong last sequence). */
    MqttResult connect(const QString &id)
    {
        MqttResult r;
        for (int attempt = 0; attempt < 3 && !r.connected(); ++attempt)
            r = mqtt().connectOnce(id, false);
        return r;
    }
};

QString describePlan(const RepairPlan &plan, const RepairExecutor::Report *report = nullptr)
{
    QStringList lines{u"plan notes: "_s + plan.notes.join(u" | "_s)};
    for (int i = 0; i < plan.steps.size(); ++i) {
        const RepairStep &s = plan.steps.at(i);
        QString line = u"  %1 %2 [%3] %4"_s.arg(s.id, s.action, s.findingCode, s.description);
        if (report && i < report->outcomes.size())
            line += u" => %1: %2"_s.arg(StepOutcome::stateName(report->outcomes.at(i).state), report->outcomes.at(i).message);
        lines << line;
    }
    if (report)
        lines << u"  stopped: "_s + report->stoppedBecause;
    return lines.join(u'\n');
}

QStringList codesOf(const QList<Finding> &list)
{
    QStringList out;
    for (const Finding &f : list)
        out << f.code + u' ' + f.subject + u' ' + f.title;
    return out;
}

/** The backup files of the steps matching `pred`. */
template<typename Pred>
QStringList backupsOf(const RepairPlan &plan, const RepairExecutor::Report &report, Pred pred)
{
    QStringList out;
    for (int i = 0; i < plan.steps.size() && i < report.outcomes.size(); ++i)
        if (pred(plan.steps.at(i)))
            out << report.outcomes.at(i).backupFiles;
    return out;
}

bool allState(const RepairExecutor::Report &report, StepOutcome::State state)
{
    for (const StepOutcome &o : report.outcomes)
        if (o.state != state)
            return false;
    return !report.outcomes.isEmpty();
}

const QStringList recordCodes{u"SESSION_UNDECODABLE"_s, u"SESSION_ID_MISMATCH"_s, u"SESSION_MISSING_CONSUMER"_s, u"ORPHAN_CONSUMER"_s};

} // namespace

class TestRepairSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void brokenRecords_data() { addServerVersionRows(); }

    // Garbage record, foreign-id record, a durable deleted from under a session, a record purged while its
    // durables remain: one plan repairs them all, and nothing else changes.
    void brokenRecords()
    {
        QFETCH(QString, version);
        Lab lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        const bool qos2 = version != "2.9"_L1; // 2.10+: a QoS 2 subscription adds $MQTT_PUBREL_<hash>
        QVERIFY(lab.addSession(u"keeper-1"_s, {u"keep/#"_s}, 1).subscribed());
        QVERIFY(lab.addSession(u"victim-2"_s, {u"site/victim-2/#"_s}, 1).subscribed());
        QVERIFY(lab.addSession(u"orphan-3"_s, {u"site/orphan-3/#"_s}, qos2 ? 2 : 1).subscribed());
        QVERIFY(lab.addSession(u"garbage-4"_s, {u"site/garbage-4/#"_s}, 1).subscribed());
        for (const QByteArray &p : {QByteArray("q1"), QByteArray("q2")})
            QVERIFY(lab.mqtt().publish(u"keep/queued"_s, p, 1).acknowledged);
        QVERIFY(lab.mqtt().publish(u"news/a"_s, "retained-a", 1, true).acknowledged);
        QVERIFY(lab.mqtt().publish(u"news/b"_s, "retained-b", 1, true).acknowledged);

        // Break them.
        QVERIFY(lab.publish(sessSubject(u"garbage-4"_s), "this is not a session").isEmpty());
        const QByteArray foreign = R"({"origin":"x","id":"someone-else","subs":{"a":1}})";
        QVERIFY(lab.publish(sessSubject(u"mismatch-5"_s), foreign).isEmpty());
        const QString victimHash = ClientIdHash::hash(u"victim-2"_s);
        // Every durable of the victim (a `#` filter has two): the message published later needs one of them back.
        const QStringList victimDurables = lab.consumerNames(u"$MQTT_msgs"_s).filter(victimHash + u'_');
        QVERIFY(!victimDurables.isEmpty());
        for (const QString &name : victimDurables)
            QVERIFY(lab.api(u"CONSUMER.DELETE.$MQTT_msgs."_s + name));
        QVERIFY(lab.api(u"STREAM.PURGE.$MQTT_sess"_s, QJsonObject{{u"filter"_s, sessSubject(u"orphan-3"_s)}}));
        const QString orphanHash = ClientIdHash::hash(u"orphan-3"_s);
        const QString garbageHash = ClientIdHash::hash(u"garbage-4"_s);

        const QMap<QString, QByteArray> keeperRecord = lab.contents(u"$MQTT_sess"_s, sessSubject(u"keeper-1"_s));
        const QMap<QString, QByteArray> retained = lab.contents(u"$MQTT_rmsgs"_s);
        QCOMPARE(keeperRecord.size(), 1);
        QCOMPARE(retained.size(), 2);
        const QStringList keeperDurables = [&] {
            QStringList out;
            for (const QString &n : lab.consumerNames(u"$MQTT_msgs"_s))
                if (n.startsWith(ClientIdHash::hash(u"keeper-1"_s) + u'_'))
                    out << n;
            return out;
        }();
        QVERIFY(!keeperDurables.isEmpty());

        auto in = lab.gather();
        QVERIFY2(in, qPrintable(in ? QString() : in.error().toString()));
        const QList<Finding> broken = Lab::findings(*in, recordCodes);
        QStringList codes;
        for (const Finding &f : broken)
            codes << f.code;
        for (const QString &c : recordCodes)
            QVERIFY2(codes.contains(c), qPrintable(codesOf(broken).join(u'\n')));
        const RepairPlan plan = lab.plan(*in, recordCodes);
        QVERIFY2(!plan.isEmpty() && plan.hasDestructiveSteps(), qPrintable(describePlan(plan)));
        for (const RepairStep &s : plan.steps) {
            QVERIFY2(!s.description.isEmpty() && !s.requests.isEmpty() && !s.precondition.isEmpty() && !s.verification.isEmpty(),
                     qPrintable(describePlan(plan)));
            QVERIFY2(!s.destructive || !s.backups.isEmpty(), qPrintable(describePlan(plan)));
            for (const RepairRequest &r : s.requests)
                QVERIFY2(!r.subject.startsWith("$MQTT.JSA."_L1), qPrintable(r.subject));
        }
        const auto stepsFor = [&plan](const QString &action) {
            int n = 0;
            for (const RepairStep &s : plan.steps)
                n += s.action == action ? 1 : 0;
            return n;
        };
        QCOMPARE(stepsFor(u"purge_session"_s), 2);
        QCOMPARE(stepsFor(u"create_consumer"_s), int(victimDurables.size()));
        QVERIFY2(stepsFor(u"delete_consumer"_s) >= 2, qPrintable(describePlan(plan))); // garbage-4's and orphan-3's durables

        // Read-only: refused by the executor and by every action itself; nothing changes.
        const QMap<QString, QString> before = lab.snapshot();
        auto refused = lab.run(plan, false);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind(), Error::Kind::ReadOnly);
        ExecContext roCtx;
        roCtx.target = lab.target(false);
        for (const RepairStep &s : plan.steps) {
            auto applied = RepairActionRegistry::find(s.action)->apply(s, roCtx);
            QVERIFY2(!applied && applied.error().kind() == Error::Kind::ReadOnly, qPrintable(s.description));
        }
        QCOMPARE(lab.snapshot(), before);

        // Dry run: every precondition says "run", nothing changes, no backup is written.
        auto dry = lab.run(plan, true, true);
        QVERIFY(dry);
        QVERIFY2(dry->stoppedBecause.isEmpty(), qPrintable(describePlan(plan, &*dry)));
        QCOMPARE(lab.snapshot(), before);
        QVERIFY(lab.backupFiles().isEmpty());

        // The repair.
        auto report = lab.run(plan);
        QVERIFY(report);
        QVERIFY2(report->complete, qPrintable(describePlan(plan, &*report)));
        QCOMPARE(report->backups.size(), lab.backupFiles().size());
        // A second run (a rerun after a crash) finds everything done.
        auto again = lab.run(plan);
        QVERIFY(again);
        QVERIFY2(again->complete && allState(*again, StepOutcome::State::AlreadyDone), qPrintable(describePlan(plan, &*again)));

        auto after = lab.gather();
        QVERIFY(after);
        QVERIFY2(Lab::findings(*after, recordCodes).isEmpty(), qPrintable(codesOf(Lab::findings(*after, recordCodes)).join(u'\n')));
        for (const QString &n : lab.consumerNames(u"$MQTT_msgs"_s) + lab.consumerNames(u"$MQTT_out"_s))
            QVERIFY2(!n.startsWith(orphanHash + u'_') && !n.startsWith(garbageHash + u'_') && !n.endsWith(orphanHash), qPrintable(n));
        QCOMPARE(lab.consumerNames(u"$MQTT_msgs"_s).filter(victimHash + u'_'), victimDurables);

        // Everything else is intact: the keeper's record and durables, the retained messages.
        QCOMPARE(lab.contents(u"$MQTT_sess"_s, sessSubject(u"keeper-1"_s)), keeperRecord);
        QCOMPARE(lab.contents(u"$MQTT_rmsgs"_s), retained);
        for (const QString &n : keeperDurables)
            QVERIFY(lab.consumerNames(u"$MQTT_msgs"_s).contains(n));

        // The clients: the victim receives a QoS 1 message published while it was offline (delivery works
        // again), the garbage one connects with a clean session, the keeper gets its queued messages.
        QVERIFY(lab.mqtt().publish(u"site/victim-2/alarm"_s, "after-repair", 1).acknowledged);
        const MqttResult victim = lab.mqtt().subscribeAndCollect(u"victim-2"_s, {u"site/victim-2/#"_s}, 1, 1, 10, true);
        QVERIFY2(victim.receivedPayloads().contains(u"after-repair"_s), qPrintable(victim.describe()));
        const MqttResult garbage = lab.connect(u"garbage-4"_s);
        QVERIFY2(garbage.connected(), qPrintable(garbage.describe()));
        const MqttResult keeper = lab.mqtt().subscribeAndCollect(u"keeper-1"_s, {u"keep/#"_s}, 1, 2, 10, true);
        QCOMPARE(keeper.receivedPayloads(), (QStringList{u"q1"_s, u"q2"_s}));
        const MqttResult news = lab.mqtt().subscribeAndCollect(QString(), {u"news/#"_s}, 1, 2, 10);
        QVERIFY2(news.receivedPayloads().contains(u"retained-a"_s) && news.receivedPayloads().contains(u"retained-b"_s),
                 qPrintable(news.describe()));

        // The backups restore what was removed: the foreign record, and an orphan durable's config.
        const QStringList mismatchFiles = backupsOf(
            plan, *report, [](const RepairStep &s) { return s.action == "purge_session"_L1 && s.subject == sessSubject(u"mismatch-5"_s); });
        QCOMPARE(mismatchFiles.size(), 1);
        auto restored = StreamRestore::run(lab.target(true), mismatchFiles.first(), {});
        QVERIFY2(restored && restored->restored == 1, qPrintable(restored ? restored->failures.join(u';') : restored.error().toString()));
        const QMap<QString, QByteArray> back = lab.contents(u"$MQTT_sess"_s, sessSubject(u"mismatch-5"_s));
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first(), foreign);
        QString orphanStepDurable;
        const QStringList orphanFiles = backupsOf(plan, *report, [&orphanStepDurable](const RepairStep &s) {
            const bool match = s.action == "delete_consumer"_L1 && s.findingCode == "ORPHAN_CONSUMER"_L1 && orphanStepDurable.isEmpty();
            if (match)
                orphanStepDurable = s.consumer;
            return match;
        });
        QCOMPARE(orphanFiles.size(), 1);
        RestoreOptions merge; // a configs-only backup: keep the stream's messages (StreamRestore refuses without merge)
        merge.merge = true;
        auto recreated = StreamRestore::run(lab.target(true), orphanFiles.first(), merge);
        QVERIFY2(recreated, qPrintable(recreated ? QString() : recreated.error().toString()));
        QVERIFY2(recreated->consumersCreated.contains(orphanStepDurable), qPrintable(recreated->consumersCreated.join(u',')));
    }

    void staleSession_data() { brokenRecords_data(); }

    // SESSION_STALE: the record and its durables go (backed up); a client that reconnects between plan and
    // run stops the step; a connected bystander is untouched.
    void staleSession()
    {
        QFETCH(QString, version);
        Lab lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(u"stale-6"_s, {u"old/#"_s}, 1).subscribed());
        QVERIFY(lab.addSession(u"back-7"_s, {u"back/#"_s}, 1).subscribed());
        QVERIFY(lab.addSession(u"online-8"_s, {u"live/#"_s}, 1).subscribed());
        QVERIFY(lab.mqtt().publish(u"old/queued"_s, "for-stale", 1).acknowledged);
        QVERIFY(lab.mqtt().publish(u"live/queued"_s, "for-online", 1).acknowledged);
        const QString staleHash = ClientIdHash::hash(u"stale-6"_s);
        const QMap<QString, QByteArray> staleRecord = lab.contents(u"$MQTT_sess"_s, sessSubject(u"stale-6"_s));
        QCOMPARE(staleRecord.size(), 1);
        QTest::qWait(1500);

        // online-8 stays connected (not stale); its session must survive.
        auto *online = new QProcess(this);
        online->start(u"mosquitto_sub"_s,
                      {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(lab.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s,
                       u"-i"_s, u"online-8"_s, u"-c"_s, u"-q"_s, u"1"_s, u"-t"_s, u"live/#"_s});
        QVERIFY(online->waitForStarted(5000));
        QStringList staleIds;
        std::optional<DiagnosisInput> in;
        for (int i = 0; i < 40; ++i) {
            QTest::qWait(250);
            auto g = lab.gather(1);
            QVERIFY(g);
            staleIds.clear();
            for (const Finding &f : Lab::findings(*g, {u"SESSION_STALE"_s}))
                staleIds << f.clientId;
            staleIds.sort();
            in = *g;
            if (staleIds == QStringList{u"back-7"_s, u"stale-6"_s})
                break;
        }
        QCOMPARE(staleIds, (QStringList{u"back-7"_s, u"stale-6"_s}));
        const RepairPlan plan = lab.plan(*in, {u"SESSION_STALE"_s});
        QVERIFY2(plan.steps.size() >= 4, qPrintable(describePlan(plan))); // per session: the record, then its durable(s)

        // back-7 reconnects after the plan: its step stops the run (the record changed); nothing of it is deleted.
        QVERIFY(lab.connect(u"back-7"_s).connected());
        const QStringList backDurables = lab.consumerNames(u"$MQTT_msgs"_s).filter(ClientIdHash::hash(u"back-7"_s) + u'_');
        QVERIFY(!backDurables.isEmpty());
        auto changed = lab.run(plan);
        QVERIFY(changed);
        QVERIFY2(!changed->complete && changed->stoppedBecause.contains(sessSubject(u"back-7"_s)),
                 qPrintable(describePlan(plan, &*changed)));
        QCOMPARE(lab.contents(u"$MQTT_sess"_s, sessSubject(u"back-7"_s)).size(), 1);
        QCOMPARE(lab.consumerNames(u"$MQTT_msgs"_s).filter(ClientIdHash::hash(u"back-7"_s) + u'_'), backDurables);

        // The stale-6 steps alone (done by the first run when they came first): the session goes, the rest stays.
        RepairPlan only;
        only.account = plan.account;
        for (const RepairStep &s : plan.steps)
            if (s.clientId == "stale-6"_L1)
                only.steps.append(s);
        auto report = lab.run(only);
        QVERIFY(report);
        QVERIFY2(report->complete, qPrintable(describePlan(only, &*report)));
        QVERIFY(lab.contents(u"$MQTT_sess"_s, sessSubject(u"stale-6"_s)).isEmpty());
        for (const QString &n : lab.consumerNames(u"$MQTT_msgs"_s))
            QVERIFY2(!n.startsWith(staleHash + u'_'), qPrintable(n));
        auto again = lab.run(only);
        QVERIFY2(again && again->complete && allState(*again, StepOutcome::State::AlreadyDone), qPrintable(describePlan(only, &*again)));
        online->kill();
        online->waitForFinished(5000);
        QCOMPARE(lab.contents(u"$MQTT_sess"_s, sessSubject(u"online-8"_s)).size(), 1);
        QVERIFY(lab.mqtt().publish(u"live/later"_s, "while-offline", 1).acknowledged);
        const MqttResult live = lab.mqtt().subscribeAndCollect(u"online-8"_s, {u"live/#"_s}, 1, 1, 10, true);
        QVERIFY2(live.receivedPayloads().contains(u"while-offline"_s), qPrintable(live.describe()));

        // The backup of the record step puts the record back byte for byte.
        const auto isRecordStep = [](const RepairStep &s) { return s.action == "delete_session"_L1 && s.clientId == "stale-6"_L1; };
        const QStringList files = backupsOf(plan, *changed, isRecordStep) + backupsOf(only, *report, isRecordStep);
        QCOMPARE(files.size(), 1);
        auto restored = StreamRestore::run(lab.target(true), files.first(), {});
        QVERIFY2(restored && restored->restored == 1, qPrintable(restored ? restored->failures.join(u';') : restored.error().toString()));
        QCOMPARE(lab.contents(u"$MQTT_sess"_s, sessSubject(u"stale-6"_s)).values(), staleRecord.values());
    }

    void legacyStreams_data() { brokenRecords_data(); }

    // LEGACY_SESSION_STREAMS: an empty one, a real record, a non-session record and one superseded by a newer
    // record in $MQTT_sess; all backed up and deleted, the real record moved with its bytes unchanged.
    void legacyStreams()
    {
        QFETCH(QString, version);
        Lab lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(u"keeper-1"_s, {u"keep/#"_s}, 1).subscribed());
        const auto makeLegacy = [&lab](const QString &hashOf, const QByteArray &record) {
            const QString name = u"$MQTT_sess_"_s + ClientIdHash::hash(hashOf);
            if (!lab.api(u"STREAM.CREATE."_s + name,
                         QJsonObject{{u"name"_s, name}, {u"subjects"_s, QJsonArray{name}}, {u"storage"_s, u"file"_s}, {u"max_msgs"_s, 1}}))
                return QString();
            if (!record.isEmpty() && !lab.publish(name, record).isEmpty())
                return QString();
            return name;
        };
        const QByteArray legacyRecord = R"({"origin":"old","id":"legacy-7","subs":{"legacy.a":0}})";
        const QByteArray supersededRecord = R"({"origin":"old","id":"keeper-1","subs":{"old.a":0}})";
        const QString empty = makeLegacy(u"empty-9"_s, {});
        const QString real = makeLegacy(u"legacy-7"_s, legacyRecord);
        const QString junk = makeLegacy(u"junk-10"_s, "not a session");
        const QString superseded = makeLegacy(u"keeper-1"_s, supersededRecord);
        QVERIFY(!empty.isEmpty() && !real.isEmpty() && !junk.isEmpty() && !superseded.isEmpty());
        QVERIFY(lab.addSession(u"keeper-1"_s, {u"keep/#"_s}, 1).subscribed()); // its record is now newer than the legacy one
        const QMap<QString, QByteArray> keeperRecord = lab.contents(u"$MQTT_sess"_s, sessSubject(u"keeper-1"_s));

        auto in = lab.gather();
        QVERIFY(in);
        const QStringList code{u"LEGACY_SESSION_STREAMS"_s};
        QCOMPARE(Lab::findings(*in, code).size(), 4);
        const RepairPlan plan = lab.plan(*in, code);
        QCOMPARE(plan.steps.size(), 4);
        const QMap<QString, QString> before = lab.snapshot();
        QVERIFY(lab.run(plan, true, true));
        QCOMPARE(lab.snapshot(), before);
        auto report = lab.run(plan);
        QVERIFY(report);
        QVERIFY2(report->complete, qPrintable(describePlan(plan, &*report)));
        auto again = lab.run(plan);
        QVERIFY2(again && allState(*again, StepOutcome::State::AlreadyDone), qPrintable(describePlan(plan, &*again)));

        auto after = lab.gather();
        QVERIFY(after);
        QVERIFY(Lab::findings(*after, code).isEmpty());
        const QStringList streams = JetStreamClient(lab.conn).streamNames().value();
        for (const QString &s : {empty, real, junk, superseded})
            QVERIFY2(!streams.contains(s), qPrintable(s));
        const QMap<QString, QByteArray> moved = lab.contents(u"$MQTT_sess"_s, sessSubject(u"legacy-7"_s));
        QCOMPARE(moved.size(), 1);
        QCOMPARE(moved.first(), legacyRecord);
        QCOMPARE(lab.contents(u"$MQTT_sess"_s, sessSubject(u"keeper-1"_s)), keeperRecord);
        QVERIFY(lab.contents(u"$MQTT_sess"_s, sessSubject(u"junk-10"_s)).isEmpty());
        QVERIFY2(lab.connect(u"legacy-7"_s).connected(), "the moved session loads");

        // Every deleted stream comes back from its backup.
        QCOMPARE(report->backups.size(), 4);
        const QStringList junkFiles = backupsOf(plan, *report, [&junk](const RepairStep &s) { return s.stream == junk; });
        QCOMPARE(junkFiles.size(), 1);
        auto restored = StreamRestore::run(lab.target(true), junkFiles.first(), {});
        QVERIFY2(restored && restored->streamCreated && restored->restored == 1,
                 qPrintable(restored ? restored->failures.join(u';') : restored.error().toString()));
        QCOMPARE(lab.contents(junk).values(), (QList<QByteArray>{"not a session"}));
    }
};

QTEST_GUILESS_MAIN(TestRepairSessions)
#include "tst_repairsessions.moc"
