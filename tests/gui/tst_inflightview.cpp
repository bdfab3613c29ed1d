// What is in flight in the main window, against a real newest nats-server: a device's session with
// three commands queued while it is offline, a QoS 2 message a client published and never released,
// and the QoS 2 record a clean session left behind (QOS2_ORPHANED). The session details show the
// queued commands in order; the account's "In flight" tab lists the sessions and the gone one. Both are
// read on the worker pool. Saves docs/screenshots/inflight.png with MQTTDOCTOR_WRITE_SCREENSHOTS=1.
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/inflighttablemodel.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/inflightpanel.h"
#include "panels/sessionspanel.h"
#include "rawmqtt.h"
#include "widgets/sessiondetailsview.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::StringLiterals;

class TestInflightView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
        QVERIFY2(m_server.start(u"newest"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));
        MqttClient acme(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        acme.setTimeoutMs(30000);
        MqttResult sub;
        for (int attempt = 0; attempt < 3 && !sub.subscribed(); ++attempt)
            sub = acme.createPersistentSession(u"device-1"_s, {u"cmd/device-1/#"_s}, 1);
        QVERIFY2(sub.subscribed(), qPrintable(sub.describe()));
        for (const QString &t : m_topics)
            QVERIFY2(acme.publish(t, R"({"cmd":")" + t.section(u'/', -1).toUtf8() + R"("})", 1).acknowledged, qPrintable(t));
        QCOMPARE(publishQos2AndLeave(m_server.mqttPort(), u"acme"_s, u"acmepass"_s, u"gateway-7"_s, false, u"plant/line1/setpoint"_s,
                                     "42.5", 311),
                 u"PUBREC"_s);
        QCOMPARE(
            publishQos2AndLeave(m_server.mqttPort(), u"acme"_s, u"acmepass"_s, u"old-tablet"_s, true, u"plant/line1/stop"_s, "now", 12),
            u"PUBREC"_s);
        QTest::qWait(300);
    }

    void inflightViews()
    {
        ClusterController controller;
        MainWindow window(controller);
        QVERIFY(openAccount(window, controller, standardProfile(m_server.url(), true, u"inflight-test"_s)));
        AccountWorkspace &workspace = *window.workspace();

        // One session's details: its queued commands, oldest first, not yet delivered.
        QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
        SessionsPanel &sessions = *workspace.sessionsPanel();
        QVERIFY(sessions.selectClient(u"device-1"_s));
        QTRY_VERIFY_WITH_TIMEOUT(sessions.detailsView()->inflightText().contains(u"Queued, not yet acknowledged (3)"_s), kLoadTimeoutMs);
        const QString text = sessions.detailsView()->inflightText();
        const qsizetype first = text.indexOf(m_topics.at(0)), second = text.indexOf(m_topics.at(1)), third = text.indexOf(m_topics.at(2));
        QVERIFY2(first > 0 && first < second && second < third, qPrintable(text));
        QVERIFY2(text.contains(u"not delivered"_s), qPrintable(text));
        QVERIFY(sessions.selectClient(u"gateway-7"_s));
        QTRY_VERIFY_WITH_TIMEOUT(sessions.detailsView()->inflightText().contains(u"packet 311  plant/line1/setpoint"_s), kLoadTimeoutMs);

        // The account's "In flight" tab: both sessions and the gone one.
        workspace.setCurrentIndex(AccountWorkspace::InflightTab);
        InflightPanel &panel = *workspace.inflightPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
        QVERIFY2(panel.noticeText().isEmpty(), qPrintable(panel.noticeText()));
        const InflightTableModel &model = *panel.model();
        QCOMPARE(model.rowCount(), 3);
        QStringList clients;
        for (int row = 0; row < model.rowCount(); ++row)
            clients << model.index(row, InflightTableModel::ClientIdColumn).data().toString();
        QVERIFY2(clients.contains(u"device-1"_s) && clients.contains(u"gateway-7"_s), qPrintable(clients.join(u", "_s)));
        QCOMPARE(clients.last(), u"old-tablet (gone)"_s);
        QVERIFY(model.isOrphanRow(2));
        QVERIFY(model.index(2, InflightTableModel::NoteColumn).data().toString().startsWith(u"QOS2_ORPHANED"_s));
        const int device = int(clients.indexOf(u"device-1"_s));
        QCOMPARE(model.index(device, InflightTableModel::QueuedColumn).data().toLongLong(), 3);
        QVERIFY(model.index(device, InflightTableModel::OldestQueuedColumn).data().toString().contains(m_topics.first()));
        QVERIFY2(panel.statusText().contains(u"QOS2_ORPHANED"_s), qPrintable(panel.statusText()));
        QVERIFY(!saveScreenshot(window, m_shots.path(), u"inflight.png"_s).isEmpty());
    }

private:
    NatsServerFixture m_server;
    QTemporaryDir m_shots;
    const QStringList m_topics{u"cmd/device-1/reboot"_s, u"cmd/device-1/firmware"_s, u"cmd/device-1/led"_s};
};

QTEST_MAIN(TestInflightView)
#include "tst_inflightview.moc"
