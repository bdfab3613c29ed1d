// Acting on rows from the account's tables (RowActions, OperatorActionDialog) in the main window, against a
// real nats-server (newest) with MQTT sessions, a queued message and a retained message made by mosquitto:
// every table selects several rows and has the row actions; the context menu of the sessions table names how
// many rows each action takes ("Delete 3 Sessions…"), Ctrl+A selects what the filter shows; Copy Client ID
// puts the client ID on the clipboard; Show in Consumers selects the session's durables in the Consumers tab
// (and Show in Sessions goes back); a cluster finding and a live client event lead to their session; the
// Delete key opens the delete preview, which lists the session and the counts; a read-only profile shows the
// plan with how to allow changes and cannot run; with changes allowed, the typed account name runs the plan,
// the GUI's event loop keeps turning meanwhile, and the session record is gone on the server (the other
// sessions stay). The preview collapses many steps and requests; Back Up Selection writes a file per record
// on a read-only connection and changes nothing. Screenshots (row-actions-menu.png, delete-sessions-preview.png)
// go to docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else a temporary folder.
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
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSignalSpy>
#include <QTimer>
#include <QToolButton>

#include "actions/operatoractions.h"
#include "actions/rowactions.h"
#include "controllers/clustercontroller.h"
#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "mainwindow.h"
#include "mqttclient.h"
#include "operatortestserver.h"
#include "panels/accountworkspace.h"
#include "dialogs/operatoractionformat.h"
#include "models/clienteventmodel.h"
#include "models/clusterfindingsmodel.h"
#include "models/consumertablemodel.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "panels/activitypanel.h"
#include "panels/clusteroverviewpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/consumerspanel.h"
#include "panels/detailpanel.h"
#include "panels/findingspanel.h"
#include "panels/inflightpanel.h"
#include "panels/pinnedpanel.h"
#include "panels/retainedpanel.h"
#include "panels/sessionspanel.h"
#include "widgets/sessiondetailsview.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kRunTimeoutMs = 90000;

/** The texts of a menu's visible actions, separators left out. */
QStringList menuTexts(const QMenu &menu)
{
    QStringList out;
    for (const QAction *a : menu.actions())
        if (!a->isSeparator() && a->isVisible())
            out << a->text();
    return out;
}

} // namespace

class TestRowActions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyTableActsOnSeveralRows();
    void contextMenuCountsTheSelection();
    void copyClientId();
    void showInConsumersSelectsTheDurables();
    void showInSessionsFromFindingsAndActivity();
    void readOnlyProfileShowsThePlanAndCannotRun();
    void deleteKeyDeletesTheSession();
    void stepsCollapseWhenMany();
    void backUpSelectionChangesNothing();

private:
    /** Where a screenshot goes: docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else the temporary folder. */
    QString screenshotPath(const QString &fileName) const;

    OperatorTestServer m_server;
    QTemporaryDir m_shots;
};

void TestRowActions::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // the audit log and the default backup folder go to a test location
    QVERIFY2(m_server.start(u"rows1"_s), qPrintable(m_server.errorString()));
    QCOMPARE(m_server.makeSessions({u"keep-1"_s}, u"plant/a/#"_s), QString());
    QCOMPARE(m_server.makeSessions({u"delete-me-2"_s}, u"plant/b/#"_s), QString());
    QCOMPARE(m_server.makeSessions({u"spare-3"_s}, u"plant/c/#"_s), QString());
    // A message queued for delete-me-2 (offline), and a retained message.
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    QVERIFY(mqtt.publish(u"plant/b/door"_s, "open", 1).acknowledged);
    QVERIFY(mqtt.publish(u"plant/a/status"_s, "running", 1, true).acknowledged);
    QVERIFY(!m_server.durablesOf(u"delete-me-2"_s).isEmpty());
    QCOMPARE(m_server.sessionSubjects().size(), 3);
}

