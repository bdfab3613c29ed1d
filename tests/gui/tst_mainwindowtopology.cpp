// The main window on a real supercluster (cluster "east": e1, e2, e3; cluster "west": w1; newest server),
// connected to e1 only: the tree groups the servers by cluster, the account panel says that ACME's MQTT
// state is in cluster west, and once west is stopped a refresh shows it as unreachable with why.
#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "mqttclient.h"
#include "natssuperclusterfixture.h"
#include "panels/accountdetailpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/detailpanel.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;
using MqttDoctor::Test::WindowSteps::saveScreenshot;

namespace {

constexpr int kLoadTimeoutMs = 60000;

QStringList childNames(const QAbstractItemModel &model, const QModelIndex &parent)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row)
        out << model.index(row, 0, parent).data(ClusterTreeModel::NameRole).toString();
    return out;
}

} // namespace

class TestMainWindowTopology : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QLocale::setDefault(QLocale::c());
        QStandardPaths::setTestModeEnabled(true);
    }

    void superclusterTree()
    {
        NatsSuperclusterFixture sc;
        QVERIFY2(sc.start(u"newest"_s), qPrintable(sc.errorString()));
        MqttClient west(sc.west().node(0).mqttPort(), u"acme"_s, u"acmepass"_s);
        west.setTimeoutMs(30000);
        MqttResult session;
        for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
            session = west.createPersistentSession(u"west-sensor"_s, {u"sensors/#"_s}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));

        Profile profile;
        profile.name = u"supercluster"_s;
        profile.servers = {sc.east().node(0).url()};
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = u"sys"_s;
        profile.system.password = u"syspass"_s;
        Credentials acme;
        acme.kind = Credentials::Kind::UserPassword;
        acme.user = u"acme"_s;
        acme.password = u"acmepass"_s;
        profile.accounts.insert(u"ACME"_s, acme);
        profile.timeoutMs = 5000;

        ClusterController controller;
        MainWindow window(controller);
        QVERIFY(WindowSteps::openAccount(window, controller, profile, u"ACME"_s, kLoadTimeoutMs));
        ClusterTreeModel &model = *window.treeModel();
        const QModelIndex servers = model.serverGroupIndex();
        QCOMPARE(childNames(model, servers), (QStringList{u"east"_s, u"west"_s}));
        const QModelIndex east = model.index(0, 0, servers);
        QCOMPARE(east.data().toString(), u"Cluster east"_s);
        QCOMPARE(childNames(model, east), (QStringList{u"e1"_s, u"e2"_s, u"e3"_s}));
        QCOMPARE(east.siblingAtColumn(ClusterTreeModel::SummaryColumn).data().toString(), u"3 servers · gateways to west"_s);
        QCOMPARE(childNames(model, model.index(1, 0, servers)), QStringList{u"w1"_s});
        QCOMPARE(servers.siblingAtColumn(ClusterTreeModel::SummaryColumn).data().toString(), u"4 servers"_s);

        AccountDetailPanel *panel = window.detailPanel()->accountPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->findChild<QLabel *>(u"accountMqttState"_s)->text(), u"JetStream without a domain · cluster west"_s,
                                  kLoadTimeoutMs);
        window.treePanel()->expandSource(servers);
        window.treePanel()->expandSource(east);
        window.treePanel()->expandSource(model.index(1, 0, servers));
        QVERIFY(!saveScreenshot(window, QDir::tempPath(), u"supercluster-tree.png"_s).isEmpty());

        // West stopped: after a refresh it is a cluster without servers, unreachable, and says why.
        QVERIFY2(sc.west().stopNode(0, false), qPrintable(sc.west().errorString()));
        controller.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(
            model.index(1, 0, model.serverGroupIndex()).siblingAtColumn(ClusterTreeModel::SummaryColumn).data().toString()
                == u"unreachable"_s,
            kLoadTimeoutMs);
        const QModelIndex westRow = model.index(1, 0, model.serverGroupIndex());
        QCOMPARE(model.rowCount(westRow), 0);
        QVERIFY2(westRow.data(Qt::ToolTipRole).toString().contains(u"no server of cluster west answers"_s),
                 qPrintable(westRow.data(Qt::ToolTipRole).toString()));
        window.treePanel()->setCurrentSourceIndex(westRow);
        QVERIFY2(window.detailPanel()->message().startsWith(u"Cluster west is unreachable: no server of cluster west answers"_s),
                 qPrintable(window.detailPanel()->message()));
    }
};

QTEST_MAIN(TestMainWindowTopology)
#include "tst_mainwindowtopology.moc"
