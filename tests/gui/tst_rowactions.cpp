// Acting on rows from the account's tables (RowActions, OperatorActionDialog) in the main window, against a
// real nats-server (newest) with MQTT sessions, a queued message and a retained message made by mosquitto:
// every table selects several rows and has the row actions; the context menu of the sessions table names how
// many rows each action takes ("Delete 3 Sessions…"), Ctrl+A selects what the filter shows; Copy Client ID
// puts the client ID on the clipboard; Show in Consumers selects the session's durables in the Consumers tab
// (and Show in Sessions goes back); the Delete key opens the delete preview, which lists the session and
// the counts; a read-only profile shows the plan with how to allow changes and cannot run; with changes
// allowed, the typed account name runs the plan, the GUI's event loop keeps turning meanwhile, and the
// session record is gone on the server (the other sessions stay). Also: the preview collapses many steps and
// requests; Back Up Selection writes a file per record on a read-only connection and changes nothing; Cancel
// stops a run after its step and Resume finishes it from the journal; the dialog destroyed mid-step stops the
// run after that step; a cluster finding and a live client event lead to their session; Disconnect of a
// connected client keeps its session and says whether it came back; the Retained tab clears a topic (Delete)
// and previews a filter ("Clear Retained Matching Filter…"). Screenshots (row-actions-menu.png,
// delete-sessions-preview.png) go to docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else a temp dir.
#include <QAbstractButton>
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPointer>
#include <QProcess>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>

#include <atomic>

#include "actions/operatoractions.h"
#include "actions/rowactions.h"
#include "controllers/clustercontroller.h"
#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "dialogs/operatoractionformat.h"
#include "mainwindow.h"
#include "models/clienteventmodel.h"
#include "models/clusterfindingsmodel.h"
#include "models/consumertablemodel.h"
#include "widgets/sessiondetailsview.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
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
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kRunTimeoutMs = 90000;

QString errorText(const std::optional<Error> &error)
{
    return error ? error->toString() : QString();
}

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
    void readOnlyProfileShowsThePlanAndCannotRun();
    void deleteKeyDeletesTheSession();
    void stepsCollapseWhenMany();
    void backUpSelectionChangesNothing();
    void stopThenResume();
    void closingWhileRunningStops();
    void showInSessionsFromFindingsAndActivity();
    void disconnectSaysWhetherTheClientCameBack();
    void clearRetainedFromTheRetainedTab();

private:
    /** Persistent sessions with a QoS 1 subscription each (on topics of their own). */
    void makeSessions(const QStringList &clientIds);
    /** Opens the dialog of deleting `clientIds` one per step, waits for its plan and consents up to the run page's start. */
    QPointer<OperatorActionDialog> startBatchDelete(MainWindow &window, const QStringList &clientIds, const QString &backupDir,
                                                    const std::function<void(const RepairStep &, const QStringList &)> &beforeApply);
    QString subjectOf(const QString &clientId) const { return MqttLayout::sessionSubject({}, ClientIdHash::hash(clientId)); }
    Profile profile(bool allowChanges) const;
    /** The window on ACME's sessions (loaded). */
    bool openSessions(MainWindow &window, ClusterController &controller, bool allowChanges);
    JetStreamClient acme();
    /** The subjects of $MQTT_sess that hold a record. */
    QStringList sessionSubjects();
    QStringList durablesOf(const QString &clientId);
    /** Where a screenshot goes: docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else the temporary folder. */
    QString screenshotPath(const QString &fileName) const;

    NatsServerFixture m_server;
    QTemporaryDir m_shots;
    std::unique_ptr<ConnectionSet> m_acme;
};

