// The operator action dialog's run in the main window, against a real nats-server (newest) with MQTT sessions
// made by mosquitto: Cancel while a step runs stops the run after it, the result names the journal, and Resume
// plans the steps not done, which are confirmed again and run to the end; the dialog destroyed while a step
// runs stops the run after that step and the window goes on; Disconnect of a connected client (a mosquitto_sub
// kept running) keeps its session and says whether the client came back; the Retained tab's Delete key clears
// the selected topic (the account's MQTT user in the profile) and "Clear Retained Matching Filter…" asks for an
// MQTT filter and previews what matches.
#include <QAbstractButton>
#include <QAction>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QInputDialog>
#include <QCheckBox>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSemaphore>

#include <atomic>
#include <functional>

#include "actions/operatoractions.h"
#include "actions/rowactions.h"
#include "controllers/clustercontroller.h"
#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "mainwindow.h"
#include "mqttclient.h"
#include "operatortestserver.h"
#include "panels/accountworkspace.h"
#include "models/sessiontablemodel.h"
#include "panels/retainedpanel.h"
#include "panels/sessionspanel.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kRunTimeoutMs = 90000;

} // namespace

class TestOperatorActionDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void stopThenResume();
    void closingWhileRunningStops();
    void resumeFromAJournalFile();
    void disconnectSaysWhetherTheClientCameBack();
    void clearRetainedFromTheRetainedTab();

private:
    /** Opens the dialog of deleting `clientIds` one per step, waits for its plan and consents up to the run page's start. */
    QPointer<OperatorActionDialog> startBatchDelete(MainWindow &window, const QStringList &clientIds, const QString &backupDir,
                                                    const std::function<void(const RepairStep &, const QStringList &)> &beforeApply);

    OperatorTestServer m_server;
};

void TestOperatorActionDialog::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // the audit log and the default backup folder go to a test location
    QVERIFY2(m_server.start(u"dialog1"_s), qPrintable(m_server.errorString()));
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    QVERIFY(mqtt.publish(u"plant/a/status"_s, "running", 1, true).acknowledged);
}

QPointer<OperatorActionDialog>
TestOperatorActionDialog::startBatchDelete(MainWindow &window, const QStringList &clientIds, const QString &backupDir,
                                           const std::function<void(const RepairStep &, const QStringList &)> &beforeApply)
{
    OperatorRequest request;
    request.verb = OperatorRequest::Verb::DeleteSessions;
    request.account = u"ACME"_s;
    request.clientIds = clientIds;
    request.batchSize = 1; // a step per session
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->open(request);
    if (!QTest::qWaitFor([&] { return dialog && dialog->controller()->stage() == OperatorActionController::Stage::Prepared; },
                         kLoadTimeoutMs)) {
        qWarning("the plan did not come");
        return nullptr;
    }
    if (dialog->controller()->prepareError() || dialog->controller()->plan().plan.steps.size() != clientIds.size()) {
        qWarning("unexpected plan: %s %s", qPrintable(OperatorTestServer::errorText(dialog->controller()->prepareError())),
                 qPrintable(dialog->previewText()));
        return nullptr;
    }
    dialog->controller()->setBeforeApply(beforeApply);
    dialog->next();
    dialog->setBackupDir(backupDir);
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    if (!dialog->button(QWizard::CommitButton)->isEnabled())
        return nullptr;
    QTest::mouseClick(dialog->button(QWizard::CommitButton), Qt::LeftButton);
    return dialog;
}

