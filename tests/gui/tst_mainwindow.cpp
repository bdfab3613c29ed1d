// The main window against a real nats-server 2.9 (tests/support fixture) with MQTT state made by
// mosquitto: connects through ClusterController with a system user, lists ACME/BETA/NOJS, shows
// NOJS without JetStream and ACME's MQTT streams, counts a reconnect, shows a wrong password inline,
// and tests a connection from the dialog. Saves screenshots (docs/screenshots with
// MQTTDOCTOR_WRITE_SCREENSHOTS=1, else a temporary folder).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "common/asyncrunner.h"
#include "controllers/clustercontroller.h"
#include "dialogs/connectiondialog.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/healthbadge.h"
#include "models/iconfactory.h"
#include "models/streamtablemodel.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "panels/accountdetailpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/detailpanel.h"
#include "serverconfig.h"
#include "widgets/connectionstatuswidget.h"
#include "widgets/errorbanner.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using MqttDoctor::Test::WindowSteps::saveScreenshot;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kLoadTimeoutMs = 20000;

QString accountSummary(const ClusterTreeModel &model, const QString &account)
{
    return model.accountIndex(account).siblingAtColumn(ClusterTreeModel::SummaryColumn).data().toString();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void resourcesAreLinked();
    void connectsAndListsAccounts();
    void reconnectIsCounted();
    void wrongPasswordShowsInlineError();
    void connectionDialogTestsConnection();
    void connectionDialogValidatesInline();
    void guiThreadNeverWaitsForTheNetwork();

private:
    Profile profile(const QString &systemPassword = u"syspass"_s) const;

    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

void TestMainWindow::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // RecentProfiles writes to a test settings location
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));

    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (JetStream)
    config.setServerName(u"gui1"_s);
    ServerConfig::JetStreamLimits limits;
    limits.maxMemory = 64 * 1024 * 1024;
    limits.maxFile = 512 * 1024 * 1024;
    limits.maxStreams = 20;
    limits.maxConsumers = 100;
    config.addAccount(ServerConfig::limitedAccount(u"BETA"_s, u"beta"_s, u"betapass"_s, limits));
    config.addAccount(ServerConfig::plainAccount(u"NOJS"_s, u"nojs"_s, u"nojspass"_s));
    QVERIFY2(m_server.start(u"2.9"_s, config), qPrintable(m_server.errorString()));

    // A persistent MQTT session with a QoS 1 subscription: ACME gets its $MQTT_* streams.
    const MqttResult session =
        MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"gui-sub"_s, {u"a/b"_s}, 1);
    QVERIFY2(session.connected() && session.subscribed(), qPrintable(session.describe()));
}

void TestMainWindow::resourcesAreLinked()
{
    // qt_add_resources on the static ui library must reach the executables that link it.
    QVERIFY(QFile::exists(u":/mqttdoctor/icons/nats-mqtt-doctor.svg"_s));
    QVERIFY(!IconFactory::appIcon().isNull());
    QVERIFY(!IconFactory::appIcon().pixmap(32, 32).isNull());
}

Profile TestMainWindow::profile(const QString &systemPassword) const
{
    Profile p;
    p.name = u"gui-test"_s;
    p.servers = {m_server.url()};
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = u"sys"_s;
    p.system.password = systemPassword;
    p.timeoutMs = 5000;
    return p;
}

