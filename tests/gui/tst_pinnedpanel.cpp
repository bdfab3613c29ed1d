// The account's "Pinned" tab against a real newest nats-server: who keeps messages in $MQTT_msgs. An
// offline session with queued messages above the INTEREST_PINNED threshold (lowered for the test), one below
// it, and a connected client's session; the table lists them most bytes first, the bar chart shows the same
// holders in the same order, the flagged one is bold and its repair is one click away (the wizard opens with
// its finding), the others' is not. Saves docs/screenshots/pinned.png with MQTTDOCTOR_WRITE_SCREENSHOTS=1.
#include <QChart>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/accountdatacontroller.h"
#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/pinnedtablemodel.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/findingspanel.h"
#include "panels/pinnedpanel.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::StringLiterals;

class TestPinnedPanel : public QObject
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
        for (const QString &id : {u"cold-storage-7"_s, u"tablet-2"_s})
            QVERIFY(acme.createPersistentSession(id, {u"fleet/%1/cmd"_s.arg(id)}, 1).subscribed());
        for (int i = 0; i < 6; ++i)
            QVERIFY(acme.publish(u"fleet/cold-storage-7/cmd"_s, QByteArray(400, 'c'), 1).acknowledged);
        QVERIFY(acme.publish(u"fleet/tablet-2/cmd"_s, QByteArray(400, 't'), 1).acknowledged);
    }

    void pinnedTab()
    {
        ClusterController controller;
        MainWindow window(controller);
        CheckOptions options;
        options.pinnedWarnAt = 3;
        window.accountData()->setCheckOptions(options);
        QVERIFY(openAccount(window, controller, standardProfile(m_server.url(), true, u"pinned-test"_s)));
        AccountWorkspace &workspace = *window.workspace();
        QVERIFY(workspace.isTabVisible(AccountWorkspace::PinnedTab));
        workspace.setCurrentIndex(AccountWorkspace::PinnedTab);
        PinnedPanel &panel = *workspace.pinnedPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
        const PinnedTableModel &model = *panel.model();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.holders().at(0).clientId, u"cold-storage-7"_s);
        QCOMPARE(model.holders().at(0).messages, 6);
        QCOMPARE(model.holders().at(0).connected, std::optional<bool>(false));
        QCOMPARE(model.holders().at(1).clientId, u"tablet-2"_s);
        QCOMPARE(panel.chartedNames(), (QStringList{u"cold-storage-7"_s, u"tablet-2"_s}));
        QCOMPARE(panel.chart()->series().size(), 1);
        QVERIFY2(panel.statusText().contains(u"1 above the INTEREST_PINNED threshold"_s), qPrintable(panel.statusText()));

        // Only the flagged session's repair is offered.
        QTRY_VERIFY_WITH_TIMEOUT(model.flaggedCount() == 1, kLoadTimeoutMs);
        QVERIFY(panel.selectHolder(u"tablet-2"_s));
        QVERIFY(!panel.repairButton()->isEnabled());
        QVERIFY(panel.selectHolder(u"cold-storage-7"_s));
        QVERIFY(panel.repairButton()->isEnabled());
        QVERIFY(panel.view()->currentIndex().data(PinnedTableModel::FlaggedRole).toBool());
        QVERIFY(!saveScreenshot(window, m_shots.path(), u"pinned.png"_s).isEmpty());
        QSignalSpy asked(&panel, &PinnedPanel::repairRequested);
        // Not the wizard itself here (it would check again with its own options): what it is opened with.
        QObject::disconnect(&panel, &PinnedPanel::repairRequested, &window, nullptr);
        panel.repairButton()->click();
        QCOMPARE(asked.size(), 1);
        const auto findings = asked.first().first().value<QList<Finding>>();
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().code, u"INTEREST_PINNED"_s);
        QCOMPARE(findings.first().clientId, u"cold-storage-7"_s);
        QCOMPARE(findings.first().repair, u"delete_session"_s);

        // The first load had no earlier sample: the findings say the two-sample checks did not run. A refresh
        // compares with it, and the note is gone.
        FindingsPanel &findingsPanel = *workspace.findingsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(findingsPanel.isLoaded(), kLoadTimeoutMs);
        QVERIFY2(findingsPanel.noticeText().contains(u"compare two samples"_s), qPrintable(findingsPanel.noticeText()));
        QVERIFY(!findingsPanel.verdictOpen());
        workspace.reload();
        QTRY_VERIFY_WITH_TIMEOUT(!window.accountData()->isBusy() && findingsPanel.isLoaded(), kLoadTimeoutMs);
        QVERIFY2(!findingsPanel.noticeText().contains(u"compare two samples"_s), qPrintable(findingsPanel.noticeText()));
    }

private:
    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

QTEST_MAIN(TestPinnedPanel)
#include "tst_pinnedpanel.moc"