void TestRowActions::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // the audit log and the default backup folder go to a test location
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (acme/acmepass, JetStream)
    config.setServerName(u"rows1"_s);
    QVERIFY2(m_server.start(u"newest"_s, config), qPrintable(m_server.errorString()));

    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    mqtt.setTimeoutMs(30000);
    for (const auto &[id, topic] :
         {std::pair{u"keep-1"_s, u"plant/a/#"_s}, std::pair{u"delete-me-2"_s, u"plant/b/#"_s}, std::pair{u"spare-3"_s, u"plant/c/#"_s}}) {
        const MqttResult r = mqtt.createPersistentSession(id, {topic}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }
    // A message queued for delete-me-2 (offline), and a retained message.
    QVERIFY(mqtt.publish(u"plant/b/door"_s, "open", 1).acknowledged);
    QVERIFY(mqtt.publish(u"plant/a/status"_s, "running", 1, true).acknowledged);
    QVERIFY(!durablesOf(u"delete-me-2"_s).isEmpty());
    QCOMPARE(sessionSubjects().size(), 3);
}

Profile TestRowActions::profile(bool allowChanges) const
{
    Profile p = standardProfile(m_server.url(), true, u"row-actions-test"_s);
    p.allowChanges = allowChanges;
    return p;
}

bool TestRowActions::openSessions(MainWindow &window, ClusterController &controller, bool allowChanges)
{
    if (!openAccount(window, controller, profile(allowChanges)) || !openRecordView(window, ClusterTreeModel::NodeKind::Sessions))
        return false;
    // The table's shortcuts (Delete, Ctrl+A) work where the table has the focus in the active window.
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

JetStreamClient TestRowActions::acme()
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

QStringList TestRowActions::sessionSubjects()
{
    auto info = acme().streamInfo(u"$MQTT_sess"_s, QJsonObject{{u"subjects_filter"_s, u">"_s}});
    if (!info)
        return {u"<error: %1>"_s.arg(info.error().toString())};
    QStringList out = info->value("state"_L1).toObject().value("subjects"_L1).toObject().keys();
    out.sort();
    return out;
}

QStringList TestRowActions::durablesOf(const QString &clientId)
{
    QStringList out;
    auto list = acme().consumerList(u"$MQTT_msgs"_s);
    if (!list)
        return {u"<error: %1>"_s.arg(list.error().toString())};
    const QString prefix = ClientIdHash::hash(clientId) + u'_';
    for (const QJsonObject &c : *list)
        if (const QString name = c.value("name"_L1).toString(); name.startsWith(prefix))
            out << name;
    out.sort();
    return out;
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
    QVERIFY(openSessions(window, controller, true));
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
    QVERIFY(openSessions(window, controller, false));
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
    QVERIFY(openSessions(window, controller, false));
    AccountWorkspace &ws = *window.workspace();
    QVERIFY(ws.sessionsPanel()->selectClient(u"delete-me-2"_s));
    RowActions &actions = *ws.sessionsPanel()->rowActions();
    actions.update();
    QCOMPARE(actions.action(RowActions::ShowInConsumers)->text(), u"Show Durables of \"delete-me-2\" in Consumers"_s);
    actions.action(RowActions::ShowInConsumers)->trigger();
    QCOMPARE(ws.currentIndex(), int(AccountWorkspace::ConsumersTab));
    ConsumersPanel &consumers = *ws.consumersPanel();
    QTRY_VERIFY_WITH_TIMEOUT(consumers.isLoaded() && !consumers.isLoading(), kLoadTimeoutMs);
    const QStringList expected = durablesOf(u"delete-me-2"_s);
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

void TestRowActions::readOnlyProfileShowsThePlanAndCannotRun()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openSessions(window, controller, false));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    const QStringList before = sessionSubjects();
    QVERIFY(sessions.selectClient(u"keep-1"_s));
    sessions.view()->setFocus();
    QTest::keyClick(sessions.view(), Qt::Key_Delete);
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QCOMPARE(dialog->request().verb, OperatorRequest::Verb::DeleteSessions);
    QCOMPARE(dialog->request().clientIds, QStringList{u"keep-1"_s});
    QTRY_COMPARE_WITH_TIMEOUT(dialog->controller()->stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!dialog->controller()->prepareError(), qPrintable(errorText(dialog->controller()->prepareError())));

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
    QCOMPARE(sessionSubjects(), before);
}

