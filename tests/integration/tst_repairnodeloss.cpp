// Cluster nodes lost in the middle of a repair, for real (3-node cluster, mqtt.stream_replicas 3, newest server).
// An operator's stream CATCHALL on `$MQTT.>` keeps ACME's MQTT streams from being created; the repair backs it
// up and deletes it (resolve_overlap), then creates the MQTT streams.
//  - nodeLostBetweenBackupAndApply: CATCHALL has one replica; the node holding it is stopped after its backup
//    is written and before it is deleted. The step fails, the run stops and says how to restore; nothing is
//    lost (the backup holds every message and CATCHALL is intact once the node is back); a rerun completes.
//  - majorityLostDuringApply: CATCHALL is deleted, then two of the three nodes are stopped before the MQTT
//    streams are created. With no JetStream quorum the create fails, the run stops with a clear report; the
//    backup still holds CATCHALL's messages; a rerun with the nodes back completes and MQTT works.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "repairrun.h"
#include "repair/backupfile.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

constexpr int HeldMessages = 5;

// CATCHALL on $MQTT.> with `replicas`, holding HeldMessages messages; the name of the node leading it.
bool makeCatchAll(const QString &url, int replicas, QString *leader, QString *why)
{
    JetStreamAdmin admin;
    if (!admin.connect({url}, QStringLiteral("acme"), QStringLiteral("acmepass"))
        || !admin.createStream(QJsonObject{{QStringLiteral("name"), QStringLiteral("CATCHALL")},
                                           {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.>")}},
                                           {QStringLiteral("storage"), QStringLiteral("file")},
                                           {QStringLiteral("num_replicas"), replicas}})) {
        *why = admin.error();
        return false;
    }
    for (int i = 0; i < HeldMessages; ++i)
        if (!admin.store(QStringLiteral("$MQTT.audit.%1").arg(i), QByteArray("kept ") + QByteArray::number(i))) {
            *why = admin.error();
            return false;
        }
    QJsonObject info;
    if (!admin.call(QStringLiteral("STREAM.INFO.CATCHALL"), {}, &info)) {
        *why = admin.error();
        return false;
    }
    *leader = info.value(QLatin1String("cluster")).toObject().value(QLatin1String("leader")).toString();
    return !leader->isEmpty();
}

qint64 catchAllMessages(const QString &url)
{
    JetStreamAdmin admin;
    QJsonObject info;
    if (!admin.connect({url}, QStringLiteral("acme"), QStringLiteral("acmepass"))
        || !admin.call(QStringLiteral("STREAM.INFO.CATCHALL"), {}, &info))
        return -1;
    return info.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger(-1);
}

qint64 backedUpMessages(const QString &path)
{
    qint64 count = 0;
    auto read = BackupFileReader::read(path, [&count](BackupMessage &&, qint64) {
        ++count;
        return true;
    });
    return read ? count : -1;
}

int nodeNamed(NatsClusterFixture &cluster, const QString &name)
{
    for (int i = 0; i < cluster.nodeCount(); ++i)
        if (cluster.node(i).serverName() == name)
            return i;
    return -1;
}

ServerConfig replicatedConfig()
{
    ServerConfig config = ServerConfig::standard();
    config.setMqttStreamReplicas(3);
    return config;
}

void expectCleanAndMqttWorking(NatsClusterFixture &cluster, int toolNode)
{
    const CliRunner::Run clean = check(acmeArgs(cluster.node(toolNode).url()));
    QVERIFY2(findingsAbove(clean, QStringLiteral("info")).isEmpty(), qPrintable(describe(clean)));
    MqttClient mqtt(cluster.node(toolNode).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
    mqtt.setTimeoutMs(30000);
    MqttResult session;
    for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
        session = mqtt.createPersistentSession(QStringLiteral("after-repair"), {QStringLiteral("a/b")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
}

} // namespace

class TestRepairNodeLoss : public QObject
{
    Q_OBJECT

private slots:
    void nodeLostBetweenBackupAndApply()
    {
        NatsClusterFixture cluster;
        QVERIFY2(cluster.start(QStringLiteral("newest"), replicatedConfig()), qPrintable(cluster.errorString()));
        QString leader;
        QString why;
        QVERIFY2(makeCatchAll(cluster.node(0).url(), 1, &leader, &why), qPrintable(why));
        const int host = nodeNamed(cluster, leader);
        QVERIFY2(host >= 0, qPrintable(leader));
        const int tool = (host + 1) % cluster.nodeCount();
        const QString url = cluster.node(tool).url();

        QTemporaryDir dir;
        const QString backups = dir.filePath(QStringLiteral("backups"));
        const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
        bool stopped = false;
        const Outcome first = repairOnce(url, backups, audit, [&](const RepairStep &step, const QStringList &files) {
            if (stopped || !step.destructive || files.isEmpty())
                return;
            stopped = cluster.stopNode(host); // CATCHALL's only replica goes with it
        });
        QVERIFY2(stopped, qPrintable(describeOutcome(first) + cluster.errorString()));
        QVERIFY2(first.error.isEmpty(), qPrintable(describeOutcome(first)));
        QCOMPARE(first.plan.steps.first().action, QStringLiteral("resolve_overlap"));
        QCOMPARE(first.report.outcomes.first().state, StepOutcome::State::Failed);
        for (int i = 1; i < first.report.outcomes.size(); ++i)
            QCOMPARE(first.report.outcomes.at(i).state, StepOutcome::State::NotRun);
        QVERIFY2(!first.report.complete, qPrintable(describeOutcome(first)));
        // The report names the stream, why (its servers are down), and the restore only in case the step changed anything.
        QVERIFY2(first.report.stoppedBecause.contains(QStringLiteral("CATCHALL"))
                     && first.report.stoppedBecause.contains(QStringLiteral("offline"))
                     && first.report.stoppedBecause.contains(QStringLiteral("If it changed anything before it failed, put that back with: "
                                                                            "nats-mqtt-doctor-cli restore")),
                 qPrintable(describeOutcome(first)));
        QCOMPARE(first.report.backups.size(), 1);
        QCOMPARE(backedUpMessages(first.report.backups.first()), qint64(HeldMessages));

        // Nothing lost: with its node back, CATCHALL is there with every message; the rerun completes.
        QVERIFY2(cluster.startNode(host), qPrintable(cluster.errorString()));
        QCOMPARE(catchAllMessages(url), qint64(HeldMessages));
        const Outcome second = repairOnce(url, backups, audit);
        QVERIFY2(second.error.isEmpty() && second.report.complete, qPrintable(describeOutcome(second)));
        expectCleanAndMqttWorking(cluster, tool);
    }

    void majorityLostDuringApply()
    {
        NatsClusterFixture cluster;
        QVERIFY2(cluster.start(QStringLiteral("newest"), replicatedConfig()), qPrintable(cluster.errorString()));
        QString leader;
        QString why;
        QVERIFY2(makeCatchAll(cluster.node(0).url(), 3, &leader, &why), qPrintable(why));
        const int tool = 0;
        const QString url = cluster.node(tool).url();

        QTemporaryDir dir;
        const QString backups = dir.filePath(QStringLiteral("backups"));
        const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
        bool stopped = false;
        const Outcome first = repairOnce(url, backups, audit, [&](const RepairStep &step, const QStringList &) {
            if (stopped || step.action != QLatin1String("create_stream"))
                return;
            // CATCHALL is gone by now; two of three nodes go before the MQTT streams are created.
            stopped = cluster.stopNode(1, false) && cluster.stopNode(2, false);
        });
        QVERIFY2(stopped, qPrintable(describeOutcome(first) + cluster.errorString()));
        QVERIFY2(first.error.isEmpty(), qPrintable(describeOutcome(first)));
        QCOMPARE(first.report.outcomes.first().state, StepOutcome::State::Applied);
        int failed = 0;
        for (const StepOutcome &o : first.report.outcomes) {
            QVERIFY2(o.state != StepOutcome::State::Applied || o.stepId == first.report.outcomes.first().stepId,
                     qPrintable(describeOutcome(first)));
            failed += o.state == StepOutcome::State::Failed ? 1 : 0;
        }
        QCOMPARE(failed, 1);
        QVERIFY2(!first.report.complete && !first.report.stoppedBecause.isEmpty(), qPrintable(describeOutcome(first)));
        // What the deleted stream held is in the step's backup.
        QCOMPARE(first.report.backups.size(), 1);
        QCOMPARE(backedUpMessages(first.report.backups.first()), qint64(HeldMessages));

        QVERIFY2(cluster.startNode(1) && cluster.startNode(2), qPrintable(cluster.errorString()));
        const Outcome second = repairOnce(url, backups, audit);
        QVERIFY2(second.error.isEmpty() && second.report.complete, qPrintable(describeOutcome(second)));
        expectCleanAndMqttWorking(cluster, tool);
    }
};

QTEST_GUILESS_MAIN(TestRepairNodeLoss)
#include "tst_repairnodeloss.moc"
