// The account workspace's "Expected vs actual" tab against a real nats-server 2.10: mosquitto makes
// ACME's MQTT streams, then `$MQTT_sess` gets max_msgs_per_subject 5 through the JetStream API
// (STREAM.UPDATE). The tab shows that one field highlighted (expected 1, actual 5), the repair
// planner's `-old +new` diff, a count on the tab, and follows the tree's stream selection. The
// model is watched by QAbstractItemModelTester while the window loads and refreshes. Saves
// docs/screenshots/stream-diff.png with MQTTDOCTOR_WRITE_SCREENSHOTS=1 (else a temporary folder).
#include <QDir>
#include <QLocale>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QAbstractItemModelTester>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/streamdiffmodel.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/clustertreepanel.h"
#include "panels/streamdiffpanel.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

namespace {

QModelIndex fieldIndex(const StreamDiffModel &model, const QString &stream, const QString &field)
{
    const QModelIndex parent = model.index(model.streamRow(stream), 0);
    for (int r = 0; r < model.rowCount(parent); ++r)
        if (model.index(r, 0, parent).data(StreamDiffModel::FieldRole).toString() == field)
            return model.index(r, 0, parent);
    return {};
}

} // namespace

class TestStreamDiffView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void showsTheChangedField();

private:
    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

void TestStreamDiffView::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true);
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    ServerConfig config = ServerConfig::standard();
    config.setServerName(u"diff1"_s);
    QVERIFY2(m_server.start(u"2.10"_s, config), qPrintable(m_server.errorString()));
    const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    const MqttResult r = mqtt.createPersistentSession(u"meter-7"_s, {u"grid/+/load"_s}, 1);
    QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    QVERIFY(mqtt.publish(u"grid/north/load"_s, "42", 1, true).acknowledged);

    // An operator "tunes" the sessions stream: a client's session record now keeps 5 revisions.
    Profile acme;
    acme.servers = {m_server.url()};
    acme.auth.kind = Credentials::Kind::UserPassword;
    acme.auth.user = u"acme"_s;
    acme.auth.password = u"acmepass"_s;
    ConnectionSet connections(acme);
    auto conn = connections.primary();
    QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
    JetStreamClient js(*conn);
    auto info = js.streamInfo(u"$MQTT_sess"_s);
    QVERIFY2(info, qPrintable(info ? QString() : info.error().toString()));
    QJsonObject config2 = info->value("config"_L1).toObject();
    QCOMPARE(config2.value("max_msgs_per_subject"_L1).toInteger(), 1);
    config2[u"max_msgs_per_subject"_s] = 5;
    auto updated = js.call(u"STREAM.UPDATE.$MQTT_sess"_s, config2);
    QVERIFY2(updated, qPrintable(updated ? QString() : updated.error().toString()));
    QCOMPARE(updated->value("config"_L1).toObject().value("max_msgs_per_subject"_L1).toInteger(), 5);
}

void TestStreamDiffView::showsTheChangedField()
{
    ClusterController controller;
    MainWindow window(controller);
    AccountWorkspace &workspace = *window.workspace();
    StreamDiffPanel &panel = *workspace.streamDiffPanel();
    StreamDiffModel &model = *panel.model();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openAccount(window, controller, standardProfile(m_server.url(), true, u"diff-test"_s)));
    QTRY_VERIFY_WITH_TIMEOUT(!controller.servers().isEmpty(), kLoadTimeoutMs);
    ClusterTreeModel &tree = *window.treeModel();
    const QModelIndex acmeIndex = tree.accountIndex(u"ACME"_s);

    // The tab is there for a JetStream account; the layout comes from the server's version.
    QVERIFY(workspace.isTabVisible(AccountWorkspace::StreamDiffTab));
    QTRY_COMPARE_WITH_TIMEOUT(model.choice().layout.kind(), MqttLayout::Kind::V2_10, kLoadTimeoutMs);
    QVERIFY2(panel.summaryText().contains(m_server.binary().version()), qPrintable(panel.summaryText()));
    QVERIFY2(panel.summaryText().startsWith(u"1 of 5"_s), qPrintable(panel.summaryText()));
    QCOMPARE(workspace.tabText(AccountWorkspace::StreamDiffTab), u"Expected vs actual (1)"_s);

    // Exactly the changed field differs, with both values.
    const int sess = model.streamRow(u"$MQTT_sess"_s);
    QVERIFY(sess >= 0);
    QCOMPARE(model.status(sess), StreamDiffModel::Status::Differs);
    for (const QString &name : {u"$MQTT_msgs"_s, u"$MQTT_rmsgs"_s, u"$MQTT_qos2in"_s, u"$MQTT_out"_s})
        QCOMPARE(model.status(model.streamRow(name)), StreamDiffModel::Status::Matches);
    const QModelIndex field = fieldIndex(model, u"$MQTT_sess"_s, u"max_msgs_per_subject"_s);
    QVERIFY(field.isValid());
    QVERIFY(field.data(StreamDiffModel::DiffersRole).toBool());
    QCOMPARE(field.siblingAtColumn(StreamDiffModel::ExpectedColumn).data().toString(), u"1"_s);
    QCOMPARE(field.siblingAtColumn(StreamDiffModel::ActualColumn).data().toString(), u"5"_s);
    QVERIFY(!fieldIndex(model, u"$MQTT_sess"_s, u"subjects"_s).data(StreamDiffModel::DiffersRole).toBool());

    // Choosing the stream in the tree selects it here too; the diff is the planner's.
    window.treePanel()->setCurrentSourceIndex(tree.streamIndex(u"ACME"_s, u"$MQTT_sess"_s));
    QCOMPARE(panel.selectedStream(), u"$MQTT_sess"_s);
    QCOMPARE(panel.diffText(), u"-max_msgs_per_subject: 5\n+max_msgs_per_subject: 1"_s);
    window.treePanel()->setCurrentSourceIndex(acmeIndex);
    workspace.setCurrentIndex(AccountWorkspace::StreamDiffTab);
    QCOMPARE(panel.selectedStream(), u"$MQTT_sess"_s);

    // A refresh keeps the comparison and the selection.
    window.refreshAll();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRefreshing(), kLoadTimeoutMs);
    QCOMPARE(model.status(model.streamRow(u"$MQTT_sess"_s)), StreamDiffModel::Status::Differs);
    QCOMPARE(panel.selectedStream(), u"$MQTT_sess"_s);
    QCOMPARE(workspace.currentIndex(), int(AccountWorkspace::StreamDiffTab));
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"stream-diff.png"_s).isEmpty());
}

QTEST_MAIN(TestStreamDiffView)
#include "tst_streamdiffview.moc"