void TestRowActions::deleteKeyDeletesTheSession()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openSessions(window, controller, true));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    const QString gone = MqttLayout::sessionSubject({}, ClientIdHash::hash(u"delete-me-2"_s));
    const QStringList durables = durablesOf(u"delete-me-2"_s);
    QVERIFY(!durables.isEmpty());
    QVERIFY(sessionSubjects().contains(gone));
    QTemporaryDir backups;

    QVERIFY(sessions.selectClient(u"delete-me-2"_s));
    sessions.view()->setFocus();
    QTest::keyClick(sessions.view(), Qt::Key_Delete);
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    OperatorActionController &run = *dialog->controller();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(errorText(run.prepareError())));
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
    const QString result = dialog->resultText();
    QVERIFY2(result.contains(u"Done."_s) && result.contains(u"Backups written"_s), qPrintable(result));
    QVERIFY(dialog->button(QWizard::FinishButton)->isEnabled());

    // The server agrees: the record and its durables are gone, the others stay.
    const QStringList left = sessionSubjects();
    QVERIFY2(!left.contains(gone), qPrintable(left.join(u", "_s)));
    QVERIFY(left.contains(subjectOf(u"keep-1"_s)) && left.contains(subjectOf(u"spare-3"_s)));
    QCOMPARE(durablesOf(u"delete-me-2"_s), QStringList());
    QVERIFY(!durablesOf(u"keep-1"_s).isEmpty());

    // The window reads the account again: the row is gone.
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(sessions.isLoaded() && !sessions.isLoading() && sessions.model()->rowOf(u"delete-me-2"_s) < 0, kLoadTimeoutMs);
    QVERIFY(sessions.model()->rowOf(u"keep-1"_s) >= 0 && sessions.model()->rowOf(u"spare-3"_s) >= 0);
}

void TestRowActions::makeSessions(const QStringList &clientIds)
{
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    mqtt.setTimeoutMs(30000);
    for (const QString &id : clientIds) {
        const MqttResult r = mqtt.createPersistentSession(id, {u"batch/%1/#"_s.arg(id)}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }
}

QPointer<OperatorActionDialog>
TestRowActions::startBatchDelete(MainWindow &window, const QStringList &clientIds, const QString &backupDir,
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
        qWarning("unexpected plan: %s %s", qPrintable(errorText(dialog->controller()->prepareError())), qPrintable(dialog->previewText()));
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
    QVERIFY(openSessions(window, controller, false));
    SessionsPanel &sessions = *window.workspace()->sessionsPanel();
    QVERIFY(sessions.selectClient(u"keep-1"_s));
    const QModelIndex spare = sessions.proxy()->mapFromSource(sessions.model()->index(sessions.model()->rowOf(u"spare-3"_s), 0));
    sessions.view()->selectionModel()->select(spare, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    RowActions &actions = *sessions.rowActions();
    actions.update();
    QCOMPARE(actions.action(RowActions::BackUp)->text(), u"Back Up Selection (2 records)…"_s);
    QVERIFY(actions.action(RowActions::BackUp)->isEnabled());
    const QStringList before = sessionSubjects();

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
            if (content.contains(subjectOf(id).toUtf8()))
                subjects << id;
    }
    subjects.sort();
    QCOMPARE(subjects, (QStringList{u"keep-1"_s, u"spare-3"_s}));
    auto *box = window.findChild<QMessageBox *>(u"selectionBackupResult"_s);
    QVERIFY(box && box->text().contains(u"2 backup file"_s));
    QCOMPARE(sessionSubjects(), before);
}

// Stop after the first step: the run says what it did and names its journal; Resume plans the rest, which is
// confirmed again and runs to the end.
void TestRowActions::stopThenResume()
{
    const QStringList ids{u"batch-4"_s, u"batch-5"_s, u"batch-6"_s};
    makeSessions(ids);
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(true)));
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
    QVERIFY2(!run.journalPath().isEmpty() && QFile::exists(run.journalPath()), qPrintable(run.journalPath()));
    QVERIFY2(dialog->resultText().contains(run.journalPath()), qPrintable(dialog->resultText()));
    auto *resume = dialog->findChild<QPushButton *>(u"operatorResume"_s);
    QVERIFY(resume && resume->isVisible());
    int gone = 0;
    for (const QString &id : ids)
        gone += sessionSubjects().contains(subjectOf(id)) ? 0 : 1;
    QCOMPARE(gone, 1);

    // Resume: the steps not done, previewed and confirmed again.
    QTest::mouseClick(resume, Qt::LeftButton);
    QCOMPARE(dialog->currentId(), int(OperatorActionDialog::PreviewPageId));
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(errorText(run.prepareError())));
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
        QVERIFY2(!sessionSubjects().contains(subjectOf(id)), qPrintable(id));
}

