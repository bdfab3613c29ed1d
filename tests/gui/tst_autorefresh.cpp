// Auto refresh and the status bar against a real nats-server 2.10 with MQTT sessions made by
// mosquitto: the View › Auto Refresh interval is remembered in QSettings; with auto refresh on, a
// new session, a new stream and a deleted session show up without touching the window, the selected
// session stays selected; the status bar shows the server's version and counts reconnects of the
// shared connections (a server restart), after which auto refresh keeps working.
#include <QAction>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "actions/actionmanager.h"
#include "controllers/autorefresh.h"
#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/iconfactory.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/clustertreepanel.h"
#include "panels/sessionspanel.h"
#include "serverconfig.h"
#include "widgets/connectionstatuswidget.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {

QString selectedClient(SessionsPanel &panel)
{
    return panel.view()->selectionModel()->currentIndex().data(SessionTableModel::ClientIdRole).toString();
}

} // namespace

class TestAutoRefresh : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void intervalSettingIsRemembered();
    void recordViewNodesHaveIcons();
    void refreshPicksUpServerChanges();

private:
    Profile profile() const { return standardProfile(m_server.url(), true, u"refresh-test"_s); }
    JetStreamClient acmeApi();

    NatsServerFixture m_server;
    std::unique_ptr<ConnectionSet> m_acme;
};

void TestAutoRefresh::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (acme/acmepass, JetStream)
    config.setServerName(u"refresh1"_s);
    QVERIFY2(m_server.start(u"2.10"_s, config), qPrintable(m_server.errorString()));
    const MqttResult r =
        MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"first-client"_s, {u"plant/+/temp"_s}, 1);
    QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
}

JetStreamClient TestAutoRefresh::acmeApi()
{
    if (!m_acme) {
        Profile p;
        p.servers = {m_server.url()};
        p.auth.kind = Credentials::Kind::UserPassword;
        p.auth.user = u"acme"_s;
        p.auth.password = u"acmepass"_s;
        m_acme = std::make_unique<ConnectionSet>(p);
    }
    auto conn = m_acme->primary();
    if (!conn)
        qFatal("cannot connect as acme: %s", qPrintable(conn.error().toString()));
    return JetStreamClient(*conn);
}

void TestAutoRefresh::intervalSettingIsRemembered()
{
    QSettings().remove(AutoRefresh::settingsKey());
    ClusterController controller;
    {
        MainWindow window(controller);
        AutoRefresh &refresh = *window.autoRefresh();
        QCOMPARE(refresh.intervalSeconds(), 0);
        QVERIFY(!refresh.isActive());
        const auto *menu = window.findChild<QMenu *>(u"menuAutoRefresh"_s);
        QVERIFY(menu);
        QList<int> offered;
        for (const QAction *a : menu->actions())
            offered << a->data().toInt();
        QCOMPARE(offered, (QList<int>{0, 10, 30, 60, 300}));
        QVERIFY(window.actions()->autoRefreshAction(0)->isChecked());
        QCOMPARE(window.actions()->refreshAction()->shortcut(), QKeySequence(Qt::Key_F5));

        window.actions()->autoRefreshAction(30)->trigger();
        QCOMPARE(refresh.intervalSeconds(), 30);
        QVERIFY(refresh.isActive());
        QVERIFY(window.actions()->autoRefreshAction(30)->isChecked());
        QVERIFY(!window.actions()->autoRefreshAction(0)->isChecked());
        QCOMPARE(QSettings().value(AutoRefresh::settingsKey()).toInt(), 30);
    }
    {
        MainWindow window(controller); // a new window (the next start) uses the remembered interval
        QCOMPARE(window.autoRefresh()->intervalSeconds(), 30);
        QVERIFY(window.autoRefresh()->isActive());
        QVERIFY(window.actions()->autoRefreshAction(30)->isChecked());
        window.actions()->autoRefreshAction(0)->trigger();
        QVERIFY(!window.autoRefresh()->isActive());
        QCOMPARE(QSettings().value(AutoRefresh::settingsKey()).toInt(), 0);
    }
    QSettings().setValue(AutoRefresh::settingsKey(), 7); // not offered: off
    MainWindow window(controller);
    QCOMPARE(window.autoRefresh()->intervalSeconds(), 0);
}

void TestAutoRefresh::recordViewNodesHaveIcons()
{
    QVERIFY(QFile::exists(u":/mqttdoctor/icons/sessions.svg"_s));
    QVERIFY(QFile::exists(u":/mqttdoctor/icons/retained.svg"_s));
    QVERIFY(QFile::exists(u":/mqttdoctor/icons/consumers.svg"_s));
    // Each kind has its own picture (not a blank, not another kind's).
    QList<QImage> images;
    for (const auto kind :
         {IconFactory::Kind::Sessions, IconFactory::Kind::Retained, IconFactory::Kind::Consumers, IconFactory::Kind::Stream}) {
        const QImage image = IconFactory::icon(kind).pixmap(32, 32).toImage();
        QVERIFY(!image.isNull());
        for (const QImage &other : std::as_const(images))
            QVERIFY(image != other);
        images << image;
    }
}