QString TestRowActions::screenshotPath(const QString &fileName) const
{
    if (qEnvironmentVariable("MQTTDOCTOR_WRITE_SCREENSHOTS") == "1"_L1 && qEnvironmentVariableIsSet("MQTTDOCTOR_SOURCE_DIR")) {
        const QDir dir(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/docs/screenshots"_s);
        QDir().mkpath(dir.path());
        return dir.filePath(fileName);
    }
    return QDir(m_shots.path()).filePath(fileName);
}

void TestRowActions::everyTableActsOnSeveralRows()
{
    ClusterController controller;
    MainWindow window(controller);
    AccountWorkspace &ws = *window.workspace();
    const QList<std::pair<QString, RowActions *>> tables{
        {u"sessions"_s, ws.sessionsPanel()->rowActions()},
        {u"retained"_s, ws.retainedPanel()->rowActions()},
        {u"inflight"_s, ws.inflightPanel()->rowActions()},
        {u"pinned"_s, ws.pinnedPanel()->rowActions()},
        {u"consumers"_s, ws.consumersPanel()->rowActions()},
        {u"activity"_s, ws.activityPanel()->rowActions()},
        {u"findings"_s, window.detailPanel()->clusterPanel()->rowActions()},
    };
    for (const auto &[name, actions] : tables) {
        QVERIFY2(actions, qPrintable(name));
        auto *view = qobject_cast<QTableView *>(actions->parent());
        QVERIFY2(view, qPrintable(name));
        QCOMPARE(view->selectionMode(), QAbstractItemView::ExtendedSelection);
        QCOMPARE(view->contextMenuPolicy(), Qt::CustomContextMenu);
        QVERIFY2(view->actions().contains(actions->selectAllAction()), qPrintable(name));
        QCOMPARE(actions->selectAllAction()->shortcut(), QKeySequence(QKeySequence::SelectAll));
        QVERIFY2(!menuTexts(*actions->menu()).isEmpty(), qPrintable(name));
    }
    // Every tool row has the same menu behind an Actions button.
    for (const QString &name : {u"sessions"_s, u"retained"_s, u"inflight"_s, u"pinned"_s, u"consumers"_s, u"activity"_s, u"findings"_s}) {
        auto *button = window.findChild<QToolButton *>(name + u"ActionsButton"_s);
        QVERIFY2(button && button->menu(), qPrintable(name));
    }
    // The Delete key: delete sessions on Sessions, clear retained on Retained.
    QCOMPARE(ws.sessionsPanel()->rowActions()->action(RowActions::DeleteSessions)->shortcut(), QKeySequence(QKeySequence::Delete));
    QCOMPARE(ws.retainedPanel()->rowActions()->action(RowActions::ClearRetained)->shortcut(), QKeySequence(QKeySequence::Delete));
    QVERIFY(ws.retainedPanel()->rowActions()->action(RowActions::ClearRetainedMatching));
    QVERIFY(!ws.retainedPanel()->rowActions()->action(RowActions::DeleteSessions));
}

void TestRowActions::contextMenuCountsTheSelection()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(true)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    QCOMPARE(sessions.model()->rowCount(), 3);
    RowActions &actions = *sessions.rowActions();
    QTableView &table = *sessions.view();

    // Ctrl+A selects every row shown.
    table.setFocus();
    QTest::keyClick(&table, Qt::Key_A, Qt::ControlModifier);
    QCOMPARE(table.selectionModel()->selectedRows().size(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(!sessions.detailsView()->rawText().contains(u"Reading"_s)
                                 && !sessions.detailsView()->inflightText().contains(u"Reading"_s),
                             kLoadTimeoutMs); // the details pane settled, for the screenshot
    const QPoint click = table.visualRect(sessions.proxy()->index(1, SessionTableModel::ClientIdColumn)).center();
    emit table.customContextMenuRequested(click);
    QMenu &menu = *actions.menu();
    QTRY_VERIFY(menu.isVisible());
    const QStringList all = menuTexts(menu);
    for (const QString &text :
         {u"Delete 3 Sessions…"_s, u"Disconnect 3 Clients…"_s, u"Drop Queued Messages of 3 Sessions (Backlog)…"_s, u"Copy 3 Client IDs"_s,
          u"Copy 3 Rows as JSON"_s, u"Back Up Selection (3 records)…"_s, u"Select All Shown (3)"_s})
        QVERIFY2(all.contains(text), qPrintable(text + u" in: "_s + all.join(u" | "_s)));
    QVERIFY(actions.action(RowActions::DeleteSessions)->isEnabled());
    QVERIFY(actions.action(RowActions::ShowInConsumers)->isEnabled());

    // The menu over the window, as an operator sees it.
    QPixmap shot = window.grab();
    {
        QPainter painter(&shot);
        // Where the right click was (the offscreen screen is smaller than the window: Qt moved the popup onto it).
        painter.drawPixmap(table.viewport()->mapTo(&window, click), menu.grab());
    }
    const QString path = screenshotPath(u"row-actions-menu.png"_s);
    QVERIFY2(shot.save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
    menu.close();

    // Filtered to one: Ctrl+A takes only what the filter shows, and the menu names the client.
    sessions.filterEdit()->setText(u"delete-me"_s);
    QTRY_COMPARE(sessions.proxy()->rowCount(), 1);
    QTest::keyClick(&table, Qt::Key_A, Qt::ControlModifier);
    actions.update();
    QCOMPARE(actions.action(RowActions::DeleteSessions)->text(), u"Delete Session \"delete-me-2\"…"_s);
    QCOMPARE(actions.action(RowActions::Disconnect)->text(), u"Disconnect Client \"delete-me-2\"…"_s);
    QCOMPARE(actions.selectAllAction()->text(), u"Select All Shown (1)"_s);
    sessions.filterEdit()->clear();
    QTRY_COMPARE(sessions.proxy()->rowCount(), 3);

    // Nothing selected: nothing to act on.
    table.clearSelection();
    actions.update();
    QVERIFY(!actions.action(RowActions::DeleteSessions)->isEnabled());
    QCOMPARE(actions.action(RowActions::DeleteSessions)->text(), u"Delete Sessions…"_s);
}

void TestRowActions::copyClientId()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(false)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    QVERIFY(sessions.selectClient(u"delete-me-2"_s));
    RowActions &actions = *sessions.rowActions();
    actions.update();
    QVERIFY(actions.action(RowActions::CopyClientId)->isEnabled());
    QGuiApplication::clipboard()->clear();
    actions.action(RowActions::CopyClientId)->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), u"delete-me-2"_s);
    // The record as stored: its JSON names the client.
    actions.action(RowActions::CopyJson)->trigger();
    QVERIFY2(QGuiApplication::clipboard()->text().contains(u"\"delete-me-2\""_s), qPrintable(QGuiApplication::clipboard()->text()));
}

