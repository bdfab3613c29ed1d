// Acting on rows from the account's tables (RowActions, OperatorActionDialog) in the main window, against a
// real nats-server (newest) with MQTT sessions, a queued message and a retained message made by mosquitto:
// every table selects several rows and has the row actions; the context menu of the sessions table names how
// many rows each action takes ("Delete 3 Sessions…"), Ctrl+A selects what the filter shows; Copy Client ID
// puts the client ID on the clipboard; Show in Consumers selects the session's durables in the Consumers tab
// (and Show in Sessions goes back); the Delete key opens the delete preview, which lists the session and
// the counts; a read-only profile shows the plan with how to allow changes and cannot run; with changes
// allowed, the typed account name runs the plan, the GUI's event loop keeps turning meanwhile, and the
// session record is gone on the server (the other sessions stay). Screenshots (row-actions-menu.png,
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
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include "actions/operatoractions.h"
#include "actions/rowactions.h"
#include "controllers/clustercontroller.h"
#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "mainwindow.h"
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
#include "panels/consumerspanel.h"
#include "panels/detailpanel.h"
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

private:
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
    QCOMPARE(left.size(), 2);
    QCOMPARE(durablesOf(u"delete-me-2"_s), QStringList());
    QVERIFY(!durablesOf(u"keep-1"_s).isEmpty());

    // The window reads the account again: the row is gone.
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(sessions.isLoaded() && !sessions.isLoading() && sessions.model()->rowOf(u"delete-me-2"_s) < 0, kLoadTimeoutMs);
    QCOMPARE(sessions.model()->rowCount(), 2);
}

QTEST_MAIN(TestRowActions)
#include "tst_rowactions.moc"
