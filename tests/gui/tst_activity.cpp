// The Activity tab against a real nats-server with real MQTT clients (mosquitto): an account's clients
// connecting and disconnecting appear as they happen (followed through the system account), two clients
// with one client ID raise the takeover banner with the address they come from, the chart counts the
// last hour's connects and disconnects, the list filters; and the sessions table's Connected column
// follows a persistent session's client connecting and leaving without a reload.
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/activityfeed.h"
#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clienteventmodel.h"
#include "models/sessiontablemodel.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/activitypanel.h"
#include "panels/sessionspanel.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::StringLiterals;

namespace {

QProcess *subscriber(const NatsServerFixture &server, const QString &clientId, QObject *parent, bool persistent = false)
{
    auto *p = new QProcess(parent);
    QStringList args{u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(server.mqttPort()),
                     u"-u"_s, u"acme"_s,      u"-P"_s, u"acmepass"_s,
                     u"-i"_s, clientId,       u"-t"_s, u"act/#"_s,
                     u"-q"_s, u"1"_s};
    if (persistent)
        args << u"-c"_s;
    p->start(u"mosquitto_sub"_s, args);
    return p;
}

void stop(QProcess *p)
{
    p->kill();
    p->waitForFinished(5000);
}

} // namespace

class TestActivity : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
        QVERIFY2(m_server.start(u"newest"_s), qPrintable(m_server.errorString()));
        const MqttResult session =
            MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"live-1"_s, {u"act/#"_s}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    }

    void followsClientsAndTakeovers()
    {
        ClusterController controller;
        MainWindow window(controller);
        QVERIFY(openAccount(window, controller, standardProfile(m_server.url())));
        AccountWorkspace &workspace = *window.workspace();
        workspace.setCurrentIndex(AccountWorkspace::ActivityTab);
        ActivityPanel &activity = *workspace.activityPanel();
        QCOMPARE(activity.account(), u"ACME"_s);
        QTRY_VERIFY2(activity.statusText().contains(u"Following"_s), qPrintable(activity.statusText()));

        // The subscription is up once a probe shows (it may start after the window connected).
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                (void)MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).connectOnce(u"probe-act"_s);
                return activity.proxy()->rowCount() > 0;
            }(),
            20000);

        QObject owner;
        QProcess *a = subscriber(m_server, u"dup-act"_s, &owner);
        QTest::qWait(300);
        QProcess *b = subscriber(m_server, u"dup-act"_s, &owner);
        QTRY_VERIFY_WITH_TIMEOUT(!activity.bannerText().isEmpty(), 20000);
        stop(a);
        stop(b);
        QVERIFY2(activity.bannerText().contains(u"\"dup-act\""_s) && activity.bannerText().contains(u"127.0.0.1"_s),
                 qPrintable(activity.bannerText()));
        QTRY_VERIFY(activity.chartTotals().first >= 3 && activity.chartTotals().second >= 3);

        activity.filterEdit()->setText(u"dup-act"_s);
        QTRY_VERIFY(activity.proxy()->rowCount() >= 4);
        for (int row = 0; row < activity.proxy()->rowCount(); ++row)
            QCOMPARE(activity.proxy()->index(row, ClientEventModel::ClientColumn).data().toString(), u"dup-act"_s);
        bool takeover = false;
        for (int row = 0; row < activity.proxy()->rowCount(); ++row)
            takeover =
                takeover || activity.proxy()->index(row, ClientEventModel::ReasonColumn).data().toString() == u"Duplicate Client ID"_s;
        QVERIFY(takeover);
        QVERIFY(!saveScreenshot(window, m_shots.path(), u"activity.png"_s).isEmpty());
        activity.filterEdit()->clear();
    }

    void sessionsConnectedFollowsEvents()
    {
        ClusterController controller;
        MainWindow window(controller);
        QVERIFY(openAccount(window, controller, standardProfile(m_server.url())));
        QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
        SessionTableModel &sessions = *window.workspace()->sessionsPanel()->model();
        const int row = sessions.rowOf(u"live-1"_s);
        QVERIFY(row >= 0);
        QCOMPARE(sessions.connectedTextAt(row), u"no"_s);
        // The feed is up once a probe shows in the activity list.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                (void)MqttClient(m_server.mqttPort(), u"acme"_s, u"acmepass"_s).connectOnce(u"probe-sess"_s);
                return window.workspace()->activityPanel()->proxy()->rowCount() > 0;
            }(),
            20000);
        QObject owner;
        QProcess *client = subscriber(m_server, u"live-1"_s, &owner, true);
        QTRY_COMPARE_WITH_TIMEOUT(sessions.connectedTextAt(sessions.rowOf(u"live-1"_s)), u"yes"_s, 20000);
        stop(client);
        QTRY_COMPARE_WITH_TIMEOUT(sessions.connectedTextAt(sessions.rowOf(u"live-1"_s)), u"no"_s, 20000);
    }

private:
    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

QTEST_MAIN(TestActivity)
#include "tst_activity.moc"
