// The account's "Pinned" tab against a real newest nats-server: who keeps messages in $MQTT_msgs. An
// offline session with queued messages above the INTEREST_PINNED threshold (lowered for the test), one below
// it, and a connected client's session; the table lists them most bytes first, the bar chart shows the same
// holders in the same order, the flagged one is bold and its repair is one click away (the wizard opens with
// its finding, checked again with the window's thresholds), the others' is not. The threshold set in
// Tools > Check Thresholds flags it the same way, is kept for the next window, and "Restore Defaults" brings
// the default back. Saves docs/screenshots/pinned.png and check-thresholds.png with
// MQTTDOCTOR_WRITE_SCREENSHOTS=1.
#include <QAction>
#include <QChart>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/accountdatacontroller.h"
#include "controllers/clustercontroller.h"
#include "dialogs/checkthresholdsdialog.h"
#include "dialogs/repairwizard.h"
#include "mainwindow.h"
#include "models/pinnedtablemodel.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/findingspanel.h"
#include "panels/pinnedpanel.h"
#include "settings/checkthresholds.h"
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
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QSettings().remove(u"checks"_s);
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
        panel.repairButton()->click();
        QCOMPARE(asked.size(), 1);
        const auto findings = asked.first().first().value<QList<Finding>>();
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().code, u"INTEREST_PINNED"_s);
        QCOMPARE(findings.first().clientId, u"cold-storage-7"_s);
        QCOMPARE(findings.first().repair, u"delete_session"_s);
        // The wizard checks again with the window's thresholds, so it finds the same finding and ticks it.
        auto *wizard = window.findChild<RepairWizard *>(u"repairWizard"_s);
        QVERIFY(wizard);
        QTRY_VERIFY_WITH_TIMEOUT(!wizard->selectedFindings().isEmpty(), kLoadTimeoutMs);
        QCOMPARE(wizard->selectedFindings().size(), 1);
        QCOMPARE(wizard->selectedFindings().first().code, u"INTEREST_PINNED"_s);
        QCOMPARE(wizard->selectedFindings().first().clientId, u"cold-storage-7"_s);
        wizard->reject();

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

    void thresholdsFromTheDialog()
    {
        QSettings().remove(u"checks"_s);
        ClusterController controller;
        MainWindow window(controller);
        QCOMPARE(window.accountData()->checkOptions().pinnedWarnAt, CheckOptions().pinnedWarnAt);
        QVERIFY(openAccount(window, controller, standardProfile(m_server.url(), true, u"pinned-test"_s)));
        AccountWorkspace &workspace = *window.workspace();
        workspace.setCurrentIndex(AccountWorkspace::PinnedTab);
        PinnedPanel &panel = *workspace.pinnedPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
        QCOMPARE(panel.model()->rowCount(), 2);
        QCOMPARE(panel.model()->flaggedCount(), 0); // 6 messages are far below the default 10,000

        // Tools > Check Thresholds: 3 pinned messages; "Apply and Refresh" flags cold-storage-7.
        auto *action = window.findChild<QAction *>(u"actionCheckThresholds"_s);
        QVERIFY(action);
        action->trigger();
        auto *dialog = window.findChild<CheckThresholdsDialog *>(u"checkThresholdsDialog"_s);
        QVERIFY(dialog && dialog->isVisible());
        auto *pinned = dialog->findChild<QSpinBox *>(u"pinnedWarnAt"_s);
        QVERIFY(pinned);
        QCOMPARE(pinned->value(), 10000);
        pinned->setValue(3);
        QVERIFY(!saveScreenshot(*dialog, m_shots.path(), u"check-thresholds.png"_s).isEmpty());
        dialog->accept();
        QCOMPARE(window.accountData()->checkOptions().pinnedWarnAt, 3);
        QTRY_VERIFY_WITH_TIMEOUT(!window.accountData()->isBusy() && panel.isLoaded() && panel.model()->flaggedCount() == 1, kLoadTimeoutMs);
        QCOMPARE(panel.model()->holders().at(0).clientId, u"cold-storage-7"_s);
        QCOMPARE(CheckThresholds::load().pinnedWarnAt, 3);
        QCOMPARE(CheckThresholds::load().staleAfterSecs, CheckOptions().staleAfterSecs); // untouched: still the default

        // The next window starts with the kept thresholds.
        {
            ClusterController other;
            MainWindow next(other);
            QCOMPARE(next.accountData()->checkOptions().pinnedWarnAt, 3);
        }

        // "Restore Defaults" shows the defaults; Cancel keeps what was kept, Apply stores the defaults.
        action->trigger();
        dialog = window.findChild<CheckThresholdsDialog *>(u"checkThresholdsDialog"_s);
        QVERIFY(dialog);
        pinned = dialog->findChild<QSpinBox *>(u"pinnedWarnAt"_s);
        QCOMPARE(pinned->value(), 3);
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::RestoreDefaults)->click();
        QCOMPARE(pinned->value(), 10000);
        dialog->reject();
        QCOMPARE(CheckThresholds::load().pinnedWarnAt, 3);
        QCOMPARE(window.accountData()->checkOptions().pinnedWarnAt, 3);
        QTRY_VERIFY(!window.findChild<CheckThresholdsDialog *>(u"checkThresholdsDialog"_s));
        action->trigger();
        dialog = window.findChild<CheckThresholdsDialog *>(u"checkThresholdsDialog"_s);
        QVERIFY(dialog);
        dialog->restoreDefaults();
        dialog->accept();
        QCOMPARE(CheckThresholds::load().pinnedWarnAt, CheckOptions().pinnedWarnAt);
        QVERIFY2(!QSettings().contains(u"checks/pinnedWarnAt"_s), "a default is not stored: a later default applies");
        // A hand-edited value that is no threshold falls back to the default.
        QSettings().setValue(u"checks/apiErrorsPerMinute"_s, u"lots"_s);
        QSettings().setValue(u"checks/staleAfterSecs"_s, -5);
        QCOMPARE(CheckThresholds::load().apiErrorsPerMinute, CheckOptions().apiErrorsPerMinute);
        QCOMPARE(CheckThresholds::load().staleAfterSecs, CheckOptions().staleAfterSecs);
        QSettings().remove(u"checks"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!window.accountData()->isBusy() && panel.isLoaded() && panel.model()->flaggedCount() == 0, kLoadTimeoutMs);
    }

private:
    NatsServerFixture m_server;
    QTemporaryDir m_shots;
};

QTEST_MAIN(TestPinnedPanel)
#include "tst_pinnedpanel.moc"
