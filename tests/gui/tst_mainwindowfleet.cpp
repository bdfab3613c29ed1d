// The main window's cluster tree with many accounts, end to end against a real nats-server 2.9
// (tests/support fixture): 50 JetStream accounts besides ACME and SYS, three with MQTT sessions made
// by mosquitto, one of which lost its $MQTT_sess (a critical finding). Checks that every account
// arrives with its badge, "tree complete" is logged once per connect (mqttdoctor.load), problems
// come first, the filter box finds accounts as one types (Ctrl+F, servers stay, the current account
// stays current while hidden and is selected again when shown), the repair wizard and the log
// explainer's jump act on the right account through the proxy, the order is remembered, and a
// refresh keeps selection and expansion. Saves a screenshot in a temporary folder.
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QLoggingCategory>
#include <QMutex>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include "actions/actionmanager.h"
#include "controllers/clustercontroller.h"
#include "dialogs/logexplainerdialog.h"
#include "dialogs/repairwizard.h"
#include "mainwindow.h"
#include "models/accountsort.h"
#include "models/clustertreemodel.h"
#include "models/clustertreeproxymodel.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/accountdetailpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/detailpanel.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;
using Health = HealthBadge::Health;

namespace {

constexpr int kTenants = 50;
constexpr int kTimeoutMs = 30000;

QString tenant(int i)
{
    return u"tenant-%1"_s.arg(i, 2, 10, QLatin1Char('0'));
}
QString tenantUser(int i)
{
    return u"t%1"_s.arg(i);
}
QString tenantPassword(int i)
{
    return u"tpass%1"_s.arg(i);
}

// What the mqttdoctor.load category printed about the tree, in order (it also logs the sessions and
// findings loads of the account shown).
QMutex g_loadLinesMutex;
QStringList g_loadLines;
QtMessageHandler g_previousHandler = nullptr;

void captureLoadLines(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (context.category && QByteArrayView(context.category) == "mqttdoctor.load" && message.startsWith(QLatin1String("tree complete"))) {
        QMutexLocker lock(&g_loadLinesMutex);
        g_loadLines << message;
    }
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

QStringList loadLines()
{
    QMutexLocker lock(&g_loadLinesMutex);
    return g_loadLines;
}

} // namespace

class TestMainWindowFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void treeFilterAndOrder();

private:
    Profile profile() const;
    QStringList viewAccounts(ClusterTreePanel &panel) const;

    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

void TestMainWindowFleet::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(ClusterTreePanel::sortSettingsKey());
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));

    ServerConfig config = ServerConfig::standard();
    config.setServerName(u"fleet1"_s);
    for (int i = 0; i < kTenants; ++i)
        config.addAccount(ServerConfig::jetStreamAccount(tenant(i), tenantUser(i), tenantPassword(i)));
    QVERIFY2(m_server.start(u"2.9"_s, config), qPrintable(m_server.errorString()));

    for (int i : {7, 21, 33}) {
        const MqttResult session = MqttClient(m_server.mqttPort(), tenantUser(i), tenantPassword(i))
                                       .createPersistentSession(u"fleet-sub-%1"_s.arg(i), {u"fleet/%1"_s.arg(i)}, 1);
        QVERIFY2(session.connected() && session.subscribed(), qPrintable(session.describe()));
    }
    // tenant-21 loses its sessions stream: its clients cannot connect (STREAM_MISSING, critical).
    Profile admin;
    admin.servers = {m_server.url()};
    admin.auth.kind = Credentials::Kind::UserPassword;
    admin.auth.user = tenantUser(21);
    admin.auth.password = tenantPassword(21);
    ConnectionSet connections(admin);
    auto conn = connections.primary();
    QVERIFY(conn);
    QVERIFY(JetStreamClient(*conn).call(u"STREAM.DELETE.$MQTT_sess"_s));

    QLoggingCategory::setFilterRules(u"mqttdoctor.load.info=true"_s);
    g_previousHandler = qInstallMessageHandler(captureLoadLines);
}

void TestMainWindowFleet::cleanupTestCase()
{
    qInstallMessageHandler(g_previousHandler);
    QSettings().remove(ClusterTreePanel::sortSettingsKey());
}

Profile TestMainWindowFleet::profile() const
{
    Profile p = WindowSteps::standardProfile(m_server.url(), false, u"fleet"_s);
    p.allowChanges = true; // the repair wizard opens only then
    return p;
}

QStringList TestMainWindowFleet::viewAccounts(ClusterTreePanel &panel) const
{
    const QModelIndex group = panel.proxy()->mapFromSource(panel.model()->accountGroupIndex());
    QStringList names;
    for (int row = 0; row < panel.proxy()->rowCount(group); ++row)
        names << panel.proxy()->index(row, 0, group).data(ClusterTreeModel::NameRole).toString();
    return names;
}

