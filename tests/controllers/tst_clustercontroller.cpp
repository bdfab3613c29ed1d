// ClusterController against a real 3-node cluster with one node stopped: the load completes (no
// hang, no failure), the tree gets the two answering servers, and the connection detail that the
// status bar shows names the server that did not answer.
#include <QSignalSpy>
#include <QTest>

#include "controllers/clustercontroller.h"
#include "natsclusterfixture.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

class TestClusterController : public QObject
{
    Q_OBJECT

private slots:
    void namesServersThatDoNotAnswer()
    {
        NatsClusterFixture cluster;
        QVERIFY2(cluster.start(QStringLiteral("newest"), ServerConfig::standard()), qPrintable(cluster.errorString()));
        const QString stopped = cluster.node(2).serverName();
        QVERIFY2(cluster.stopNode(2), qPrintable(cluster.errorString()));

        Profile profile;
        profile.servers = {cluster.node(0).url()};
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = QStringLiteral("sys");
        profile.system.password = QStringLiteral("syspass");
        profile.timeoutMs = 3000;
        ClusterController controller;
        QSignalSpy servers(&controller, &ClusterController::serversLoaded);
        controller.connectTo(profile);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading() && servers.size() == 1, 20000);
        QCOMPARE(controller.connectionState(), ClusterController::ConnectionState::Connected);
        QCOMPARE(controller.servers().size(), 2);
        QVERIFY2(controller.connectionDetail().contains(stopped), qPrintable(controller.connectionDetail()));

        // Everyone answering again: the detail no longer names anyone.
        // A node that just came back may not have rejoined the system account's routes when the first
        // refresh asks: as an operator would, refresh again until it is seen (or the time is up).
        QVERIFY2(cluster.startNode(2), qPrintable(cluster.errorString()));
        controller.refresh();
        QDeadlineTimer deadline(30000);
        while (!(!controller.isLoading() && controller.servers().size() == 3) && !deadline.hasExpired()) {
            QTest::qWait(200);
            if (!controller.isLoading() && controller.servers().size() != 3)
                controller.refresh();
        }
        QCOMPARE(controller.servers().size(), 3);
        QVERIFY(!controller.isLoading());
        QVERIFY2(!controller.connectionDetail().contains(stopped), qPrintable(controller.connectionDetail()));
        controller.shutdown();
    }
};

QTEST_MAIN(TestClusterController)
#include "tst_clustercontroller.moc"
