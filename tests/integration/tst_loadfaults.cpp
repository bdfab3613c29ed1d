// Faults under load, with real servers and real MQTT clients:
// * 200 persistent mosquitto subscribers connected and receiving, one publisher per group, and a client that keeps
//   connecting: check, sessions and a repair run meanwhile; every message reaches every subscriber of its group,
//   and the sessions with their queued messages are intact afterwards;
// * a 3-node cluster: a node is stopped while sessions load and while a repair runs; the tool either finishes or
//   reports clearly, a rerun after the node is back succeeds, and the MQTT state is what it was.

#include <QJsonArray>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include <sys/resource.h>

#include "livecheck.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "mqttload.h"
#include "natsclusterfixture.h"
#include "repairrun.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::Literals::StringLiterals;

namespace {

struct CliOutcome
{
    int exitCode = -1;
    bool crashed = false;
    QByteArray out;
    QByteArray err;
    QJsonObject json;
    QString describe() const
    {
        return u"exit %1%2\nstdout: %3\nstderr: %4"_s.arg(exitCode).arg(
            crashed ? u" (crashed)"_s : QString(), QString::fromUtf8(out.left(3000)), QString::fromUtf8(err.left(3000)));
    }
};

/**
 * Runs the CLI while `whileRunning` is called once right after it started and then every 50 ms
 * (publishing, stopping a node, ...): a command may well be done in less than 50 ms.
 */
CliOutcome runCli(const QStringList &args, const std::function<void()> &whileRunning = {}, int timeoutMs = 180000)
{
    QProcess p;
    p.start(CliRunner::path(), args);
    CliOutcome o;
    if (!p.waitForStarted(5000))
        return o;
    QDeadlineTimer deadline(timeoutMs);
    if (whileRunning)
        whileRunning();
    while (!p.waitForFinished(50)) {
        if (deadline.hasExpired()) {
            p.kill();
            p.waitForFinished(5000);
            o.err = "test: the CLI did not finish in time";
            return o;
        }
        if (whileRunning)
            whileRunning();
    }
    o.crashed = p.exitStatus() == QProcess::CrashExit;
    o.exitCode = p.exitCode();
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    o.json = QJsonDocument::fromJson(o.out).object();
    return o;
}

/** "client_id: topic,topic | pending N" of every load-* session, sorted. */
QStringList loadSessions(const QJsonObject &json, bool withPending)
{
    QStringList out;
    for (const QJsonValue &v : json.value(u"sessions"_s).toArray()) {
        const QJsonObject s = v.toObject();
        const QString id = s.value(u"client_id"_s).toString();
        if (!id.startsWith(u"load-"_s) || id.startsWith(u"load-pub"_s))
            continue;
        QStringList topics;
        for (const QJsonValue &sub : s.value(u"subscriptions"_s).toArray())
            topics << sub.toObject().value(u"topic"_s).toString();
        topics.sort();
        qint64 pending = 0;
        bool allExist = true;
        for (const QJsonValue &c : s.value(u"consumers"_s).toArray()) {
            allExist = allExist && c.toObject().value(u"exists"_s).toBool();
            pending += c.toObject().value(u"pending"_s).toInteger();
        }
        QString line = u"%1: %2%3"_s.arg(id, topics.join(u','), allExist ? QString() : u" (consumer missing)"_s);
        if (withPending)
            line += u" | pending %1"_s.arg(pending);
        out << line;
    }
    out.sort();
    return out;
}

QStringList codesOf(const QJsonObject &json)
{
    QStringList out;
    for (const QJsonValue &v : json.value(u"findings"_s).toArray())
        out << v.toObject().value(u"code"_s).toString();
    out.sort();
    return out;
}

// Whether a check's JSON says it could not read the session records of `account`.
bool recordsNotChecked(const QJsonObject &json, const QString &account)
{
    for (const QJsonValue &v : json.value(u"not_checked"_s).toArray()) {
        const QJsonObject gap = v.toObject();
        if (gap.value(u"account"_s).toString() == account && gap.value(u"level"_s).toString() == u"records"_s)
            return true;
    }
    return false;
}

void raiseFileLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max; // 200 clients with their pipes and files
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

} // namespace