void TestRowActions::showInConsumersSelectsTheDurables()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(false)));
    AccountWorkspace &ws = *window.workspace();
    QVERIFY(ws.sessionsPanel()->selectClient(u"delete-me-2"_s));
    RowActions &actions = *ws.sessionsPanel()->rowActions();
    actions.update();
    QCOMPARE(actions.action(RowActions::ShowInConsumers)->text(), u"Show Durables of \"delete-me-2\" in Consumers"_s);
    actions.action(RowActions::ShowInConsumers)->trigger();
    QCOMPARE(ws.currentIndex(), int(AccountWorkspace::ConsumersTab));
    ConsumersPanel &consumers = *ws.consumersPanel();
    QTRY_VERIFY_WITH_TIMEOUT(consumers.isLoaded() && !consumers.isLoading(), kLoadTimeoutMs);
    const QStringList expected = m_server.durablesOf(u"delete-me-2"_s);
    QTRY_COMPARE(consumers.view()->selectionModel()->selectedRows().size(), expected.size());
    QStringList selected;
    for (const QModelIndex &row : consumers.view()->selectionModel()->selectedRows())
        selected << row.data(ConsumerTableModel::NameRole).toString();
    selected.sort();
    QCOMPARE(selected, expected);

    // And back: a durable's row shows its session.
    consumers.rowActions()->update();
    QVERIFY(consumers.rowActions()->action(RowActions::ShowInSessions)->isEnabled());
    ws.sessionsPanel()->view()->clearSelection();
    consumers.rowActions()->action(RowActions::ShowInSessions)->trigger();
    QCOMPARE(ws.currentIndex(), int(AccountWorkspace::SessionsTab));
    QTRY_VERIFY(ws.sessionsPanel()->view()->selectionModel()->currentIndex().isValid());
    QCOMPARE(ws.sessionsPanel()->view()->selectionModel()->currentIndex().siblingAtColumn(0).data().toString(), u"delete-me-2"_s);
}