void TestMainWindowFleet::treeFilterAndOrder()
{
    ClusterController controller;
    MainWindow window(controller);
    window.resize(1400, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ClusterTreePanel &panel = *window.treePanel();
    ClusterTreeModel &model = *panel.model();
    QLineEdit &filter = *panel.filterEdit();
    QCOMPARE(panel.proxy()->sortMode(), AccountSort::Mode::ByHealth);

    // Connect: every account arrives with its stream-level badge, and the tree says so once.
    QSignalSpy complete(&window, &MainWindow::treeComplete);
    const qsizetype linesBefore = loadLines().size();
    controller.connectTo(profile());
    QTRY_COMPARE_WITH_TIMEOUT(complete.count(), 1, kTimeoutMs);
    QVERIFY(!controller.isLoading());
    QCOMPARE(model.accountCount(), kTenants + 2); // + ACME and SYS
    for (int i = 0; i < kTenants; ++i)
        QVERIFY2(model.healthAt(model.accountIndex(tenant(i))) != Health::Unknown, qPrintable(tenant(i)));
    QCOMPARE(model.healthAt(model.accountIndex(tenant(21))), Health::Critical);
    QCOMPARE(model.healthAt(model.accountIndex(tenant(7))), Health::Ok);
    QCOMPARE(model.healthAt(model.streamIndex(tenant(7), u"$MQTT_msgs"_s)), Health::Ok);
    QStringList lines = loadLines().mid(linesBefore);
    QCOMPARE(lines.size(), 1);
    const QRegularExpressionMatch line =
        QRegularExpression(u"tree complete: (\\d+) accounts, (\\d+) servers, (\\d+) ms after connect"_s).match(lines.first());
    QVERIFY2(line.hasMatch(), qPrintable(lines.first()));
    QCOMPARE(line.captured(1).toInt(), kTenants + 2);
    QCOMPARE(line.captured(2).toInt(), 1);
    QCOMPARE(complete.first().at(0).toInt(), kTenants + 2);
    QCOMPARE(complete.first().at(2).toLongLong(), line.captured(3).toLongLong());

    // Problems first: tenant-21 leads, the rest by name.
    QStringList shown = viewAccounts(panel);
    QCOMPARE(shown.size(), kTenants + 2);
    QCOMPARE(shown.first(), tenant(21));
    QCOMPARE(shown.at(1), u"ACME"_s);
    QVERIFY(panel.view()->isExpanded(panel.proxy()->mapFromSource(model.accountGroupIndex())));

    // Open tenant-33 and expand it.
    panel.setCurrentSourceIndex(model.accountIndex(tenant(33)));
    panel.expandSource(model.accountIndex(tenant(33)));
    AccountDetailPanel *details = window.detailPanel()->accountPanel();
    QCOMPARE(details->accountName(), tenant(33));

    // Ctrl+F goes to the filter; typing narrows the accounts as one types.
    panel.view()->setFocus();
    QTest::keySequence(&window, QKeySequence::Find);
    QTRY_VERIFY(filter.hasFocus());
    QTest::keyClicks(&filter, u"TENANT-0"_s);
    QCOMPARE(panel.proxy()->filterText(), u"TENANT-0"_s);
    shown = viewAccounts(panel);
    QCOMPARE(shown.size(), 10);
    QVERIFY(shown.contains(tenant(7)));
    QVERIFY(!shown.contains(tenant(33)));
    QCOMPARE(panel.matchText(), u"10 of 52 accounts"_s);
    // The server stays, and a matching account keeps its streams.
    QCOMPARE(panel.proxy()->rowCount(panel.proxy()->mapFromSource(model.serverGroupIndex())), 1);
    QVERIFY(panel.proxy()->rowCount(panel.proxy()->mapFromSource(model.accountIndex(tenant(7)))) > 0);

    // tenant-33 is hidden but still the current account: the details and the repair wizard act on it.
    QCOMPARE(panel.currentSourceIndex(), model.accountIndex(tenant(33)));
    QCOMPARE(details->accountName(), tenant(33));
    window.actions()->repairAction()->trigger();
    auto *wizard = window.findChild<RepairWizard *>();
    QVERIFY(wizard);
    QCOMPARE(wizard->account(), tenant(33));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->isChecking(), kTimeoutMs);
    wizard->reject();
    QTRY_VERIFY(!window.findChild<RepairWizard *>());
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    // A narrower filter that shows it again selects it again; the clear button shows everything.
    filter.setText(u"nt-3"_s);
    QCOMPARE(viewAccounts(panel).size(), 10);
    QCOMPARE(panel.proxy()->mapToSource(panel.view()->currentIndex()), model.accountIndex(tenant(33)));
    QVERIFY(panel.isSourceExpanded(model.accountIndex(tenant(33))));
    // The clear button: the tool button Qt puts into the line edit for its clear action.
    QAction *clear = filter.findChild<QAction *>(u"_q_qlineeditclearaction"_s);
    QVERIFY(clear);
    QToolButton *clearButton = nullptr;
    for (QToolButton *button : filter.findChildren<QToolButton *>())
        if (button->defaultAction() == clear)
            clearButton = button;
    QVERIFY(clearButton);
    QTest::mouseClick(clearButton, Qt::LeftButton);
    QCOMPARE(filter.text(), QString());
    QCOMPARE(viewAccounts(panel).size(), kTenants + 2);
    QCOMPARE(panel.matchText(), QString());
    QCOMPARE(panel.proxy()->mapToSource(panel.view()->currentIndex()), model.accountIndex(tenant(33)));

    // Return in the filter goes to the first match.
    filter.setFocus();
    QTest::keyClicks(&filter, u"tenant-4"_s);
    QTest::keyClick(&filter, Qt::Key_Return);
    QCOMPARE(panel.currentSourceIndex(), model.accountIndex(tenant(40)));
    QTRY_VERIFY(panel.view()->hasFocus());
    QCOMPARE(details->accountName(), tenant(40));

    // The log explainer's "Go to Account" finds an account the filter hides (and clears the filter).
    window.actions()->explainAction()->trigger();
    auto *explainer = window.findChild<LogExplainerDialog *>();
    QVERIFY(explainer);
    emit explainer->accountRequested(tenant(21), {u"STREAM_MISSING"_s});
    QCOMPARE(filter.text(), QString());
    QCOMPARE(panel.currentSourceIndex(), model.accountIndex(tenant(21)));
    QCOMPARE(panel.proxy()->mapToSource(panel.view()->currentIndex()), model.accountIndex(tenant(21)));
    QCOMPARE(details->accountName(), tenant(21));
    explainer->close();

    // The picture: a filter, problems first, badges.
    filter.setText(u"tenant-2"_s);
    panel.setCurrentSourceIndex(model.accountIndex(tenant(21)));
    panel.expandSource(model.accountIndex(tenant(21)));
    QTest::qWait(50);
    // (docs/screenshots/fleet-tree.png comes from bench_guifleet, with 10,000 accounts.)
    QVERIFY(!WindowSteps::saveScreenshot(window, m_shots.path(), u"fleet-tree-50.png"_s, false).isEmpty());
    filter.clear();

    // By name, remembered for the next window.
    panel.sortBox()->setCurrentIndex(panel.sortBox()->findData(int(AccountSort::Mode::ByName)));
    QCOMPARE(panel.proxy()->sortMode(), AccountSort::Mode::ByName);
    shown = viewAccounts(panel);
    QStringList byName = shown;
    std::sort(byName.begin(), byName.end(), AccountSort::nameLess);
    QCOMPARE(shown, byName);
    QCOMPARE(QSettings().value(ClusterTreePanel::sortSettingsKey()).toString(), u"name"_s);
    {
        ClusterTreePanel another;
        QCOMPARE(another.proxy()->sortMode(), AccountSort::Mode::ByName);
        QCOMPARE(another.sortBox()->currentData().toInt(), int(AccountSort::Mode::ByName));
    }
    QCOMPARE(panel.proxy()->mapToSource(panel.view()->currentIndex()), model.accountIndex(tenant(21)));

    // A refresh keeps the selection and the expansion, and logs nothing more.
    QVERIFY(panel.isSourceExpanded(model.accountIndex(tenant(21))));
    controller.refresh();
    QVERIFY(controller.isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), kTimeoutMs);
    QCOMPARE(panel.proxy()->mapToSource(panel.view()->currentIndex()), model.accountIndex(tenant(21)));
    QVERIFY(panel.isSourceExpanded(model.accountIndex(tenant(21))));
    QCOMPARE(loadLines().mid(linesBefore).size(), 1);
    QCOMPARE(complete.count(), 1);

    // A new connect logs again.
    controller.connectTo(profile());
    QTRY_COMPARE_WITH_TIMEOUT(complete.count(), 2, kTimeoutMs);
    lines = loadLines().mid(linesBefore);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines.last().startsWith(u"tree complete: 52 accounts, 1 servers, "_s), qPrintable(lines.last()));
}

QTEST_MAIN(TestMainWindowFleet)
#include "tst_mainwindowfleet.moc"
