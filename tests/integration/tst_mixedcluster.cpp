// A real mixed-version cluster on loopback: n1 runs nats-server 2.9.10, n2 and n3 run 2.10.27, routed into one
// JetStream cluster. An MQTT client of ACME connects to n2 first, so ACME's MQTT streams get the 2.10+ layout
// (per-subject retained messages); a retained message is stored there. A connect through the 2.9 node n1 then
// fails as in the field (10093 on the retained consumer), `check` reports MIXED_SERVER_VERSIONS and
// RETAINED_DOWNGRADE, and the repair does not revert the retained layout while 2.10 servers serve the account
// (it would break their store): the plan says to finish the upgrade instead. The test always needs both
// versions, whatever MQTTDOCTOR_TEST_VERSIONS selects.
#include <QJsonArray>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

constexpr int CommandTimeoutMs = 90000;

} // namespace

class TestMixedCluster : public QObject
{
    Q_OBJECT

private slots:
    void mixedVersions()
    {
        NatsClusterFixture cluster(3, QStringLiteral("mixed"));
        cluster.setNodeVersion(0, QStringLiteral("2.9"));
        QVERIFY2(cluster.start(QStringLiteral("2.10")), qPrintable(cluster.errorString()));
        QCOMPARE(cluster.node(0).binary().version(), QStringLiteral("2.9.10"));
        QVERIFY2(cluster.node(1).binary().versionNumber().majorVersion() == 2
                     && cluster.node(1).binary().versionNumber().minorVersion() == 10,
                 qPrintable(cluster.node(1).binary().version()));
        QVERIFY2(cluster.metaGroupGap().isEmpty(), qPrintable(cluster.metaGroupGap()));

        // ACME's streams made by the 2.10 node n2, with a retained message.
        MqttClient modern(cluster.node(1).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        modern.setTimeoutMs(30000);
        MqttResult session;
        for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
            session = modern.createPersistentSession(QStringLiteral("modern-sensor"), {QStringLiteral("sensors/#")}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe() + cluster.node(1).logTail()));
        QVERIFY2(modern.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged, "retained publish on n2");

        // Through the 2.9 node: refused, the retained consumer cannot be made on the 2.10 layout.
        MqttClient legacy(cluster.node(0).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        legacy.setTimeoutMs(30000);
        const qsizetype from = cluster.node(0).logSize();
        const MqttResult refused = legacy.connectOnce(QStringLiteral("legacy-client"));
        QVERIFY2(refused.connectionLost(), qPrintable(refused.describe()));
        QVERIFY2(cluster.node(0).waitForLog(QStringLiteral("(10093)"), 10000, from), qPrintable(cluster.node(0).logTail()));

        // check through a 2.10 node and through the 2.9 node: both findings, the same decision.
        for (const int via : {1, 0}) {
            const CliRunner::Run run =
                CliRunner::run(acmeWithSystemArgs(cluster.node(via).url())
                                   + QStringList{QStringLiteral("check"), QStringLiteral("--account"), acme(), QStringLiteral("--json")},
                               CommandTimeoutMs);
            QVERIFY2(run.jsonValid, qPrintable(run.describe()));
            const QJsonObject mixed = findingWith(run, QStringLiteral("MIXED_SERVER_VERSIONS"));
            QVERIFY2(!mixed.isEmpty(), qPrintable(describe(run)));
            QVERIFY2(compact(mixed).contains(QStringLiteral("n1")), qPrintable(compact(mixed)));
            QVERIFY2(!findingWith(run, QStringLiteral("RETAINED_DOWNGRADE")).isEmpty(), qPrintable(describe(run)));
            const QJsonObject layout = run.json.value(QLatin1String("layouts")).toObject().value(acme()).toObject();
            QCOMPARE(str(layout, "kind"), QStringLiteral("mixed"));
            QVERIFY2(layout.value(QLatin1String("legacy_servers")).toArray().contains(QStringLiteral("n1")), qPrintable(compact(layout)));
        }

        // The repair plans no revert while 2.10 servers serve the account, and says why.
        const CliRunner::Run dry = CliRunner::run(acmeWithSystemArgs(cluster.node(1).url())
                                                      + QStringList{QStringLiteral("repair"), QStringLiteral("--account"), acme(),
                                                                    QStringLiteral("--dry-run"), QStringLiteral("--json")},
                                                  CommandTimeoutMs);
        QVERIFY2(dry.jsonValid, qPrintable(dry.describe()));
        const QJsonObject plan = dry.json.value(QLatin1String("plan")).toObject();
        for (const QJsonValue &step : plan.value(QLatin1String("steps")).toArray())
            QVERIFY2(str(step.toObject(), "action") != QStringLiteral("revert_retained"), qPrintable(compact(plan)));
        QVERIFY2(compact(plan).contains(QStringLiteral("upgrade")), qPrintable(compact(plan)));

        // Nothing of the retained state was touched: n2 still delivers the retained message.
        const MqttResult retained = modern.subscribeAndCollect(QStringLiteral("reader"), {QStringLiteral("sensors/#")}, 1, 1, 10);
        QVERIFY2(retained.messages.size() == 1, qPrintable(retained.describe()));
    }
};

QTEST_GUILESS_MAIN(TestMixedCluster)
#include "tst_mixedcluster.moc"