class TestLoadFaults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        raiseFileLimit();
    }

    void checkSessionsAndRepairUnderLoad()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s, ServerConfig::standard()), qPrintable(server.errorString()));
        const QString url = server.url();
        QTemporaryDir dir;
        MqttLoad load({QString::number(server.mqttPort())}, u"acme"_s, u"acmepass"_s, dir.path());
        constexpr int kClients = 200;
        constexpr int kGroups = 20;
        QVERIFY2(load.startSubscribers(kClients, kGroups, 180000), qPrintable(load.errorString()));
        QVERIFY2(load.startPublishers(), qPrintable(load.errorString()));
        std::atomic<bool> stopChurn{false};
        std::atomic<int> churned{0};
        std::thread churn([&] {
            const MqttClient c(server.mqttPort(), u"acme"_s, u"acmepass"_s);
            while (!stopChurn.load())
                (void)c.connectOnce(u"churn-%1"_s.arg(churned.fetch_add(1)));
        });
        // Stops and joins the churning client also when a check below fails and returns early.
        const auto joinChurn = qScopeGuard([&] {
            stopChurn = true;
            if (churn.joinable())
                churn.join();
        });
        const auto publish = [&load] { load.publishRound(); };

        // Broken meanwhile: the per-subject limit of the sessions stream, a missing stream, a garbage record.
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({url}, u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(u"$MQTT_sess"_s, {{u"max_msgs_per_subject"_s, 5}}), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(u"$MQTT_qos2in"_s), qPrintable(admin.error()));
        QVERIFY2(admin.store(u"$MQTT.sess."_s + ClientIdHash::hash(u"not-a-load-client"_s), "garbage"), qPrintable(admin.error()));

        const QStringList both = acmeArgs(url) + QStringList{u"--system-user"_s, u"sys"_s, u"--system-password"_s, u"syspass"_s};
        // Under this load (slower still under the sanitizers) the read of the session records can time out. The
        // check must then say that it did not look at them, never leave SESSION_UNDECODABLE out silently; the test
        // then checks again, as an operator would.
        CliOutcome checked;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            checked = runCli(both + QStringList{u"check"_s, u"--json"_s}, publish);
            QVERIFY2(checked.exitCode == 2 && !checked.crashed, qPrintable(checked.describe()));
            if (codesOf(checked.json).contains(u"SESSION_UNDECODABLE"_s))
                break;
            QVERIFY2(recordsNotChecked(checked.json, u"acme"_s),
                     qPrintable(u"SESSION_UNDECODABLE missing although the records were read: "_s + codesOf(checked.json).join(u',')));
        }
        for (const QString &code : {u"STREAM_CONFIG_WRONG"_s, u"STREAM_MISSING"_s, u"SESSION_UNDECODABLE"_s})
            QVERIFY2(codesOf(checked.json).contains(code), qPrintable(code + u": "_s + codesOf(checked.json).join(u',')));

        const CliOutcome listed = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s}, publish);
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.describe()));
        const QStringList sessionsBefore = loadSessions(listed.json, false);
        QCOMPARE(sessionsBefore.size(), kClients);
        QVERIFY2(sessionsBefore.contains(u"load-7: load/7/#"_s), qPrintable(sessionsBefore.mid(0, 10).join(u'\n')));
        int connected = 0;
        for (const QJsonValue &v : listed.json.value(u"sessions"_s).toArray())
            connected += v.toObject().value(u"connected"_s).toBool() ? 1 : 0;
        QVERIFY2(connected >= kClients, qPrintable(u"connected: %1"_s.arg(connected)));

        const QStringList repairArgs =
            both + QStringList{u"--allow-changes"_s, u"repair"_s, u"--yes"_s, u"--backup-dir"_s, dir.filePath(u"backups"_s), u"--json"_s};
        CliOutcome repaired = runCli(repairArgs, publish);
        // Under this load (slower still under the sanitizers) a read of the session records can time out. When
        // the first check's read did, the plan lacks what only the records show (SESSION_UNDECODABLE); the check
        // after round 1 sees it and round 2 repairs it, in the same run. Only when the check after the last round
        // could not read the records either does the run end unsure (exit 3, `not_checked`) or with the finding
        // remaining (exit 2); a second run then finishes.
        const bool unsure = repaired.exitCode == 3 && !repaired.json.value(u"not_checked"_s).toArray().isEmpty();
        const bool leftOver = repaired.exitCode == 2 && !repaired.json.value(u"remaining"_s).toArray().isEmpty();
        if ((unsure || leftOver) && repaired.json.value(u"applied"_s).toObject().value(u"complete"_s).toBool())
            repaired = runCli(repairArgs, publish);
        QVERIFY2(repaired.exitCode == 0 && repaired.json.value(u"applied"_s).toObject().value(u"complete"_s).toBool(),
                 qPrintable(repaired.describe()));
        const CliOutcome after = runCli(both + QStringList{u"check"_s, u"--json"_s}, publish);
        QVERIFY2(after.exitCode == 0, qPrintable(after.describe()));

        stopChurn = true;
        churn.join();
        QVERIFY(churned.load() > 0);
        // At least five rounds in all for the delivery check, however quickly the commands above ran.
        while (load.published() < kGroups * 5)
            load.publishRound();
        QVERIFY2(load.stopPublishers(60000), qPrintable(load.errorString()));
        QVERIFY(load.published() >= kGroups * 5);
        const QStringList missing = load.waitDelivered(120000);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 10).join(u'\n')));

        // Offline now: one more message per group is queued for each session, and every session is there.
        load.stopSubscribers();
        const MqttClient pub(server.mqttPort(), u"acme"_s, u"acmepass"_s);
        for (int g = 0; g < kGroups; ++g)
            QVERIFY(pub.publish(u"load/%1/m"_s.arg(g), "queued-offline", 1).acknowledged);
        const CliOutcome offline = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s});
        QVERIFY2(offline.exitCode == 0, qPrintable(offline.describe()));
        const QStringList sessionsAfter = loadSessions(offline.json, true);
        QCOMPARE(sessionsAfter.size(), kClients);
        for (const QString &line : sessionsAfter)
            QVERIFY2(line.endsWith(u"| pending 1"_s) && !line.contains(u"missing"_s), qPrintable(line));
    }

    void clusterNodeStoppedDuringLoadAndRepair()
    {
        NatsClusterFixture cluster(3);
        ServerConfig config = ServerConfig::standard();
        config.setMqttStreamReplicas(3);
        QVERIFY2(cluster.start(u"2.10"_s, config), qPrintable(cluster.errorString()));
        const QString urls = cluster.url();
        QStringList mqttPorts;
        for (int i = 0; i < cluster.nodeCount(); ++i)
            mqttPorts << QString::number(cluster.node(i).mqttPort());
        QTemporaryDir dir;
        constexpr int kClients = 60;
        constexpr int kGroups = 6;
        {
            MqttLoad load(mqttPorts, u"acme"_s, u"acmepass"_s, dir.path());
            QVERIFY2(load.startSubscribers(kClients, kGroups, 180000), qPrintable(load.errorString()));
            QVERIFY2(load.startPublishers(), qPrintable(load.errorString()));
            for (int i = 0; i < 5; ++i)
                load.publishRound();
            QVERIFY2(load.stopPublishers(60000), qPrintable(load.errorString()));
            const QStringList missing = load.waitDelivered(120000);
            QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 10).join(u'\n')));
            load.stopSubscribers();
        }
        const MqttClient pub(cluster.node(0).mqttPort(), u"acme"_s, u"acmepass"_s);
        for (int g = 0; g < kGroups; ++g)
            QVERIFY(pub.publish(u"load/%1/m"_s.arg(g), "queued-offline", 1).acknowledged);
        const QStringList both = QStringList{u"--server"_s,          urls,          u"--user"_s,        u"acme"_s,
                                             u"--password"_s,        u"acmepass"_s, u"--system-user"_s, u"sys"_s,
                                             u"--system-password"_s, u"syspass"_s};
        const CliOutcome baseline = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s});
        QVERIFY2(baseline.exitCode == 0, qPrintable(baseline.describe()));
        const QStringList before = loadSessions(baseline.json, true);
        QCOMPARE(before.size(), kClients);

        // A node stops while the sessions load: a full answer or a clear error, never a crash or a hang.
        bool stopped = false;
        const CliOutcome during = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s}, [&] {
            if (!stopped)
                stopped = cluster.stopNode(0, false);
        });
        QVERIFY(stopped);
        QVERIFY2(!during.crashed, qPrintable(during.describe()));
        if (during.exitCode == 0) // every session and durable is there; pending counts of unreachable ones are not known
            QCOMPARE(loadSessions(during.json, false), loadSessions(baseline.json, false));
        else
            QVERIFY2(during.exitCode == 3 && !during.json.value(u"error"_s).toObject().value(u"message"_s).toString().isEmpty(),
                     qPrintable(during.describe()));
        // Two nodes answer for the R3 streams meanwhile.
        const CliOutcome degraded = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s});
        QVERIFY2(degraded.exitCode == 0, qPrintable(degraded.describe()));
        QCOMPARE(loadSessions(degraded.json, true), before);
        QVERIFY2(cluster.startNode(0), qPrintable(cluster.errorString()));

        // A node stops between two steps of a repair; it comes back; a rerun completes.
        JetStreamAdmin admin;
        QVERIFY2(admin.connect(cluster.urls(), u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(u"$MQTT_sess"_s, {{u"max_msgs_per_subject"_s, 5}}), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(u"$MQTT_qos2in"_s), qPrintable(admin.error()));
        int seen = 0;
        bool nodeStopped = false;
        const Outcome first =
            repairOnce(urls, dir.filePath(u"backups"_s), dir.filePath(u"audit.jsonl"_s), [&](const RepairStep &, const QStringList &) {
                if (++seen == 2)
                    nodeStopped = cluster.stopNode(1, true);
            });
        QVERIFY2(first.error.isEmpty() && first.plan.steps.size() >= 2, qPrintable(describeOutcome(first)));
        QVERIFY2(nodeStopped, qPrintable(cluster.errorString()));
        QVERIFY2(first.report.complete || !first.report.stoppedBecause.isEmpty(), qPrintable(describeOutcome(first)));
        QVERIFY2(cluster.startNode(1), qPrintable(cluster.errorString()));
        const Outcome second = repairOnce(urls, dir.filePath(u"backups"_s), dir.filePath(u"audit.jsonl"_s));
        QVERIFY2(second.error.isEmpty() && second.report.complete, qPrintable(describeOutcome(second)));
        const CliOutcome clean = runCli(both + QStringList{u"check"_s, u"--json"_s});
        for (const QString &code : {u"STREAM_CONFIG_WRONG"_s, u"STREAM_MISSING"_s})
            QVERIFY2(!codesOf(clean.json).contains(code), qPrintable(clean.describe()));
        const CliOutcome afterRepair = runCli(both + QStringList{u"sessions"_s, u"--limit"_s, u"0"_s, u"--json"_s});
        QVERIFY2(afterRepair.exitCode == 0, qPrintable(afterRepair.describe()));
        QCOMPARE(loadSessions(afterRepair.json, true), before);
        // The sessions resume on any node with their queued message.
        const MqttResult resumed = MqttClient(cluster.node(2).mqttPort(), u"acme"_s, u"acmepass"_s)
                                       .subscribeAndCollect(u"load-3"_s, {u"load/3/#"_s}, 1, 1, 15, true);
        QVERIFY2(resumed.receivedPayloads().contains(u"queued-offline"_s), qPrintable(resumed.describe()));
    }
};

QTEST_GUILESS_MAIN(TestLoadFaults)
#include "tst_loadfaults.moc"
