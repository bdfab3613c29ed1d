// The operator actions (delete-sessions, disconnect, clear-retained, drop-backlog) against real servers of every
// version, judged by what real MQTT clients see: a deleted session's client starts clean and without its old
// subscriptions, a disconnected client is dropped (and its reconnect shows), a cleared retained message is not
// delivered while the others still are, a dropped backlog is not delivered while another session's copy is; every
// action's backup restores the exact state, and a stopped run continues from its journal.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "diagnosis/mqttwireclient.h"
#include "livecheck.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "natsserverfixture.h"
#include "repair/backupfile.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "records/mqttconnections.h"
#include "repair/operator/operatorrun.h"
#include "repair/streamrestore.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::StringLiterals;

namespace {

MqttClient acmeMqtt(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), u"acme"_s, u"acmepass"_s);
}

/** ACME's user with the system user, changes allowed, and (withMqtt) the account's MQTT user for the probe and the actions. */
Profile profileFor(const NatsServerFixture &server, bool withSystem = true, bool withMqtt = true, bool allowChanges = true)
{
    Profile p = withSystem ? acmeWithSystemProfile(server.url(), allowChanges) : acmeProfile(server.url(), allowChanges);
    if (withMqtt)
        p.mqttProbe.insert(acme(), MqttProbeSettings{u"127.0.0.1:%1"_s.arg(server.mqttPort()), u"acme"_s, u"acmepass"_s});
    return p;
}

MqttProbeRequest mqttRequest(const NatsServerFixture &server)
{
    MqttProbeRequest r;
    r.account = acme();
    r.host = u"127.0.0.1"_s;
    r.port = server.mqttPort();
    r.user = u"acme"_s;
    r.password = u"acmepass"_s;
    return r;
}

/** The last message on `subject` of `stream` now (its raw reply), or an empty object when there is none. */
QJsonObject lastOn(ConnectionSet &set, const QString &stream, const QString &subject)
{
    auto conn = set.primary();
    if (!conn)
        return {};
    auto r = JetStreamClient(*conn).call(u"STREAM.MSG.GET."_s + stream, QJsonObject{{u"last_by_subj"_s, subject}});
    return r ? r->value(u"message"_s).toObject() : QJsonObject();
}

bool consumerExists(ConnectionSet &set, const QString &stream, const QString &name)
{
    auto conn = set.primary();
    return conn && bool(JetStreamClient(*conn).call(u"CONSUMER.INFO.%1.%2"_s.arg(stream, name)));
}

QString sessionSubject(const QString &clientId)
{
    return u"$MQTT.sess."_s + ClientIdHash::hash(clientId);
}

QString describe(const OperatorRun &run)
{
    QStringList lines{u"plan notes: "_s + run.plan().notes.join(u" | "_s)};
    for (const ActionSelection::Item &i : run.plan().selection.left)
        lines << u"  left: %1%2: %3"_s.arg(i.clientId, i.topic, i.why);
    for (const RepairStep &s : run.plan().plan.steps)
        lines << u"  step %1 %2: %3"_s.arg(s.id, s.action, s.description);
    if (run.report()) {
        for (const StepOutcome &o : run.report()->outcomes)
            lines << u"  outcome %1: %2 %3 %4"_s.arg(o.stepId, StepOutcome::stateName(o.state), o.message,
                                                     QString::fromUtf8(QJsonDocument(o.responses).toJson(QJsonDocument::Compact)));
        lines << u"  stopped: "_s + run.report()->stoppedBecause;
    }
    return lines.join(u'\n');
}

OperatorRun::Options optionsFor(OperatorRequest::Verb verb, const QStringList &ids, const QString &dir)
{
    OperatorRun::Options o;
    o.request.verb = verb;
    o.request.account = acme();
    if (verb == OperatorRequest::Verb::ClearRetained)
        o.request.topics = ids;
    else
        o.request.clientIds = ids;
    o.backupDir = QDir(dir).filePath(u"backups"_s);
    o.auditPath = QDir(dir).filePath(u"audit.jsonl"_s);
    o.reconnectWaitMs = 0;
    return o;
}