void TestAutoRefresh::refreshPicksUpServerChanges()
{
    QSettings().remove(AutoRefresh::settingsKey());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile()));
    ClusterTreeModel &tree = *window.treeModel();

    // The status bar: connected, the server's version, no reconnect yet.
    ConnectionStatusWidget &status = *window.statusWidget();
    QTRY_VERIFY_WITH_TIMEOUT(status.versionsText().contains(m_server.binary().version()), kLoadTimeoutMs);
    QVERIFY2(status.stateText().contains(m_server.url()), qPrintable(status.stateText()));
    QCOMPARE(status.reconnectsText(), u"Reconnects: 0"_s);

    // The record-view nodes carry their icons.
    const QModelIndex sessionsNode = tree.dataIndex(u"ACME"_s, ClusterTreeModel::NodeKind::Sessions);
    QVERIFY(sessionsNode.isValid());
    for (const auto kind :
         {ClusterTreeModel::NodeKind::Sessions, ClusterTreeModel::NodeKind::Retained, ClusterTreeModel::NodeKind::Consumers})
        QVERIFY(!tree.dataIndex(u"ACME"_s, kind).data(Qt::DecorationRole).value<QIcon>().isNull());

    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    QVERIFY2(sessions.noticeText().isEmpty(), qPrintable(sessions.noticeText()));
    QCOMPARE(sessions.model()->rowCount(), 1);
    QVERIFY(sessions.selectClient(u"first-client"_s));
    const int streamsBefore = [&] {
        for (const AccountInfo &a : controller.accounts())
            if (a.name == "ACME"_L1)
                return int(a.streamCount);
        return -1;
    }();
    QVERIFY(streamsBefore > 0);

    // Changes made behind the window's back: a new session and a new (non-MQTT) stream.
    const MqttResult second =
        MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"second-client"_s, {u"plant/line9/#"_s}, 1);
    QVERIFY2(second.connected() && second.subscribed(), qPrintable(second.describe()));
    auto created =
        acmeApi().call(u"STREAM.CREATE.ORDERS"_s,
                       QJsonObject{{u"name"_s, u"ORDERS"_s}, {u"subjects"_s, QJsonArray{u"orders.>"_s}}, {u"storage"_s, u"memory"_s}});
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));

    // A short period (not remembered) instead of waiting 10 s; the window refreshes by itself.
    window.autoRefresh()->setPeriod(300ms);
    QVERIFY(window.autoRefresh()->isActive());
    QTRY_VERIFY_WITH_TIMEOUT(sessions.model()->rowOf(u"second-client"_s) >= 0, kLoadTimeoutMs);
    QCOMPARE(sessions.model()->rowCount(), 2);
    QCOMPARE(selectedClient(sessions), u"first-client"_s); // the selection survived the refresh
    const auto acmeStreams = [&] {
        for (const AccountInfo &a : controller.accounts())
            if (a.name == "ACME"_L1)
                return int(a.streamCount);
        return -1;
    };
    QTRY_COMPARE_WITH_TIMEOUT(acmeStreams(), streamsBefore + 1, kLoadTimeoutMs);
    QCOMPARE(window.treePanel()->currentSourceIndex(), tree.dataIndex(u"ACME"_s, ClusterTreeModel::NodeKind::Sessions));

    // A session deleted on the server disappears; the other one stays selected.
    QVERIFY(sessions.selectClient(u"second-client"_s));
    auto purged = acmeApi().call(u"STREAM.PURGE.$MQTT_sess"_s,
                                 QJsonObject{{u"filter"_s, QString(u"$MQTT.sess."_s + ClientIdHash::hash(u"first-client"_s))}});
    QVERIFY2(purged, qPrintable(purged ? QString() : purged.error().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(sessions.model()->rowOf(u"first-client"_s) < 0, kLoadTimeoutMs);
    QCOMPARE(sessions.model()->rowCount(), 1);
    QCOMPARE(selectedClient(sessions), u"second-client"_s);

    // A server restart: the shared connections reconnect and are counted; refreshing goes on.
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(controller.reconnectCount() >= 1, kLoadTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(status.reconnectsText() != u"Reconnects: 0"_s, kLoadTimeoutMs);
    const MqttResult third =
        MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"third-client"_s, {u"plant/line3/temp"_s}, 1);
    QVERIFY2(third.connected() && third.subscribed(), qPrintable(third.describe()));
    QTRY_VERIFY_WITH_TIMEOUT(sessions.model()->rowOf(u"third-client"_s) >= 0, kLoadTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(controller.connectionState(), ClusterController::ConnectionState::Connected, kLoadTimeoutMs);
    window.autoRefresh()->setPeriod(0ms);
}

QTEST_MAIN(TestAutoRefresh)
#include "tst_autorefresh.moc"