// Stop after the first step: the run says what it did and names its journal; Resume plans the rest, which is
// confirmed again and runs to the end.
void TestOperatorActionDialog::stopThenResume()
{
    const QStringList ids{u"batch-4"_s, u"batch-5"_s, u"batch-6"_s};
    QCOMPARE(m_server.makeSessions(ids), QString());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(true)));
    QTemporaryDir backups;
    QSemaphore gate;
    std::atomic<int> applying{0};
    QPointer<OperatorActionDialog> dialog = startBatchDelete(window, ids, backups.path(), [&](const RepairStep &, const QStringList &) {
        if (applying.fetch_add(1) == 0)
            gate.acquire(); // the first step waits for the test to press Cancel
    });
    QVERIFY(dialog);
    OperatorActionController &run = *dialog->controller();
    QTRY_VERIFY_WITH_TIMEOUT(applying.load() == 1, kRunTimeoutMs);
    dialog->reject(); // Cancel while running: stop after this step
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(run.isStopping());
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    QVERIFY(run.report());
    QVERIFY(!run.report()->complete);
    QCOMPARE(applying.load(), 1);
    QCOMPARE(run.stepsDone(), 1);
    QCOMPARE(run.sessionsDone(), qint64(1));
    QVERIFY2(!run.journalPath().isEmpty() && QFile::exists(run.journalPath()), qPrintable(run.journalPath()));
    QVERIFY2(dialog->resultText().contains(run.journalPath()), qPrintable(dialog->resultText()));
    auto *resume = dialog->findChild<QPushButton *>(u"operatorResume"_s);
    QVERIFY(resume && resume->isVisible());
    int gone = 0;
    for (const QString &id : ids)
        gone += m_server.sessionSubjects().contains(OperatorTestServer::subjectOf(id)) ? 0 : 1;
    QCOMPARE(gone, 1);

    // Resume: the steps not done, previewed and confirmed again.
    QTest::mouseClick(resume, Qt::LeftButton);
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::PreviewPageId));
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(OperatorTestServer::errorText(run.prepareError())));
    QVERIFY(run.isResume());
    QCOMPARE(run.plan().plan.steps.size(), 2);
    QVERIFY2(dialog->previewText().contains(u"Resuming"_s), qPrintable(dialog->previewText()));
    dialog->next();
    QVERIFY(!dialog->button(QWizard::CommitButton)->isEnabled());
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    QTest::mouseClick(dialog->button(QWizard::CommitButton), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    QVERIFY2(run.report() && run.report()->complete, qPrintable(dialog->resultText()));
    for (const QString &id : ids)
        QVERIFY2(!m_server.sessionSubjects().contains(OperatorTestServer::subjectOf(id)), qPrintable(id));
}

// A run stopped in one dialog (as if the window had been killed) is continued from its journal file through
// Tools › Resume an Operator Action: the steps not done, previewed and confirmed again. A file that is no
// journal is refused with a message, and nothing opens.
void TestOperatorActionDialog::resumeFromAJournalFile()
{
    const QStringList ids{u"journal-1"_s, u"journal-2"_s};
    QCOMPARE(m_server.makeSessions(ids), QString());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(true)));
    QTemporaryDir backups;
    QSemaphore gate;
    std::atomic<int> applying{0};
    QPointer<OperatorActionDialog> first = startBatchDelete(window, ids, backups.path(), [&](const RepairStep &, const QStringList &) {
        if (applying.fetch_add(1) == 0)
            gate.acquire(); // the first step waits until the run is asked to stop
    });
    QVERIFY(first);
    OperatorActionController &stopped = *first->controller();
    QTRY_VERIFY_WITH_TIMEOUT(applying.load() == 1, kRunTimeoutMs);
    first->reject(); // stop after this step
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(stopped.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    const QString journal = stopped.journalPath();
    QVERIFY(QFile::exists(journal));
    first->close();

    QVERIFY(!window.operatorActions()->openJournal(backups.filePath(u"nothing.journal.jsonl"_s)));
    QTRY_VERIFY(window.findChild<QMessageBox *>(u"journalError"_s));
    window.findChild<QMessageBox *>(u"journalError"_s)->close();

    QPointer<OperatorActionDialog> dialog = window.operatorActions()->openJournal(journal);
    QVERIFY(dialog);
    OperatorActionController &run = *dialog->controller();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(OperatorTestServer::errorText(run.prepareError())));
    QVERIFY(run.isResume());
    QCOMPARE(run.request().verb, OperatorRequest::Verb::DeleteSessions);
    QCOMPARE(run.plan().plan.steps.size(), qsizetype(ids.size()) - 1);
    dialog->next();
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    QTest::mouseClick(dialog->button(QWizard::CommitButton), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    QVERIFY2(run.report() && run.report()->complete, qPrintable(dialog->resultText()));
    for (const QString &id : ids)
        QVERIFY2(!m_server.sessionSubjects().contains(OperatorTestServer::subjectOf(id)), qPrintable(id));
}