// From the cluster's findings (a finding naming a client) and from a live client event to the client's session.
void TestRowActions::showInSessionsFromFindingsAndActivity()
{
    // spare-3 loses a durable: SESSION_MISSING_CONSUMER names it.
    const QStringList durables = m_server.durablesOf(u"spare-3"_s);
    QVERIFY(!durables.isEmpty());
    QVERIFY(m_server.acme().call(u"CONSUMER.DELETE.$MQTT_msgs."_s + durables.first(), {}));
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(false)));
    AccountWorkspace &ws = *window.workspace();
    QTRY_VERIFY_WITH_TIMEOUT(ws.findingsPanel()->isLoaded(), kLoadTimeoutMs);

    window.treePanel()->setCurrentSourceIndex(window.treeModel()->profileIndex());
    ClusterOverviewPanel &overview = *window.detailPanel()->clusterPanel();
    QTableView &findings = *overview.findingsView();
    int row = -1;
    QVERIFY(QTest::qWaitFor(
        [&] {
            for (int r = 0; r < findings.model()->rowCount(); ++r)
                if (findings.model()->index(r, ClusterFindingsModel::ClientColumn).data().toString() == u"spare-3"_s)
                    row = r;
            return row >= 0;
        },
        kLoadTimeoutMs));
    findings.selectRow(row);
    overview.rowActions()->update();
    QAction *show = overview.rowActions()->action(RowActions::ShowInSessions);
    QCOMPARE(show->text(), u"Show \"spare-3\" in Sessions"_s);
    QVERIFY(show->isEnabled());
    show->trigger();
    QCOMPARE(ws.currentIndex(), int(AccountWorkspace::SessionsTab));
    SessionsPanel &sessions = *ws.sessionsPanel();
    const auto selectedClient = [&] {
        const QModelIndex current = sessions.view()->selectionModel()->currentIndex();
        return current.isValid() ? current.siblingAtColumn(SessionTableModel::ClientIdColumn).data().toString() : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(selectedClient(), u"spare-3"_s, kLoadTimeoutMs);

    // A client event of keep-1 in the Activity tab leads to its session too.
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    QVERIFY(mqtt.connectOnce(u"keep-1"_s, false).connected());
    ActivityPanel &activity = *ws.activityPanel();
    ws.setCurrentIndex(AccountWorkspace::ActivityTab);
    int event = -1;
    QVERIFY(QTest::qWaitFor(
        [&] {
            for (int r = 0; r < activity.proxy()->rowCount(); ++r)
                if (activity.proxy()->index(r, ClientEventModel::ClientColumn).data().toString() == u"keep-1"_s)
                    event = r;
            return event >= 0;
        },
        kLoadTimeoutMs));
    activity.view()->selectRow(event);
    activity.rowActions()->update();
    QVERIFY(activity.rowActions()->action(RowActions::Disconnect)->isEnabled());
    activity.rowActions()->action(RowActions::ShowInSessions)->trigger();
    QCOMPARE(ws.currentIndex(), int(AccountWorkspace::SessionsTab));
    QTRY_COMPARE_WITH_TIMEOUT(selectedClient(), u"keep-1"_s, kLoadTimeoutMs);
}