void TestMainWindow::connectsAndListsAccounts()
{
    ClusterController controller;
    MainWindow window(controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ClusterTreeModel &model = *window.treeModel();

    controller.connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(model.accountIndex(u"ACME"_s).isValid() && model.accountIndex(u"BETA"_s).isValid()
                                 && model.accountIndex(u"NOJS"_s).isValid(),
                             kLoadTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), kLoadTimeoutMs);
    QVERIFY2(!window.errorBanner()->isVisible(), qPrintable(window.errorBanner()->message()));
    QCOMPARE(controller.connectionState(), ClusterController::ConnectionState::Connected);

    // Every account has its health badge before anyone selects it (stream-level checks from discovery).
    QTRY_COMPARE_WITH_TIMEOUT(model.accountIndex(u"ACME"_s).data(ClusterTreeModel::HealthRole).value<HealthBadge::Health>(),
                              HealthBadge::Health::Ok, kLoadTimeoutMs);
    QCOMPARE(model.accountIndex(u"NOJS"_s).data(ClusterTreeModel::HealthRole).value<HealthBadge::Health>(), HealthBadge::Health::Info);
    QCOMPARE(model.streamIndex(u"ACME"_s, u"$MQTT_sess"_s).data(ClusterTreeModel::HealthRole).value<HealthBadge::Health>(),
             HealthBadge::Health::Ok);

    // Servers: one, named as configured, with its version and MQTT port.
    const QModelIndex servers = model.serverGroupIndex();
    QCOMPARE(model.rowCount(servers), 1);
    const QModelIndex gui1 = model.index(0, 0, servers);
    QCOMPARE(gui1.data().toString(), u"gui1"_s);
    QVERIFY(gui1.siblingAtColumn(1).data().toString().contains(u"MQTT :%1"_s.arg(m_server.mqttPort())));

    // NOJS has JetStream disabled, ACME has its MQTT streams.
    const QModelIndex nojs = model.accountIndex(u"NOJS"_s);
    QCOMPARE(nojs.data(ClusterTreeModel::JetStreamRole).value<ClusterTreeModel::JetStreamState>(),
             ClusterTreeModel::JetStreamState::Disabled);
    QCOMPARE(accountSummary(model, u"NOJS"_s), u"JetStream disabled"_s);
    QCOMPARE(accountSummary(model, u"BETA"_s), u"JetStream · no MQTT streams"_s);
    const QModelIndex acme = model.accountIndex(u"ACME"_s);
    QCOMPARE(acme.data(ClusterTreeModel::JetStreamRole).value<ClusterTreeModel::JetStreamState>(),
             ClusterTreeModel::JetStreamState::Enabled);
    QVERIFY(model.streamIndex(u"ACME"_s, u"$MQTT_sess"_s).isValid());

    // Selecting NOJS explains what the missing JetStream means.
    window.treePanel()->setCurrentSourceIndex(nojs);
    AccountDetailPanel *panel = window.detailPanel()->accountPanel();
    QCOMPARE(window.detailPanel()->currentWidget(), panel);
    QVERIFY(panel->findChild<QLabel *>(u"accountNotice"_s)->text().contains(u"cannot connect"_s));

    // Selecting ACME shows its stream table.
    window.treePanel()->setCurrentSourceIndex(acme);
    window.treePanel()->expandSource(acme);
    QCOMPARE(panel->accountName(), u"ACME"_s);
    QCOMPARE(panel->findChild<QLabel *>(u"accountJetStream"_s)->text(), u"enabled"_s);
    QCOMPARE(panel->findChild<QLabel *>(u"accountMqttState"_s)->text(), u"JetStream without a domain"_s);
    StreamTableModel *streams = panel->streamModel();
    QCOMPARE(streams->rowCount(), 3);
    const int sess = streams->rowOf(u"$MQTT_sess"_s);
    QVERIFY(sess >= 0);
    QVERIFY(streams->rowOf(u"$MQTT_msgs"_s) >= 0);
    QVERIFY(streams->rowOf(u"$MQTT_rmsgs"_s) >= 0);
    QCOMPARE(streams->index(sess, StreamTableModel::MaxMsgsPerSubjectColumn).data().toString(), u"1"_s);
    QVERIFY(streams->index(sess, StreamTableModel::MessagesColumn).data(StreamTableModel::SortRole).toLongLong() >= 1);
    QCOMPARE(streams->index(sess, StreamTableModel::LeaderColumn).data().toString(), u"gui1"_s);
    QVERIFY(panel->streamView()->isVisible());

    // The status bar: state, versions, reconnects.
    QVERIFY2(window.statusWidget()->stateText().startsWith(u"Connected to nats://127.0.0.1:"_s),
             qPrintable(window.statusWidget()->stateText()));
    QVERIFY2(window.statusWidget()->versionsText().contains(m_server.binary().version()),
             qPrintable(window.statusWidget()->versionsText()));
    QCOMPARE(window.statusWidget()->reconnectsText(), u"Reconnects: 0"_s);

    // Select the $MQTT_sess row as a person would, then take the picture.
    window.treePanel()->setCurrentSourceIndex(model.streamIndex(u"ACME"_s, u"$MQTT_sess"_s));
    QCOMPARE(panel->streamView()->selectionModel()->selectedRows().size(), 1);
    QTest::qWait(50);
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"main-window.png"_s).isEmpty());
}

void TestMainWindow::reconnectIsCounted()
{
    ClusterController controller;
    MainWindow window(controller);
    window.show();
    controller.connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->accountIndex(u"ACME"_s).isValid() && !controller.isLoading(), kLoadTimeoutMs);

    // The server goes away and comes back on the same ports: nats.c reconnects by itself and the
    // event reaches the GUI thread through the bridge.
    QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(controller.reconnectCount(), 1, kLoadTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(controller.connectionState(), ClusterController::ConnectionState::Connected, kLoadTimeoutMs);
    QCOMPARE(window.statusWidget()->reconnectsText(), u"Reconnects: 1"_s);
    QVERIFY(window.statusWidget()->stateText().startsWith(u"Reconnected to"_s));

    // A refresh after the reconnect works and keeps the rows.
    const QPersistentModelIndex acme = window.treeModel()->accountIndex(u"ACME"_s);
    controller.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), kLoadTimeoutMs);
    QVERIFY2(!window.errorBanner()->isVisible(), qPrintable(window.errorBanner()->message()));
    QVERIFY(acme.isValid());
}