// The dialog closed (the window going away) while a step runs: the run stops after that step, nothing crashes,
// and the GUI goes on.
void TestOperatorActionDialog::closingWhileRunningStops()
{
    const QStringList ids{u"close-7"_s, u"close-8"_s};
    QCOMPARE(m_server.makeSessions(ids), QString());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(true)));
    QTemporaryDir backups;
    QSemaphore gate;
    std::atomic<int> applying{0};
    QPointer<OperatorActionDialog> dialog = startBatchDelete(window, ids, backups.path(), [&](const RepairStep &, const QStringList &) {
        if (applying.fetch_add(1) == 0)
            gate.acquire();
    });
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(applying.load() == 1, kRunTimeoutMs);
    delete dialog.data();
    QVERIFY(!dialog);
    gate.release();
    // The step that was running ends; the next never starts.
    const auto remaining = [&] {
        int n = 0;
        for (const QString &id : ids)
            n += m_server.sessionSubjects().contains(OperatorTestServer::subjectOf(id)) ? 1 : 0;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(remaining(), 1, kRunTimeoutMs);
    QCOMPARE(applying.load(), 1);
    // The window still works: a refresh reads the account.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
}

// Disconnect a connected client (a mosquitto_sub that stays connected): the server closes its connection, the
// session stays, and the result says whether the client came back.
void TestOperatorActionDialog::disconnectSaysWhetherTheClientCameBack()
{
    QCOMPARE(m_server.makeSessions({u"live-9"_s}), QString());
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(u"mosquitto_sub"_s,
                 {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(m_server.mqttPort()), u"-V"_s, u"mqttv311"_s, u"-i"_s, u"live-9"_s,
                  u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s, u"-c"_s, u"-q"_s, u"1"_s, u"-t"_s, u"batch/live-9/#"_s});
    QVERIFY(client.waitForStarted());
    const auto stopClient = qScopeGuard([&client] {
        client.kill();
        client.waitForFinished();
    });
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(true)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    // Connected, as the servers' CONNZ says (a reload until the client is in).
    QVERIFY(QTest::qWaitFor(
        [&] {
            const int row = sessions.model()->rowOf(u"live-9"_s);
            if (row >= 0 && sessions.model()->connectedTextAt(row) == u"yes"_s)
                return true;
            if (!sessions.isLoading())
                sessions.reload();
            return false;
        },
        kLoadTimeoutMs));
    QVERIFY(sessions.selectClient(u"live-9"_s));
    sessions.rowActions()->update();
    // Deleting a connected client's session: left alone, and the preview offers to disconnect it first.
    {
        sessions.rowActions()->action(RowActions::DeleteSessions)->trigger();
        QPointer<OperatorActionDialog> del = window.operatorActions()->dialog();
        QVERIFY(del);
        OperatorActionController &plan = *del->controller();
        QTRY_COMPARE_WITH_TIMEOUT(plan.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
        QVERIFY2(plan.plan().isEmpty(), qPrintable(del->previewText()));
        QVERIFY2(del->previewText().contains(u"connected to"_s), qPrintable(del->previewText()));
        auto *first = del->findChild<QCheckBox *>(u"operatorDisconnectFirst"_s);
        QVERIFY(first && first->isVisibleTo(del));
        first->setChecked(true);
        QVERIFY(plan.request().disconnectFirst);
        QTRY_COMPARE_WITH_TIMEOUT(plan.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
        QCOMPARE(plan.plan().counts.connections, 1);
        QCOMPARE(plan.plan().plan.steps.first().action, u"disconnect_client"_s);
        QCOMPARE(plan.plan().counts.sessions, 1);
        del->reject();
    }
    QCOMPARE(sessions.rowActions()->action(RowActions::Disconnect)->text(), u"Disconnect Client \"live-9\"…"_s);
    sessions.rowActions()->action(RowActions::Disconnect)->trigger();
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    OperatorActionController &run = *dialog->controller();
    QCOMPARE(run.request().verb, OperatorRequest::Verb::Disconnect);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(OperatorTestServer::errorText(run.prepareError())));
    QVERIFY2(!run.plan().isEmpty(), qPrintable(dialog->previewText()));
    QVERIFY2(dialog->previewText().contains(u"live-9"_s), qPrintable(dialog->previewText()));
    dialog->next();
    QTemporaryDir backups;
    dialog->setBackupDir(backups.path());
    if (dialog->needsConsent())
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    QVERIFY(dialog->button(QWizard::CommitButton)->isEnabled());
    QTest::mouseClick(dialog->button(QWizard::CommitButton), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    QVERIFY2(run.report() && run.report()->complete, qPrintable(dialog->resultText()));
    QCOMPARE(run.returns().size(), 1);
    QCOMPARE(run.returns().first().clientId, u"live-9"_s);
    const QString result = dialog->resultText();
    QVERIFY2(result.contains(u"Did the clients come back?"_s)
                 && (result.contains(u"live-9 came back after"_s) || result.contains(u"live-9 did not come back within"_s)),
             qPrintable(result));
    QVERIFY(m_server.sessionSubjects().contains(OperatorTestServer::subjectOf(u"live-9"_s))); // the session stays
}

// The Retained tab: the Delete key clears the selected topics, "Clear Retained Matching Filter…" asks for an
// MQTT filter; both preview first. With the account's MQTT user in the profile the clear runs, and a new
// subscriber no longer gets the message.
void TestOperatorActionDialog::clearRetainedFromTheRetainedTab()
{
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    QVERIFY(mqtt.publish(u"plant/x/status"_s, "stopped", 1, true).acknowledged);
    ClusterController controller;
    MainWindow window(controller);
    Profile p = m_server.profile(true);
    p.mqttProbe.insert(u"ACME"_s, MqttProbeSettings{u"127.0.0.1:%1"_s.arg(m_server.mqttPort()), u"acme"_s, u"acmepass"_s});
    QVERIFY(openAccount(window, controller, p));
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Retained));
    QVERIFY(OperatorTestServer::activate(window));
    RetainedPanel &retained = *window.workspace()->retainedPanel();
    QVERIFY(retained.selectTopic(u"plant/x/status"_s));

    // "Clear Retained Matching Filter…" asks for a filter, then previews what matches.
    retained.rowActions()->update();
    retained.rowActions()->action(RowActions::ClearRetainedMatching)->trigger();
    auto *ask = window.findChild<QInputDialog *>(u"retainedFilterDialog"_s);
    QVERIFY(ask && ask->isVisible());
    QCOMPARE(ask->textValue(), u"plant/x/status"_s);
    ask->setTextValue(u"plant/+/status"_s);
    ask->accept();
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->request().verb, OperatorRequest::Verb::ClearRetained);
    QCOMPARE(dialog->request().topics, QStringList{u"plant/+/status"_s});
    QTRY_COMPARE_WITH_TIMEOUT(dialog->controller()->stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!dialog->controller()->prepareError(), qPrintable(OperatorTestServer::errorText(dialog->controller()->prepareError())));
    QVERIFY2(dialog->previewText().contains(u"plant/x/status"_s), qPrintable(dialog->previewText()));
    dialog->reject();
    QTRY_VERIFY(!dialog);

    // The Delete key: the selected topic.
    QVERIFY(OperatorTestServer::activate(window));
    retained.view()->setFocus();
    QTest::keyClick(retained.view(), Qt::Key_Delete);
    dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->request().topics, QStringList{u"plant/x/status"_s});
    OperatorActionController &run = *dialog->controller();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(OperatorTestServer::errorText(run.prepareError())));
    QCOMPARE(run.plan().counts.retained, qint64(1));
    QVERIFY2(dialog->blockedReason().isEmpty(), qPrintable(dialog->blockedReason()));
    dialog->next();
    QTemporaryDir backups;
    dialog->setBackupDir(backups.path());
    if (dialog->needsConsent())
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    QVERIFY(dialog->button(QWizard::CommitButton)->isEnabled());
    QTest::mouseClick(dialog->button(QWizard::CommitButton), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    QVERIFY2(run.report() && run.report()->complete, qPrintable(dialog->resultText()));
    // A new subscriber gets plant/a/status, no longer plant/x/status.
    const MqttResult seen = mqtt.subscribeAndCollect(u"retained-check"_s, {u"plant/+/status"_s}, 1, 2, 2);
    QStringList topics;
    for (const MqttResult::Message &m : seen.messages)
        topics << m.topic;
    QVERIFY2(topics.contains(u"plant/a/status"_s) && !topics.contains(u"plant/x/status"_s), qPrintable(topics.join(u", "_s)));
}

QTEST_MAIN(TestOperatorActionDialog)
#include "tst_operatoractiondialog.moc"