void TestRowActions::readOnlyProfileShowsThePlanAndCannotRun()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(false)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    const QStringList before = m_server.sessionSubjects();
    QVERIFY(sessions.selectClient(u"keep-1"_s));
    sessions.view()->setFocus();
    QTest::keyClick(sessions.view(), Qt::Key_Delete);
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QCOMPARE(dialog->request().verb, OperatorRequest::Verb::DeleteSessions);
    QCOMPARE(dialog->request().clientIds, QStringList{u"keep-1"_s});
    QTRY_COMPARE_WITH_TIMEOUT(dialog->controller()->stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!dialog->controller()->prepareError(), qPrintable(OperatorTestServer::errorText(dialog->controller()->prepareError())));

    // The plan is shown, with why it cannot run and how to allow changes (the repair wizard's words).
    QVERIFY(!dialog->controller()->plan().isEmpty());
    QVERIFY2(dialog->blockedReason().contains(u"read-only"_s) && dialog->blockedReason().contains(u"\"Allow changes\""_s),
             qPrintable(dialog->blockedReason()));
    QVERIFY(dialog->findChild<QLabel *>(u"operatorBlocked"_s)->isVisible());
    QVERIFY2(dialog->previewText().contains(u"keep-1"_s), qPrintable(dialog->previewText()));
    QVERIFY(dialog->button(QWizard::NextButton)->isEnabled()); // looking is harmless
    dialog->next();
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::ConfirmPageId));
    dialog->findChild<QLineEdit *>(u"confirmEdit"_s)->setText(u"ACME"_s);
    QVERIFY(!dialog->button(QWizard::CommitButton)->isEnabled());
    QVERIFY(dialog->findChild<QLabel *>(u"blockedNotice"_s)->isVisible());
    dialog->next(); // refused
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::ConfirmPageId));
    QVERIFY(!dialog->startRun());
    QCOMPARE(dialog->controller()->stage(), OperatorActionController::Stage::Prepared);
    dialog->reject();
    QTRY_VERIFY(!dialog);
    QCOMPARE(m_server.sessionSubjects(), before);
}