void TestMainWindow::wrongPasswordShowsInlineError()
{
    ClusterController controller;
    MainWindow window(controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    controller.connectTo(profile(u"wrong-password"_s));
    QTRY_VERIFY_WITH_TIMEOUT(window.errorBanner()->isVisible(), kLoadTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), kLoadTimeoutMs);
    ErrorBanner &banner = *window.errorBanner();
    QCOMPARE(banner.title(), u"Authentication failed"_s);
    QVERIFY2(banner.message().contains(u"authorization violation"_s), qPrintable(banner.message()));
    QVERIFY2(banner.message().contains(u"system connection"_s), qPrintable(banner.message()));
    QVERIFY2(banner.hint().contains(u"check the credentials"_s), qPrintable(banner.hint()));
    QCOMPARE(controller.connectionState(), ClusterController::ConnectionState::Failed);
    QCOMPARE(window.statusWidget()->stateText(), u"Connection failed"_s);
    QCOMPARE(window.treeModel()->rowCount(window.treeModel()->accountGroupIndex()), 0);
    QVERIFY(window.detailPanel()->message().contains(u"Could not load the cluster"_s));
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"main-window-auth-error.png"_s).isEmpty());

    // Fixing the password from the banner's retry path: connect again with the right one.
    controller.connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->accountIndex(u"ACME"_s).isValid(), kLoadTimeoutMs);
    QVERIFY(!window.errorBanner()->isVisible());
}

void TestMainWindow::connectionDialogTestsConnection()
{
    AsyncRunner runner(1);
    ConnectionDialog dialog(runner);
    Profile p = profile();
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = u"acme"_s;
    p.auth.password = u"acmepass"_s;
    dialog.setProfile(p);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.profile(), p);

    dialog.testConnection();
    QVERIFY(dialog.isTesting()); // the GUI thread did not wait
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isTesting(), kLoadTimeoutMs);
    QVERIFY2(dialog.statusText().contains(u"as a user of account ACME"_s), qPrintable(dialog.statusText()));
    QVERIFY2(dialog.statusText().contains(u"System account: connected"_s), qPrintable(dialog.statusText()));
    QVERIFY2(dialog.statusText().contains(u"gui1"_s), qPrintable(dialog.statusText()));
    QVERIFY(!saveScreenshot(dialog, m_shots.path(), u"connection-dialog.png"_s).isEmpty());

    p.auth.password = u"nope"_s;
    dialog.setProfile(p);
    dialog.testConnection();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isTesting(), kLoadTimeoutMs);
    QVERIFY2(dialog.statusText().startsWith(u"Authentication failed"_s), qPrintable(dialog.statusText()));
}

void TestMainWindow::connectionDialogValidatesInline()
{
    AsyncRunner runner(1);
    ConnectionDialog dialog(runner);
    Profile p = profile();
    p.servers = {u"nats://127.0.0.1:99999"_s};
    dialog.setProfile(p);
    dialog.show();
    dialog.accept();
    QVERIFY(dialog.isVisible()); // stayed open
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    auto *validation = dialog.findChild<QLabel *>(u"validationLabel"_s);
    QVERIFY(validation->isVisible());
    QVERIFY2(validation->text().contains(u"99999"_s), qPrintable(validation->text()));
}

// A server that accepts TCP connections but never speaks: nats.c waits for its INFO until the
// timeout. Connecting, showing the state and shutting down must not wait for it on the GUI thread.
void TestMainWindow::guiThreadNeverWaitsForTheNetwork()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    QVERIFY(::bind(fd, reinterpret_cast<sockaddr *>(&address), length) == 0);
    QVERIFY(::listen(fd, 16) == 0);
    QVERIFY(::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0);
    const auto closeSocket = qScopeGuard([fd] { ::close(fd); });

    Profile silent = profile();
    silent.servers = {u"nats://127.0.0.1:%1"_s.arg(ntohs(address.sin_port))};
    silent.timeoutMs = 1500;

    QElapsedTimer timer;
    {
        ClusterController controller;
        {
            MainWindow window(controller);
            window.show();
            timer.start();
            controller.connectTo(silent);
            QVERIFY2(timer.elapsed() < 500, qPrintable(u"connectTo() took %1 ms"_s.arg(timer.elapsed())));
            QVERIFY(controller.isLoading());
            QVERIFY(window.statusWidget()->stateText().startsWith(u"Connecting to"_s));
            timer.restart();
            QTest::qWait(200); // the event loop keeps running meanwhile
            QVERIFY(timer.elapsed() < 1000);
            QTRY_VERIFY_WITH_TIMEOUT(window.errorBanner()->isVisible(), kLoadTimeoutMs);
            QVERIFY2(window.errorBanner()->message().contains(silent.servers.first()), qPrintable(window.errorBanner()->message()));
            QCOMPARE(controller.connectionState(), ClusterController::ConnectionState::Failed);

            // Connect again and close everything while the attempt still runs.
            controller.connectTo(silent);
            QVERIFY(controller.isLoading());
        }
        timer.restart();
    } // ~ClusterController: shutdown waits for the running attempt, bounded by its timeout
    QVERIFY2(timer.elapsed() < silent.timeoutMs + 4000, qPrintable(u"shutdown took %1 ms"_s.arg(timer.elapsed())));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