// The dialog closed (the window going away) while a step runs: the run stops after that step, nothing crashes,
// and the GUI goes on.
void TestRowActions::closingWhileRunningStops()
{
    const QStringList ids{u"close-7"_s, u"close-8"_s};
    makeSessions(ids);
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(true)));
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
            n += sessionSubjects().contains(subjectOf(id)) ? 1 : 0;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(remaining(), 1, kRunTimeoutMs);
    QCOMPARE(applying.load(), 1);
    // The window still works: a refresh reads the account.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
}

// From the cluster's findings (a finding naming a client) and from a live client event to the client's session.
void TestRowActions::showInSessionsFromFindingsAndActivity()
{
    // spare-3 loses a durable: SESSION_MISSING_CONSUMER names it.
    const QStringList durables = durablesOf(u"spare-3"_s);
    QVERIFY(!durables.isEmpty());
    QVERIFY(acme().call(u"CONSUMER.DELETE.$MQTT_msgs."_s + durables.first(), {}));
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(false)));
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

// Disconnect a connected client (a mosquitto_sub that stays connected): the server closes its connection, the
// session stays, and the result says whether the client came back.
void TestRowActions::disconnectSaysWhetherTheClientCameBack()
{
    makeSessions({u"live-9"_s});
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
    QVERIFY(openSessions(window, controller, true));
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
    QCOMPARE(sessions.rowActions()->action(RowActions::Disconnect)->text(), u"Disconnect Client \"live-9\"…"_s);
    sessions.rowActions()->action(RowActions::Disconnect)->trigger();
    QPointer<OperatorActionDialog> dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    OperatorActionController &run = *dialog->controller();
    QCOMPARE(run.request().verb, OperatorRequest::Verb::Disconnect);
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(errorText(run.prepareError())));
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
    QVERIFY(sessionSubjects().contains(subjectOf(u"live-9"_s))); // the session stays
}

// The Retained tab: the Delete key clears the selected topics, "Clear Retained Matching Filter…" asks for an
// MQTT filter; both preview first. With the account's MQTT user in the profile the clear runs, and a new
// subscriber no longer gets the message.
void TestRowActions::clearRetainedFromTheRetainedTab()
{
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    QVERIFY(mqtt.publish(u"plant/x/status"_s, "stopped", 1, true).acknowledged);
    ClusterController controller;
    MainWindow window(controller);
    Profile p = profile(true);
    p.mqttProbe.insert(u"ACME"_s, MqttProbeSettings{u"127.0.0.1:%1"_s.arg(m_server.mqttPort()), u"acme"_s, u"acmepass"_s});
    QVERIFY(openAccount(window, controller, p));
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Retained));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
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
    QVERIFY2(!dialog->controller()->prepareError(), qPrintable(errorText(dialog->controller()->prepareError())));
    QVERIFY2(dialog->previewText().contains(u"plant/x/status"_s), qPrintable(dialog->previewText()));
    dialog->reject();
    QTRY_VERIFY(!dialog);

    // The Delete key: the selected topic.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    retained.view()->setFocus();
    QTest::keyClick(retained.view(), Qt::Key_Delete);
    dialog = window.operatorActions()->dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->request().topics, QStringList{u"plant/x/status"_s});
    OperatorActionController &run = *dialog->controller();
    QTRY_COMPARE_WITH_TIMEOUT(run.stage(), OperatorActionController::Stage::Prepared, kLoadTimeoutMs);
    QVERIFY2(!run.prepareError(), qPrintable(errorText(run.prepareError())));
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

QTEST_MAIN(TestRowActions)
#include "tst_rowactions.moc"