void TestRowActions::deleteKeyDeletesTheSession()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(true)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    const QString gone = OperatorTestServer::subjectOf(u"delete-me-2"_s);
    const QStringList durables = m_server.durablesOf(u"delete-me-2"_s);
    QVERIFY(!durables.isEmpty());
    QVERIFY(m_server.sessionSubjects().contains(gone));
    QTemporaryDir backups;

    QVERIFY(sessions.selectClient(u"delete-me-2"_s));
    sessions.view()->setFocus();
    QTest::keyClick(sessions.view(), Qt::Key_Delete);
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    OperatorActionController &run = *dialog->controller();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(OperatorTestServer::errorText(run.prepareError())));
    QVERIFY2(dialog->blockedReason().isEmpty(), qPrintable(dialog->blockedReason()));

    // The preview: the session, the counts (its record, its durables, the message queued for it), the steps.
    const OperatorPlan &plan = run.plan();
    QCOMPARE(plan.counts.sessions, qint64(1));
    QCOMPARE(plan.counts.durables, qint64(durables.size()));
    QVERIFY2(plan.counts.queuedMessages >= 1, qPrintable(plan.counts.text()));
    QCOMPARE(plan.selection.selected.size(), 1);
    QCOMPARE(plan.selection.selected.first().clientId, u"delete-me-2"_s);
    const QString preview = dialog->previewText();
    QVERIFY2(preview.contains(u"delete-me-2"_s), qPrintable(preview));
    QVERIFY2(preview.contains(plan.counts.text()), qPrintable(preview));
    QVERIFY2(preview.contains(u"session record"_s) && preview.contains(u"queued message"_s), qPrintable(preview));
    QVERIFY2(preview.contains(u"$JS.API."_s), qPrintable(preview)); // the exact requests
    QVERIFY(dialog->needsConsent());
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    const QString path = screenshotPath(u"delete-sessions-preview.png"_s);
    QVERIFY2(dialog->grab().save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));

    // Consent: the account name, exactly.
    dialog->next();
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::ConfirmPageId));
    dialog->setBackupDir(backups.path());
    QAbstractButton *commit = dialog->button(QWizard::CommitButton);
    auto *consent = dialog->findChild<QLineEdit *>(u"confirmEdit"_s);
    QVERIFY(consent && consent->isVisible());
    QVERIFY(!commit->isEnabled());
    consent->setText(u"acme"_s);
    QVERIFY(!commit->isEnabled());
    consent->clear();
    QTest::keyClicks(consent, u"ACME"_s);
    QVERIFY(commit->isEnabled());

    // The run goes on the pool: the GUI thread keeps turning its event loop meanwhile.
    int ticksWhileRunning = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&] {
        if (dialog && dialog->controller()->stage() == OperatorActionController::Stage::Running)
            ++ticksWhileRunning;
    });
    ticker.start();
    QTest::mouseClick(commit, Qt::LeftButton);
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::RunPageId));
    QCOMPARE(run.stage(), OperatorActionController::Stage::Running);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Finished, kRunTimeoutMs);
    ticker.stop();
    QVERIFY2(ticksWhileRunning > 0, "the event loop did not run while the action ran");

    QVERIFY(run.report());
    QVERIFY2(run.report()->complete, qPrintable(run.report()->stoppedBecause + dialog->resultText()));
    QVERIFY(!run.report()->backups.isEmpty());
    for (const QString &file : run.report()->backups)
        QVERIFY2(file.startsWith(backups.path()) && QFile::exists(file), qPrintable(file));
    QCOMPARE(run.stepsDone(), int(plan.plan.steps.size()));
    QCOMPARE(run.sessionsDone(), plan.counts.sessions);
    auto *sessionsDone = dialog->findChild<QLabel *>(u"operatorSessionsDone"_s);
    QVERIFY(sessionsDone && sessionsDone->isVisible());
    QCOMPARE(sessionsDone->text(), u"Sessions done: 1 of 1"_s);
    const QString result = dialog->resultText();
    QVERIFY2(result.contains(u"Done."_s) && result.contains(u"Backups written"_s), qPrintable(result));
    QVERIFY(dialog->button(QWizard::FinishButton)->isEnabled());

    // The server agrees: the record and its durables are gone, the others stay.
    const QStringList left = m_server.sessionSubjects();
    QVERIFY2(!left.contains(gone), qPrintable(left.join(u", "_s)));
    QVERIFY(left.contains(OperatorTestServer::subjectOf(u"keep-1"_s)) && left.contains(OperatorTestServer::subjectOf(u"spare-3"_s)));
    QCOMPARE(m_server.durablesOf(u"delete-me-2"_s), QStringList());
    QVERIFY(!m_server.durablesOf(u"keep-1"_s).isEmpty());

    // The window reads the account again: the row is gone.
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(sessions.isLoaded() && !sessions.isLoading() && sessions.model()->rowOf(u"delete-me-2"_s) < 0, kLoadTimeoutMs);
    QVERIFY(sessions.model()->rowOf(u"keep-1"_s) >= 0 && sessions.model()->rowOf(u"spare-3"_s) >= 0);
}

