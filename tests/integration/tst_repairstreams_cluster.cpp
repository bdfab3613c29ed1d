// REPLICAS_MISMATCH repaired on a real 3-node cluster (mqtt.stream_replicas 3): an operator scaled two MQTT
// streams down to one replica; update_stream scales them back to 3 (read-modify-write of num_replicas),
// after which every stream has a leader and two current replicas, every node reports healthy, nothing of
// the MQTT state is lost and the persistent session gets its queued message. Dry run and read-only change
// nothing; rerunning the plan finds it done.
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "nats/connectionset.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

struct Checked
{
    DiagnosisInput input;
    QList<Finding> findings;
    QString error;
};

Checked checkNow(const QString &url)
{
    Checked out;
    ConnectionSet connections(acmeProfile(url, false));
    DiagnosisGatherer::Request req;
    req.account = acme();
    auto input = DiagnosisGatherer::gather(connections, req);
    if (!input) {
        out.error = input.error().toString();
        return out;
    }
    out.input = *input;
    out.findings = Checks::diagnose(out.input);
    return out;
}

QStringList mismatched(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        if (f.code == QStringLiteral("REPLICAS_MISMATCH"))
            out << f.stream;
    out.sort();
    return out;
}

Result<RepairExecutor::Report> runPlan(const QString &url, const RepairPlan &plan, bool allowChanges, bool dryRun, const QString &dir)
{
    ConnectionSet connections(acmeProfile(url, allowChanges));
    auto target = RepairTarget::resolve(connections, acme());
    if (!target)
        return target.error();
    RepairExecutor::Options o;
    o.backupDir = dir;
    o.dryRun = dryRun;
    o.auditPath = dir + QStringLiteral("/audit.jsonl");
    return RepairExecutor::run(*target, plan, o);
}

/** name: replicas, leader set, every replica current — for every MQTT stream. */
QString replicaState(JetStreamAdmin &admin, const QStringList &streams, bool *healthy)
{
    QStringList lines;
    *healthy = true;
    for (const QString &name : streams) {
        QJsonObject info;
        if (!admin.call(QStringLiteral("STREAM.INFO.") + name, {}, &info)) {
            *healthy = false;
            lines << admin.error();
            continue;
        }
        const QJsonObject cluster = info.value(QLatin1String("cluster")).toObject();
        const QJsonArray replicas = cluster.value(QLatin1String("replicas")).toArray();
        bool current = true;
        for (const QJsonValue &r : replicas)
            current =
                current && r.toObject().value(QLatin1String("current")).toBool() && !r.toObject().value(QLatin1String("offline")).toBool();
        const int n = int(info.value(QLatin1String("config")).toObject().value(QLatin1String("num_replicas")).toInteger());
        *healthy = *healthy && n == 3 && replicas.size() == 2 && current && !cluster.value(QLatin1String("leader")).toString().isEmpty();
        lines << QStringLiteral("%1: R%2 %3").arg(name).arg(n).arg(compact(cluster));
    }
    return lines.join(u'\n');
}

QString messageCounts(JetStreamAdmin &admin, const QStringList &streams)
{
    QStringList out;
    for (const QString &name : streams) {
        QJsonObject info;
        (void)admin.call(QStringLiteral("STREAM.INFO.") + name, {}, &info);
        out << QStringLiteral("%1=%2").arg(name).arg(
            info.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger());
    }
    return out.join(u' ');
}

} // namespace