/** A client that stays connected and reconnects by itself (mosquitto_sub without -E). */
std::unique_ptr<QProcess> liveClient(const NatsServerFixture &server, const QString &clientId, const QString &topic)
{
    auto p = std::make_unique<QProcess>();
    p->start(u"mosquitto_sub"_s,
             {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(server.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s, u"-i"_s,
              clientId, u"-c"_s, u"-q"_s, u"1"_s, u"-t"_s, topic});
    p->waitForStarted(5000);
    return p;
}

/** Waits until `clientId` is connected (CONNZ through the system user), at most 5 s. */
bool waitConnected(ConnectionSet &set, const QString &clientId)
{
    for (int i = 0; i < 50; ++i) {
        auto sys = set.system();
        if (sys) {
            SystemClient client(*sys);
            auto conns = MqttConnections::find(client, acme(), {clientId});
            if (conns && !conns->isEmpty())
                return true;
        }
        QTest::qWait(100);
    }
    return false;
}

void restoreAll(const Profile &profile, const QStringList &files)
{
    ConnectionSet set(profile);
    auto target = RepairTarget::resolve(set, acme());
    QVERIFY2(target, target ? "" : qPrintable(target.error().toString()));
    for (const QString &f : files) {
        RestoreOptions ro;
        ro.merge = true;
        auto r = StreamRestore::run(*target, f, ro);
        QVERIFY2(r && r->complete(), r ? qPrintable(r->failures.join(u'\n')) : qPrintable(r.error().toString()));
    }
}

} // namespace