// Many steps, many requests: the preview shows the first ones and counts the rest, with a link to show them.
void TestRowActions::stepsCollapseWhenMany()
{
    RepairPlan plan;
    plan.account = u"ACME"_s;
    for (int i = 1; i <= 25; ++i) {
        RepairStep step;
        step.id = QString::number(i);
        step.description = u"Delete sessions batch %1"_s.arg(i);
        step.destructive = true;
        for (int r = 0; r < 10; ++r)
            step.requests << RepairRequest{u"$JS.API.STREAM.MSG.DELETE.$MQTT_sess"_s, QJsonObject{{u"seq"_s, i * 100 + r}}};
        plan.steps << step;
    }
    using namespace OperatorActionFormat;
    const QString collapsed = stepsHtml(plan);
    QVERIFY(collapsed.contains(u"Delete sessions batch %1"_s.arg(kStepsShown)));
    QVERIFY(!collapsed.contains(u"Delete sessions batch %1<"_s.arg(kStepsShown + 1)));
    QVERIFY2(collapsed.contains(u"… and 5 more steps like these."_s) && collapsed.contains(u"href=\"steps:all\""_s), qPrintable(collapsed));
    QCOMPARE(collapsed.count(u"$JS.API.STREAM.MSG.DELETE"_s), kStepsShown * kRequestsShown);
    QVERIFY(collapsed.contains(u"… and %1 more of the same kind."_s.arg(10 - kRequestsShown)));
    QVERIFY(collapsed.contains(u"href=\"step:1\""_s));
    // A step opened shows its every request; all steps shows the last one too.
    const QString opened = stepsHtml(plan, {u"1"_s}, true);
    QCOMPARE(opened.count(u"$JS.API.STREAM.MSG.DELETE"_s), 10 + 24 * kRequestsShown);
    QVERIFY(opened.contains(u"Delete sessions batch 25"_s));
    QVERIFY(!opened.contains(u"steps:all"_s));
}

// Back Up Selection reads only: allowed on a read-only connection, a file per record, nothing changes.
void TestRowActions::backUpSelectionChangesNothing()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(OperatorTestServer::openSessions(window, controller, m_server.profile(false)));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    QVERIFY(sessions.selectClient(u"keep-1"_s));
    const QModelIndex spare = sessions.proxy()->mapFromSource(sessions.model()->index(sessions.model()->rowOf(u"spare-3"_s), 0));
    sessions.view()->selectionModel()->select(spare, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    RowActions &actions = *sessions.rowActions();
    actions.update();
    QCOMPARE(actions.action(RowActions::BackUp)->text(), u"Back Up Selection (2 records)…"_s);
    QVERIFY(actions.action(RowActions::BackUp)->isEnabled());
    const QStringList before = m_server.sessionSubjects();

    // The action asks for a folder first (not blocking: the dialog is opened, not run).
    actions.action(RowActions::BackUp)->trigger();
    auto *chooser = window.findChild<QFileDialog *>(u"backupFolderDialog"_s);
    QVERIFY(chooser && chooser->isVisible());
    chooser->reject();

    QTemporaryDir folder;
    QSignalSpy finished(window.operatorActions(), &OperatorActions::backupFinished);
    QVERIFY(window.operatorActions()->backUpTo(actions.selection(), folder.path()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kLoadTimeoutMs);
    const QStringList files = finished.first().at(0).toStringList();
    QVERIFY2(finished.first().at(1).toStringList().isEmpty(), qPrintable(finished.first().at(1).toStringList().join(u'\n')));
    QCOMPARE(files.size(), 2);
    QStringList subjects;
    for (const QString &file : files) {
        QVERIFY2(file.startsWith(folder.path()), qPrintable(file));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray content = f.readAll();
        for (const QString &id : {u"keep-1"_s, u"spare-3"_s})
            if (content.contains(OperatorTestServer::subjectOf(id).toUtf8()))
                subjects << id;
    }
    subjects.sort();
    QCOMPARE(subjects, (QStringList{u"keep-1"_s, u"spare-3"_s}));
    auto *box = window.findChild<QMessageBox *>(u"selectionBackupResult"_s);
    QVERIFY(box && box->text().contains(u"2 backup file"_s));
    QCOMPARE(m_server.sessionSubjects(), before);
}

QTEST_MAIN(TestRowActions)
#include "tst_rowactions.moc"