class TestRepairStreamsCluster : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path()));
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void replicasScaledDown_data() { addServerVersionRows(); }
    void replicasScaledDown()
    {
        QFETCH(QString, version);
        NatsClusterFixture cluster;
        ServerConfig config = ServerConfig::standard();
        config.setMqttStreamReplicas(3);
        QVERIFY2(cluster.start(version, config), qPrintable(cluster.errorString()));
        MqttClient client(cluster.node(0).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        client.setTimeoutMs(30000);
        MqttResult session;
        for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt) // the first connect creates the R3 streams
            session = client.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("alerts/#")}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));
        QVERIFY2(client.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged, "retained publish");
        QVERIFY2(client.publish(QStringLiteral("alerts/smoke"), "smoke!", 1).acknowledged, "queued publish");

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({cluster.node(0).url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const QStringList scaled{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_sess")};
        for (const QString &name : scaled)
            QVERIFY2(admin.updateStream(name, {{QStringLiteral("num_replicas"), 1}}), qPrintable(admin.error()));
        QStringList all = admin.streamNames();
        all.sort();
        const QString counts0 = messageCounts(admin, all);

        const Checked before = checkNow(cluster.node(0).url());
        QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
        QCOMPARE(mismatched(before.findings), scaled);
        RepairPlanner::Options po;
        po.account = acme();
        po.onlyCodes = {QStringLiteral("REPLICAS_MISMATCH")};
        const RepairPlan plan = RepairPlanner::plan(before.input, before.findings, po);
        QCOMPARE(plan.steps.size(), 2);
        for (const RepairStep &s : plan.steps) {
            QCOMPARE(s.action, QStringLiteral("update_stream"));
            QCOMPARE(s.diff, QStringLiteral("-num_replicas: 1\n+num_replicas: 3"));
            QCOMPARE(s.requests.first().body.value(QLatin1String("num_replicas")).toInt(), 3);
            QVERIFY(!s.destructive);
        }

        QTemporaryDir dir;
        auto dry = runPlan(cluster.node(1).url(), plan, true, true, dir.path());
        QVERIFY2(dry, qPrintable(dry ? QString() : dry.error().toString()));
        auto readOnly = runPlan(cluster.node(1).url(), plan, false, false, dir.path());
        QVERIFY2(!readOnly && readOnly.error().kind() == Error::Kind::ReadOnly, "read-only must be refused");
        QCOMPARE(mismatched(checkNow(cluster.node(0).url()).findings), scaled);

        auto real = runPlan(cluster.node(1).url(), plan, true, false, dir.path());
        QVERIFY2(real && real->complete, real ? qPrintable(compact(real->toJson())) : qPrintable(real.error().toString()));

        // Every stream R3 with a leader and current replicas, every node healthy.
        bool healthy = false;
        QString state;
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            state = replicaState(admin, all, &healthy);
            if (healthy)
                break;
            QThread::msleep(250);
        }
        QVERIFY2(healthy, qPrintable(state));
        // Each node reports healthy once its new replicas (and the consumers that follow them) caught up.
        for (int i = 0; i < cluster.nodeCount(); ++i) {
            std::optional<HttpProbe::Response> health;
            const QDeadlineTimer nodeDeadline(60000);
            while (!nodeDeadline.hasExpired() && !(health && health->status == 200)) {
                health = cluster.node(i).monitor("/healthz");
                if (!(health && health->status == 200))
                    QThread::msleep(250);
            }
            QVERIFY2(
                health && health->status == 200,
                qPrintable(cluster.node(i).serverName() + QStringLiteral(": ") + (health ? QString::fromUtf8(health->body) : QString())));
        }
        const Checked after = checkNow(cluster.node(2).url());
        QVERIFY2(mismatched(after.findings).isEmpty(), qPrintable(after.error));
        QCOMPARE(messageCounts(admin, all), counts0);

        auto again = runPlan(cluster.node(2).url(), plan, true, false, dir.path());
        QVERIFY2(again && again->complete, "rerun");
        for (const StepOutcome &o : again->outcomes)
            QCOMPARE(StepOutcome::stateName(o.state), QStringLiteral("already_done"));

        const MqttResult resumed =
            client.subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/topic")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
    }
};

QTEST_GUILESS_MAIN(TestRepairStreamsCluster)
#include "tst_repairstreams_cluster.moc"