class TestOperatorActions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // A deleted session's backup restores it byte for byte; deleted again, its client reconnects at the first
    // attempt with "session present" 0 and without its old subscription, and another session is untouched.
    void deleteSessionStartsClean_data() { addServerVersionRows(); }
    void deleteSessionStartsClean()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        QVERIFY(mqtt.createPersistentSession(u"dev1"_s, {u"t/dev1"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"keeper"_s, {u"t/keep"_s}, 1).subscribed());
        QVERIFY(mqtt.publish(u"t/dev1"_s, "queued", 1, false, u"pub1"_s).acknowledged);
        QTemporaryDir dir;
        const Profile profile = profileFor(server);
        ConnectionSet set(profile);
        const QJsonObject before = lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"dev1"_s));
        QVERIFY(!before.isEmpty());
        const QJsonObject keeperBefore = lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"keeper"_s));

        OperatorRun run(set, optionsFor(OperatorRequest::Verb::DeleteSessions, {u"dev1"_s, u"nobody"_s}, dir.path()));
        QVERIFY2(run.prepare(), "prepare");
        QCOMPARE(run.plan().counts.sessions, 1);
        QCOMPARE(run.plan().counts.durables, 1);
        QCOMPARE(run.plan().counts.queuedMessages, 1);
        QCOMPARE(run.plan().selection.left.size(), 1);
        QCOMPARE(run.plan().selection.left.first().why, u"no session record"_s);
        const QString durable =
            run.plan().plan.steps.first().params.value(u"consumers"_s).toArray().first().toObject().value(u"name"_s).toString();
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run)));
        QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"dev1"_s)).isEmpty());
        QVERIFY(!consumerExists(set, u"$MQTT_msgs"_s, durable));
        QCOMPARE(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"keeper"_s)), keeperBefore);
        QCOMPARE(run.exitCode(), 1); // "nobody" was left alone

        // The backup puts the record (same bytes) and the durable back.
        restoreAll(profile, report->backups);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject restored = lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"dev1"_s));
        QCOMPARE(restored.value(u"data"_s), before.value(u"data"_s));
        QVERIFY(consumerExists(set, u"$MQTT_msgs"_s, durable));

        // Deleted again: the client's first reconnect gets a clean session without its subscription.
        OperatorRun again(set, optionsFor(OperatorRequest::Verb::DeleteSessions, {u"dev1"_s}, dir.path()));
        QVERIFY(again.prepare());
        auto second = again.run();
        QVERIFY2(second && second->complete, qPrintable(describe(again)));
        MqttWireClient device(mqttRequest(server), u"dev1"_s, false);
        QString why;
        QVERIFY2(device.connect(&why), qPrintable(why + u'\n' + server.logTail()));
        QVERIFY(!device.sessionPresent());
        QVERIFY(mqtt.publish(u"t/dev1"_s, "after", 1, false, u"pub2"_s).acknowledged);
        QVERIFY(!device.waitMessage(u"t/dev1"_s, 1500));
        QVERIFY(!server.logTail().contains(u"wrong last sequence: 0"_s));
        // The audit log has an entry per step.
        QFile audit(QDir(dir.path()).filePath(u"audit.jsonl"_s));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        QVERIFY(audit.readAll().contains("delete_sessions"));
    }

    // By policy: sessions not seen for a while and matching a glob go; a connected client's session stays (and is
    // named), unless it is disconnected first.
    void deleteByPolicyLeavesConnected()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        QVERIFY(mqtt.createPersistentSession(u"sensor-1"_s, {u"s/1"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"sensor-2"_s, {u"s/2"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"gateway"_s, {u"g/1"_s}, 1).subscribed());
        const auto live = liveClient(server, u"sensor-live"_s, u"s/live"_s);
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server));
        QVERIFY(waitConnected(set, u"sensor-live"_s));
        QTest::qWait(2200);

        OperatorRun::Options o = optionsFor(OperatorRequest::Verb::DeleteSessions, {}, dir.path());
        o.request.policy.notSeenForSecs = 2;
        o.request.policy.clientIdGlob = u"sensor-*"_s;
        OperatorRun run(set, o);
        QVERIFY(run.prepare());
        QCOMPARE(run.plan().counts.sessions, 2); // sensor-1, sensor-2; not gateway (glob), not sensor-live (connected)
        // A connected client is never "not seen": it does not match the policy at all.
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run)));
        QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"sensor-1"_s)).isEmpty());
        QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"sensor-2"_s)).isEmpty());
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"gateway"_s)).isEmpty());
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"sensor-live"_s)).isEmpty());

        // By ID, the connected one is left alone and named; with disconnect-first it goes.
        OperatorRun byId(set, optionsFor(OperatorRequest::Verb::DeleteSessions, {u"sensor-live"_s}, dir.path()));
        QVERIFY(byId.prepare());
        QVERIFY(byId.plan().isEmpty());
        QCOMPARE(byId.plan().selection.left.size(), 1);
        QVERIFY2(byId.plan().selection.left.first().why.startsWith(u"connected to"_s), qPrintable(describe(byId)));
        live->kill();
        live->waitForFinished();
        // The policy "no subscriptions" takes no session that has one.
        OperatorRun::Options none = optionsFor(OperatorRequest::Verb::DeleteSessions, {}, dir.path());
        none.request.policy.noSubscriptions = true;
        OperatorRun noSubs(set, none);
        QVERIFY(noSubs.prepare());
        QCOMPARE(noSubs.plan().counts.sessions, 0);
    }

    // A client is disconnected (the kick request on 2.10+, a takeover through MQTT on 2.9); its automatic reconnect shows.
    void disconnectShowsReturn_data() { addServerVersionRows(); }
    void disconnectShowsReturn()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const auto live = liveClient(server, u"kicked"_s, u"k/1"_s);
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server));
        QVERIFY(waitConnected(set, u"kicked"_s));
        OperatorRun::Options o = optionsFor(OperatorRequest::Verb::Disconnect, {u"kicked"_s, u"absent"_s}, dir.path());
        o.reconnectWaitMs = 8000;
        OperatorRun run(set, o);
        QVERIFY(run.prepare());
        QCOMPARE(run.plan().counts.connections, 1);
        const QString method = run.plan().plan.steps.first().params.value(u"method"_s).toString();
        QCOMPARE(method, version.startsWith(u"2.9"_s) ? u"takeover"_s : u"kick"_s);
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run) + u'\n' + server.logTail()));
        QCOMPARE(run.returns().size(), 1);
        QVERIFY2(run.returns().first().returned, qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 1); // "absent" left alone, "kicked" came back

        // Without the system user and without the MQTT user nothing can close it: said, not tried.
        ConnectionSet bare(profileFor(server, false, false));
        OperatorRun none(bare, optionsFor(OperatorRequest::Verb::Disconnect, {u"kicked"_s}, dir.path()));
        QVERIFY(none.prepare());
        QVERIFY2(none.plan().isEmpty(), qPrintable(describe(none)));
        QCOMPARE(none.plan().selection.left.size(), 1);
        live->kill();
        live->waitForFinished();
    }

    // Retained messages matching a filter are cleared (through MQTT): a new subscriber gets none of them and still
    // gets the others; the backup puts them back on the stream.
    void clearRetainedByFilter_data() { addServerVersionRows(); }
    void clearRetainedByFilter()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        QVERIFY(mqtt.publish(u"status/gateway"_s, "up", 1, true, u"p1"_s).acknowledged);
        QVERIFY(mqtt.publish(u"sensors/a/temp"_s, "21", 1, true, u"p2"_s).acknowledged);
        QVERIFY(mqtt.publish(u"sensors/b/temp"_s, "22", 1, true, u"p3"_s).acknowledged);
        QTemporaryDir dir;
        const Profile profile = profileFor(server);
        ConnectionSet set(profile);
        OperatorRun run(set, optionsFor(OperatorRequest::Verb::ClearRetained, {u"sensors/+/temp"_s, u"nothing/here"_s}, dir.path()));
        QVERIFY(run.prepare());
        QCOMPARE(run.plan().counts.retained, 2);
        QCOMPARE(run.plan().selection.left.size(), 1);
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run) + u'\n' + server.logTail()));
        const MqttResult sensors = mqtt.subscribeAndCollect(u"reader1"_s, {u"sensors/#"_s}, 1, 1, 2);
        QVERIFY2(sensors.messages.isEmpty(), qPrintable(sensors.describe()));
        const MqttResult gateway = mqtt.subscribeAndCollect(u"reader2"_s, {u"status/gateway"_s}, 1, 1, 4);
        QCOMPARE(gateway.receivedPayloads(), QStringList{u"up"_s});
        // The backup holds both, in the encoding the server wrote; restored, the stream has them again.
        restoreAll(profile, report->backups);
        if (QTest::currentTestFailed())
            return;
        OperatorRun count(set, optionsFor(OperatorRequest::Verb::ClearRetained, {u"sensors/#"_s}, dir.path()));
        QVERIFY(count.prepare());
        QCOMPARE(count.plan().counts.retained, 2);
    }

    // Without the account's MQTT user: deletes by sequence where the version lets that reach clients (newest), and
    // on 2.9 (every retained message held in memory) nothing, with the reason.
    void clearRetainedWithoutMqtt_data() { addServerVersionRows(); }
    void clearRetainedWithoutMqtt()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        QVERIFY(mqtt.publish(u"status/old"_s, "stale", 1, true, u"p1"_s).acknowledged);
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server, true, false));
        OperatorRun run(set, optionsFor(OperatorRequest::Verb::ClearRetained, {u"status/old"_s}, dir.path()));
        QVERIFY(run.prepare());
        if (version.startsWith(u"2.9"_s)) {
            QVERIFY(run.plan().isEmpty());
            QVERIFY2(run.plan().notes.join(u' ').contains(u"in memory"_s), qPrintable(describe(run)));
            return;
        }
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run)));
        if (version.startsWith(u"2.10"_s))
            return; // up to 2 minutes of cache: the plan says so (a note), a subscriber may still see it
        const MqttResult sub = mqtt.subscribeAndCollect(u"reader"_s, {u"status/old"_s}, 1, 1, 2);
        QVERIFY2(sub.messages.isEmpty(), qPrintable(sub.describe()));
    }

    // Dropping one session's backlog: it gets none of its queued messages, another session waiting for the same
    // messages gets every one.
    void dropBacklogKeepsOthers_data() { addServerVersionRows(); }
    void dropBacklogKeepsOthers()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        QVERIFY(mqtt.createPersistentSession(u"dead-device"_s, {u"fleet/cmd"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"live-device"_s, {u"fleet/cmd"_s}, 1).subscribed());
        for (int i = 0; i < 5; ++i)
            QVERIFY(mqtt.publish(u"fleet/cmd"_s, QByteArray("cmd") + QByteArray::number(i), 1, false, u"pub%1"_s.arg(i)).acknowledged);
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server));
        OperatorRun run(set, optionsFor(OperatorRequest::Verb::DropBacklog, {u"dead-device"_s}, dir.path()));
        QVERIFY(run.prepare());
        QCOMPARE(run.plan().counts.queuedMessages, 5);
        auto report = run.run();
        QVERIFY2(report && report->complete, qPrintable(describe(run)));
        const MqttResult dead = mqtt.subscribeAndCollect(u"dead-device"_s, {u"fleet/cmd"_s}, 1, 5, 3, true);
        QVERIFY2(dead.messages.isEmpty(), qPrintable(dead.describe()));
        const MqttResult liveOne = mqtt.subscribeAndCollect(u"live-device"_s, {u"fleet/cmd"_s}, 1, 5, 6, true);
        QCOMPARE(liveOne.receivedPayloads().size(), 5);
        // The durable is the one the record names and delivers new messages again.
        QVERIFY(mqtt.publish(u"fleet/cmd"_s, "fresh", 1, false, u"pub-fresh"_s).acknowledged);
        const MqttResult fresh = mqtt.subscribeAndCollect(u"dead-device"_s, {u"fleet/cmd"_s}, 1, 1, 4, true);
        QVERIFY2(fresh.receivedPayloads().contains(u"fresh"_s), qPrintable(fresh.describe()));
    }

    // A run stopped after its first batch continues from its journal: every planned session goes, none twice,
    // and the sessions not selected stay.
    void resumeFromJournal()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s, ServerConfig::standard()), qPrintable(server.errorString()));
        const MqttClient mqtt = acmeMqtt(server);
        for (int i = 0; i < 9; ++i)
            QVERIFY(mqtt.createPersistentSession(u"batch-%1"_s.arg(i), {u"b/%1"_s.arg(i)}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"other"_s, {u"o/1"_s}, 1).subscribed());
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server, true, false));
        std::atomic<bool> cancel{false};
        OperatorRun::Options o = optionsFor(OperatorRequest::Verb::DeleteSessions, {}, dir.path());
        o.request.policy.clientIdGlob = u"batch-*"_s;
        o.request.batchSize = 3;
        o.cancel = &cancel;
        o.beforeApply = [&cancel](const RepairStep &step, const QStringList &) {
            if (step.id == u"1"_s)
                cancel = true; // stops before step 2
        };
        OperatorRun run(set, o);
        QVERIFY(run.prepare());
        QCOMPARE(run.plan().plan.steps.size(), 3);
        auto report = run.run();
        QVERIFY(report && !report->complete);
        QCOMPARE(run.exitCode(), 2);
        const QString journal = run.journalPath();
        QVERIFY(QFile::exists(journal));

        ConnectionSet again(profileFor(server, true, false));
        OperatorRun resumed(again, OperatorRun::Options{});
        QVERIFY2(resumed.prepareResume(journal), "resume");
        QCOMPARE(resumed.plan().plan.steps.size(), 2);
        auto rest = resumed.run();
        QVERIFY2(rest && rest->complete, qPrintable(describe(resumed)));
        for (int i = 0; i < 9; ++i)
            QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"batch-%1"_s.arg(i))).isEmpty());
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"other"_s)).isEmpty());
        // A journal that is not one is refused with a clear error.
        QFile bogus(QDir(dir.path()).filePath(u"bogus.jsonl"_s));
        QVERIFY(bogus.open(QIODevice::WriteOnly));
        bogus.write("{\"hello\":1}\n");
        bogus.close();
        OperatorRun wrong(again, OperatorRun::Options{});
        auto refused = wrong.prepareResume(bogus.fileName());
        QVERIFY(!refused);
        QVERIFY(refused.error().message().contains(u"not a journal"_s));
    }

    // Two of three nodes lost in the middle of a delete on a 3-node cluster: the step without quorum stops the run
    // before it deletes anything (its backup cannot even be read), the journal says what was done; with the nodes
    // back the run continues from it, and every deleted record is in a backup file.
    void nodesLostMidRunResume()
    {
        NatsClusterFixture cluster;
        ServerConfig config = ServerConfig::standard();
        config.setMqttStreamReplicas(3);
        QVERIFY2(cluster.start(u"newest"_s, config), qPrintable(cluster.errorString()));
        MqttClient mqtt(cluster.node(0).mqttPort(), u"acme"_s, u"acmepass"_s);
        mqtt.setTimeoutMs(30000);
        for (int i = 0; i < 6; ++i)
            QVERIFY(mqtt.createPersistentSession(u"node-%1"_s.arg(i), {u"n/%1"_s.arg(i)}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"stays"_s, {u"s/1"_s}, 1).subscribed());
        QTemporaryDir dir;
        Profile profile = acmeWithSystemProfile(cluster.node(0).url(), true);
        bool stopped = false;
        QString journal;
        OperatorRun::Options o = optionsFor(OperatorRequest::Verb::DeleteSessions, {}, dir.path());
        o.request.policy.clientIdGlob = u"node-*"_s;
        o.request.batchSize = 2;
        {
            ConnectionSet set(profile);
            o.beforeApply = [&](const RepairStep &step, const QStringList &) {
                if (step.id == u"2"_s && !stopped)
                    stopped = cluster.stopNode(1, false) && cluster.stopNode(2, false);
            };
            OperatorRun run(set, o);
            QVERIFY(run.prepare());
            QCOMPARE(run.plan().plan.steps.size(), 3);
            auto report = run.run();
            QVERIFY2(stopped, qPrintable(cluster.errorString()));
            QVERIFY2(report && !report->complete, qPrintable(describe(run)));
            QCOMPARE(report->outcomes.at(0).state, StepOutcome::State::Applied);
            QCOMPARE(report->outcomes.at(1).state, StepOutcome::State::Failed);
            QVERIFY2(!report->stoppedBecause.isEmpty(), qPrintable(describe(run)));
            journal = run.journalPath();
            QVERIFY(QFile::exists(journal));
        }
        QVERIFY2(cluster.startNode(1) && cluster.startNode(2), qPrintable(cluster.errorString()));
        ConnectionSet set(profile);
        OperatorRun resumed(set, OperatorRun::Options{});
        QVERIFY(resumed.prepareResume(journal));
        QCOMPARE(resumed.plan().plan.steps.size(), 2);
        // The cluster may need a moment to elect leaders for the streams again: a rerun is what an operator does.
        std::optional<RepairExecutor::Report> rest;
        for (int attempt = 0; attempt < 10 && !(rest && rest->complete); ++attempt) {
            if (attempt > 0) {
                QTest::qWait(1000);
                QVERIFY(resumed.prepareResume(journal));
            }
            auto r = resumed.run();
            if (r)
                rest = *r;
        }
        QVERIFY2(rest && rest->complete, qPrintable(describe(resumed)));
        for (int i = 0; i < 6; ++i)
            QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"node-%1"_s.arg(i))).isEmpty());
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"stays"_s)).isEmpty());
        // Nothing lost: the six records are in the backup files of $MQTT_sess.
        qint64 backedUp = 0;
        for (const QString &f : QDir(QFileInfo(journal).absolutePath()).entryList({u"*MQTT_sess.jsonl"_s}, QDir::Files)) {
            auto summary = BackupFileReader::read(QDir(QFileInfo(journal).absolutePath()).filePath(f));
            QVERIFY(summary);
            backedUp += qint64(summary->trailer.messages);
        }
        QCOMPARE(backedUp, qint64(6));
    }

    // Read-only: the plan is shown and nothing runs; bad input is refused before anything is read.
    void refusals()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s, ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeMqtt(server).createPersistentSession(u"ro"_s, {u"r/1"_s}, 1).subscribed());
        QTemporaryDir dir;
        ConnectionSet set(profileFor(server, true, false, false));
        OperatorRun run(set, optionsFor(OperatorRequest::Verb::DeleteSessions, {u"ro"_s}, dir.path()));
        QVERIFY(run.prepare());
        QVERIFY(!run.plan().isEmpty());
        QVERIFY(run.blocked() && run.blocked()->kind() == Error::Kind::ReadOnly);
        auto ran = run.run();
        QVERIFY(!ran);
        QCOMPARE(ran.error().kind(), Error::Kind::ReadOnly);
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"ro"_s)).isEmpty());

        OperatorRun nothing(set, optionsFor(OperatorRequest::Verb::DeleteSessions, {}, dir.path()));
        auto refused = nothing.prepare();
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind(), Error::Kind::InvalidInput);
        OperatorRun badFilter(set, optionsFor(OperatorRequest::Verb::ClearRetained, {u"a/#/b"_s}, dir.path()));
        QVERIFY(!badFilter.prepare());

        // The CLI: a usage error (64), and a dry run's JSON names its schema and changes nothing.
        const QStringList acmeArgs = acmeWithSystemArgs(server.url());
        const CliRunner::Run usage = CliRunner::run(acmeArgs + QStringList{u"delete-sessions"_s});
        QCOMPARE(usage.exitCode(), 64);
        const CliRunner::Run dry = CliRunner::run(acmeArgs + QStringList{u"--json"_s, u"delete-sessions"_s, u"ro"_s, u"--dry-run"_s});
        QCOMPARE(dry.json.value(u"schema"_s).toString(), u"nats-mqtt-doctor/action/1"_s);
        QCOMPARE(dry.json.value(u"counts"_s).toObject().value(u"sessions"_s).toInt(), 1);
        QVERIFY(!lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"ro"_s)).isEmpty());
        const CliRunner::Run blocked = CliRunner::run(acmeArgs + QStringList{u"delete-sessions"_s, u"ro"_s, u"--yes"_s});
        QCOMPARE(blocked.exitCode(), 3);
        QVERIFY2(blocked.process.standardError.contains("allow-changes"), qPrintable(blocked.describe()));
        // Allowed, in text mode: the plan, then what was done, the backups and the journal.
        const CliRunner::Run done = CliRunner::run(acmeArgs
                                                   + QStringList{u"--allow-changes"_s, u"delete-sessions"_s, u"ro"_s, u"--yes"_s,
                                                                 u"--backup-dir"_s, QDir(dir.path()).filePath(u"cli"_s)});
        QCOMPARE(done.exitCode(), 0);
        QVERIFY2(done.out().contains(u"Done: 1 session record, 1 durable and 0 QoS 2 records deleted."_s), qPrintable(done.describe()));
        QVERIFY2(done.out().contains(u"journal: "_s) && done.out().contains(u"backup: "_s), qPrintable(done.describe()));
        QVERIFY(lastOn(set, u"$MQTT_sess"_s, sessionSubject(u"ro"_s)).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestOperatorActions)
#include "tst_operatoractions.moc"
