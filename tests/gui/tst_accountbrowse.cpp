// Browsing an account in the main window against a real nats-server 2.10 with MQTT state made by
// mosquitto clients: a durable is deleted first, so the findings list shows SESSION_MISSING_CONSUMER
// and the tree's badge turns red; the sessions table shows the real sessions (filter, details with the
// stored JSON), the retained table the retained messages (payload as JSON), the consumers table their
// owners. Without the account's credentials every record view says why it is empty. A refresh of the
// retained and consumers tables swaps the rows in one go and keeps the selected topic / consumer (a
// new message or durable appears meanwhile); a selected row gone on the server leaves no selection. Saves
// docs/screenshots/findings.png and sessions.png with MQTTDOCTOR_WRITE_SCREENSHOTS=1 (else a temp dir).
#include <QDir>
#include <QJsonArray>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "controllers/accountdatacontroller.h"
#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/consumertablemodel.h"
#include "models/findinglistmodel.h"
#include "models/retainedtablemodel.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/clustertreepanel.h"
#include "panels/consumerspanel.h"
#include "panels/findingspanel.h"
#include "panels/inflightpanel.h"
#include "panels/pinnedpanel.h"
#include "panels/retainedpanel.h"
#include "panels/sessionspanel.h"
#include "serverconfig.h"
#include "widgets/noticelabel.h"
#include "widgets/sessiondetailsview.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

namespace {

bool hasCode(const FindingListModel &model, const QString &code)
{
    return !model.findings().withCode(code).isEmpty();
}

} // namespace

class TestAccountBrowse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void browseAccount();
    void withoutAccountCredentialsViewsSayWhy();
    void refreshKeepsRetainedAndConsumerSelection();
    void sessionsNoteWithoutSessStream();

private:
    Profile profile(bool accountCredentials) const { return standardProfile(m_server.url(), accountCredentials, u"browse-test"_s); }
    JetStreamClient acmeApi();

    NatsServerFixture m_server;
    QTemporaryDir m_shots;
    QString m_deletedDurable;
    std::unique_ptr<ConnectionSet> m_acme;
};

void TestAccountBrowse::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true);
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (acme/acmepass, JetStream)
    config.setServerName(u"browse1"_s);
    QVERIFY2(m_server.start(u"2.10"_s, config), qPrintable(m_server.errorString()));

    const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    for (const auto &[id, topic] : {std::pair{u"sensor-1"_s, u"plant/line1/temp"_s}, std::pair{u"sensor-2"_s, u"plant/line2/#"_s},
                                    std::pair{u"dashboard-3"_s, u"plant/+/alarm"_s}}) {
        const MqttResult r = mqtt.createPersistentSession(id, {topic}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }
    QVERIFY(mqtt.publish(u"plant/line1/temp"_s, R"({"celsius": 21.5, "unit": "C"})", 1, true).acknowledged);
    QVERIFY(mqtt.publish(u"plant/line2/door"_s, "open", 1, true).acknowledged);

    // Break sensor-2's session: delete its durable (what an over-eager cleanup script does).
    Profile acme;
    acme.servers = {m_server.url()};
    acme.auth.kind = Credentials::Kind::UserPassword;
    acme.auth.user = u"acme"_s;
    acme.auth.password = u"acmepass"_s;
    ConnectionSet connections(acme);
    auto conn = connections.primary();
    QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
    JetStreamClient js(*conn);
    const auto consumers = js.consumerList(u"$MQTT_msgs"_s);
    QVERIFY(consumers);
    const QString prefix = ClientIdHash::hash(u"sensor-2"_s) + u'_';
    for (const QJsonObject &c : *consumers)
        if (c.value("name"_L1).toString().startsWith(prefix))
            m_deletedDurable = c.value("name"_L1).toString();
    QVERIFY(!m_deletedDurable.isEmpty());
    QVERIFY(js.call(u"CONSUMER.DELETE.$MQTT_msgs."_s + m_deletedDurable, {}));
}

JetStreamClient TestAccountBrowse::acmeApi()
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

void TestAccountBrowse::browseAccount()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(true)));
    ClusterTreeModel &tree = *window.treeModel();
    AccountWorkspace &workspace = *window.workspace();

    // The findings list fills on selecting the account; the deleted durable is named.
    FindingsPanel &findings = *workspace.findingsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(findings.isLoaded(), kLoadTimeoutMs);
    QVERIFY2(findings.noticeText().isEmpty() || !findings.noticeText().contains(u"could not"_s), qPrintable(findings.noticeText()));
    QVERIFY2(hasCode(*findings.model(), u"SESSION_MISSING_CONSUMER"_s), qPrintable(findings.summaryText()));
    workspace.setCurrentIndex(AccountWorkspace::FindingsTab);
    QVERIFY(findings.selectCode(u"SESSION_MISSING_CONSUMER"_s));
    QVERIFY2(findings.detailsText().contains(m_deletedDurable), qPrintable(findings.detailsText()));
    QVERIFY(findings.detailsText().contains(u"Repair"_s));
    // The badge: the account is at least "error"; the tree's record views are there.
    const auto health = tree.accountIndex(u"ACME"_s).data(ClusterTreeModel::HealthRole).value<HealthBadge::Health>();
    QVERIFY(int(health) >= int(HealthBadge::Health::Error));
    QVERIFY(tree.dataIndex(u"ACME"_s, ClusterTreeModel::NodeKind::Sessions).isValid());
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"findings.png"_s).isEmpty());

    // Sessions: the three real sessions, sensor-2 missing its consumer.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
    QCOMPARE(workspace.currentIndex(), int(AccountWorkspace::SessionsTab));
    SessionsPanel &sessions = *workspace.sessionsPanel();
    QVERIFY2(sessions.noticeText().isEmpty(), qPrintable(sessions.noticeText()));
    SessionTableModel &model = *sessions.model();
    QCOMPARE(model.rowCount(), 3);
    const int broken = model.rowOf(u"sensor-2"_s);
    QVERIFY(broken >= 0);
    // plant/line2/# has two durables (plant.line2.> and the level-up "plant.line2 fwc"); one is gone.
    QCOMPARE(model.index(broken, SessionTableModel::ConsumersColumn).data().toString(), u"1/2"_s);
    QVERIFY(model.index(broken, SessionTableModel::ProblemsColumn).data().toString().contains(m_deletedDurable));
    QCOMPARE(model.index(model.rowOf(u"sensor-1"_s), SessionTableModel::ConnectedColumn).data().toString(), u"no"_s);
    QCOMPARE(model.index(model.rowOf(u"sensor-1"_s), SessionTableModel::HashColumn).data().toString(), ClientIdHash::hash(u"sensor-1"_s));

    // Filter like the CLI: by client ID, then by subscription.
    sessions.filterEdit()->setText(u"SENSOR"_s);
    QTRY_COMPARE(sessions.proxy()->rowCount(), 2);
    sessions.filterEdit()->setText(u"plant/+/alarm"_s);
    QTRY_COMPARE(sessions.proxy()->rowCount(), 1);
    QCOMPARE(sessions.proxy()->index(0, 0).data().toString(), u"dashboard-3"_s);
    sessions.filterEdit()->clear();
    QTRY_COMPARE(sessions.proxy()->rowCount(), 3);

    // Details: the decoded record beside the stored JSON, read from the server.
    QVERIFY(sessions.selectClient(u"sensor-2"_s));
    QVERIFY(sessions.detailsView()->decodedText().contains(u"MISSING"_s));
    QTRY_VERIFY_WITH_TIMEOUT(sessions.detailsView()->rawText().contains(u"\"id\": \"sensor-2\""_s), kLoadTimeoutMs);
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"sessions.png"_s).isEmpty());

    // Retained: both messages; the JSON preview of the temperature.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Retained));
    RetainedPanel &retained = *workspace.retainedPanel();
    QCOMPARE(retained.model()->rowCount(), 2);
    const int temp = retained.model()->rowOf(u"plant/line1/temp"_s);
    QVERIFY(temp >= 0);
    QCOMPARE(retained.model()->index(temp, RetainedTableModel::QosColumn).data().toInt(), 1);
    retained.model()->setPayloadMode(RetainedTableModel::PayloadMode::Json);
    QCOMPARE(retained.model()->index(temp, RetainedTableModel::PayloadColumn).data().toString(), u"{\"celsius\":21.5,\"unit\":\"C\"}"_s);
    QVERIFY(retained.model()->rowOf(u"plant/line2/door"_s) >= 0);

    // Consumers: the three remaining durables belong to their sessions.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Consumers));
    ConsumersPanel &consumers = *workspace.consumersPanel();
    QVERIFY2(consumers.noticeText().isEmpty(), qPrintable(consumers.noticeText()));
    const QList<ConsumerRow> rows = consumers.model()->consumers();
    QCOMPARE(rows.size(), 3);
    QStringList owners;
    for (const ConsumerRow &r : rows)
        owners << r.ownerClientId;
    owners.sort();
    QCOMPARE(owners, (QStringList{u"dashboard-3"_s, u"sensor-1"_s, u"sensor-2"_s}));
    QCOMPARE(consumers.model()->orphanCount(), 0);

    // A refresh reads again (new generation) and lands on the same data.
    window.treePanel()->setCurrentSourceIndex(tree.dataIndex(u"ACME"_s, ClusterTreeModel::NodeKind::Sessions));
    workspace.reload();
    QVERIFY(sessions.isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(sessions.isLoaded(), kLoadTimeoutMs);
    QCOMPARE(model.rowCount(), 3);
}

void TestAccountBrowse::withoutAccountCredentialsViewsSayWhy()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(false)));
    AccountWorkspace &workspace = *window.workspace();
    FindingsPanel &findings = *workspace.findingsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(findings.isLoaded(), kLoadTimeoutMs);
    // Stream-level checks still run; the record-level ones are skipped with a note that says why.
    QVERIFY2(!hasCode(*findings.model(), u"SESSION_MISSING_CONSUMER"_s), qPrintable(findings.summaryText()));
    QVERIFY2(findings.noticeText().contains(u"credentials"_s), qPrintable(findings.noticeText()));
    // ... and the panel never calls that a clean bill: the unchecked records come first, as a warning.
    QVERIFY2(findings.noticeText().startsWith(u"Not checked:"_s), qPrintable(findings.noticeText()));
    QVERIFY2(findings.model()->rowCount() > 0 || findings.summaryText().contains(u"not everything could be"_s),
             qPrintable(findings.summaryText()));
    workspace.setCurrentIndex(AccountWorkspace::FindingsTab);
    QVERIFY(!saveScreenshot(window, m_shots.path(), u"findings-not-checked.png"_s).isEmpty());

    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
    SessionsPanel &sessions = *workspace.sessionsPanel();
    QCOMPARE(sessions.model()->rowCount(), 0);
    QVERIFY2(sessions.noticeText().contains(u"needs the account's credentials"_s), qPrintable(sessions.noticeText()));

    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Retained));
    QVERIFY2(workspace.retainedPanel()->noticeText().contains(u"credentials"_s), qPrintable(workspace.retainedPanel()->noticeText()));
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Consumers));
    ConsumersPanel &consumers = *workspace.consumersPanel();
    QVERIFY2(consumers.noticeText().contains(u"credentials"_s), qPrintable(consumers.noticeText()));
    // Each view names what it could not read and for which account, then the reason and where to add
    // the credentials in this program; its status says it has nothing.
    const QString where = u"in Connect…, sign in as a user of that account"_s;
    QVERIFY2(consumers.noticeText().startsWith(u"The consumers of ACME could not be read: "_s), qPrintable(consumers.noticeText()));
    QVERIFY2(consumers.noticeText().contains(where), qPrintable(consumers.noticeText()));
    QCOMPARE(consumers.statusText(), u"Not loaded"_s);
    // A failed load has ended: opening the tab again does not retry it (Reload does).
    QVERIFY(consumers.isLoaded() && !consumers.isLoading());
    consumers.ensureLoaded();
    QVERIFY(!consumers.isLoading());

    InflightPanel &inflight = *workspace.inflightPanel();
    workspace.setCurrentIndex(AccountWorkspace::InflightTab);
    QTRY_VERIFY_WITH_TIMEOUT(inflight.isLoaded(), kLoadTimeoutMs);
    QVERIFY2(inflight.noticeText().startsWith(u"What is in flight in ACME could not be read: "_s), qPrintable(inflight.noticeText()));
    QVERIFY2(inflight.noticeText().contains(where), qPrintable(inflight.noticeText()));
    QCOMPARE(inflight.statusText(), u"Not loaded"_s);

    PinnedPanel &pinned = *workspace.pinnedPanel();
    workspace.setCurrentIndex(AccountWorkspace::PinnedTab);
    QTRY_VERIFY_WITH_TIMEOUT(pinned.isLoaded(), kLoadTimeoutMs);
    const auto *pinnedNotice = pinned.findChild<NoticeLabel *>(u"pinnedNotice"_s);
    QVERIFY(pinnedNotice && !pinnedNotice->isHidden());
    QCOMPARE(pinnedNotice->kind(), NoticeLabel::Kind::Error);
    QVERIFY2(pinnedNotice->text().startsWith(u"Who holds messages in ACME could not be read: "_s), qPrintable(pinnedNotice->text()));
    QVERIFY2(pinnedNotice->text().contains(where), qPrintable(pinnedNotice->text()));
    QCOMPARE(pinned.statusText(), u"Not loaded"_s);
}

void TestAccountBrowse::refreshKeepsRetainedAndConsumerSelection()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, profile(true)));
    AccountWorkspace &workspace = *window.workspace();
    const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);

    // Retained: the door message selected; a new message appears on the server; a refresh.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Retained));
    RetainedPanel &retained = *workspace.retainedPanel();
    RetainedTableModel &messages = *retained.model();
    const int before = messages.rowCount();
    QVERIFY(before >= 2);
    QVERIFY(retained.selectTopic(u"plant/line2/door"_s));
    QVERIFY2(retained.payloadText().contains(u"open"_s), qPrintable(retained.payloadText()));
    const int doorRow = messages.rowOf(u"plant/line2/door"_s);
    // Meanwhile on the server: a new message, and the one before the door message cleared (an empty
    // retained publish), so the door message's row number changes: the selection follows the topic.
    QVERIFY(messages.rowOf(u"plant/line1/temp"_s) >= 0);
    QVERIFY(mqtt.publish(u"plant/line0/new"_s, "first", 1, true).acknowledged);
    QVERIFY(mqtt.publish(u"plant/line1/temp"_s, QByteArray(), 1, true).acknowledged);
    {
        QSignalSpy resets(&messages, &QAbstractItemModel::modelReset);
        QSignalSpy inserts(&messages, &QAbstractItemModel::rowsInserted);
        workspace.reload();
        QVERIFY(retained.isLoading());
        QCOMPARE(messages.rowCount(), before); // the rows stay while the refresh reads
        QCOMPARE(retained.selectedTopic(), u"plant/line2/door"_s);
        QTRY_VERIFY_WITH_TIMEOUT(retained.isLoaded(), kLoadTimeoutMs);
        QCOMPARE(messages.rowCount(), before);
        QVERIFY(messages.rowOf(u"plant/line0/new"_s) >= 0);
        QCOMPARE(messages.rowOf(u"plant/line1/temp"_s), -1);
        QCOMPARE(resets.count(), 1); // swapped in one go, not emptied and refilled
        QCOMPARE(inserts.count(), 0);
    }
    QVERIFY(messages.rowOf(u"plant/line2/door"_s) != doorRow);
    QCOMPARE(retained.selectedTopic(), u"plant/line2/door"_s);
    QVERIFY2(retained.payloadText().contains(u"open"_s), qPrintable(retained.payloadText()));
    // The selected message is cleared on the server (an empty retained publish): no selection after the refresh.
    QVERIFY(mqtt.publish(u"plant/line2/door"_s, QByteArray(), 1, true).acknowledged);
    workspace.reload();
    QTRY_VERIFY_WITH_TIMEOUT(retained.isLoaded() && messages.rowOf(u"plant/line2/door"_s) < 0, kLoadTimeoutMs);
    QCOMPARE(retained.selectedTopic(), QString());
    QCOMPARE(retained.payloadText(), QString());

    // Consumers: dashboard-3's durable selected; a new session adds a durable; a refresh.
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Consumers));
    ConsumersPanel &consumers = *workspace.consumersPanel();
    ConsumerTableModel &durables = *consumers.model();
    QString dashboardDurable;
    for (const ConsumerRow &r : durables.consumers())
        if (r.ownerClientId == "dashboard-3"_L1)
            dashboardDurable = r.name;
    QVERIFY(!dashboardDurable.isEmpty());
    QVERIFY(consumers.selectConsumer(u"$MQTT_msgs"_s, dashboardDurable));
    QVERIFY(!consumers.selectConsumer(u"$MQTT_out"_s, dashboardDurable)); // the key is stream and name
    const int durablesBefore = durables.rowCount();
    const MqttResult fourth = mqtt.createPersistentSession(u"sensor-4"_s, {u"plant/line4/temp"_s}, 1);
    QVERIFY2(fourth.connected() && fourth.subscribed(), qPrintable(fourth.describe()));
    {
        QSignalSpy resets(&durables, &QAbstractItemModel::modelReset);
        workspace.reload();
        QVERIFY(consumers.isLoading());
        QCOMPARE(durables.rowCount(), durablesBefore);
        QTRY_VERIFY_WITH_TIMEOUT(consumers.isLoaded(), kLoadTimeoutMs);
        QCOMPARE(durables.rowCount(), durablesBefore + 1);
        QCOMPARE(resets.count(), 1);
    }
    QCOMPARE(consumers.selectedConsumer(), std::pair(u"$MQTT_msgs"_s, dashboardDurable));
    // The selected durable deleted on the server: no selection after the refresh.
    QVERIFY(acmeApi().call(u"CONSUMER.DELETE.$MQTT_msgs."_s + dashboardDurable, {}));
    workspace.reload();
    QTRY_VERIFY_WITH_TIMEOUT(consumers.isLoaded() && durables.rowOf(u"$MQTT_msgs"_s, dashboardDurable) < 0, kLoadTimeoutMs);
    QCOMPARE(consumers.selectedConsumer(), std::pair(QString(), QString()));
    QCOMPARE(durables.rowCount(), durablesBefore);
}

// An account without $MQTT_sess: the note says no client has connected, unless records are left in
// legacy $MQTT_sess_<hash> streams, which are listed and named by the note (a server of its own).
void TestAccountBrowse::sessionsNoteWithoutSessStream()
{
    NatsServerFixture server;
    QVERIFY2(server.start(u"2.10"_s, ServerConfig::standard()), qPrintable(server.errorString()));
    Profile acme;
    acme.servers = {server.url()};
    acme.auth.kind = Credentials::Kind::UserPassword;
    acme.auth.user = u"acme"_s;
    acme.auth.password = u"acmepass"_s;
    AccountDataController controller;
    controller.setProfile(acme);
    auto load = [&controller](qsizetype &rows, QString &note, bool refresh) {
        rows = 0;
        QSignalSpy batches(&controller, &AccountDataController::sessionsBatch);
        QSignalSpy finished(&controller, &AccountDataController::sessionsFinished);
        QSignalSpy failed(&controller, &AccountDataController::failed);
        if (refresh) // the sessions come from the account's snapshot: a new one reads the new stream
            controller.refresh(u"ACME"_s);
        controller.loadSessions(u"ACME"_s);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 || failed.count() > 0, kLoadTimeoutMs);
        QCOMPARE(failed.count(), 0);
        for (const QList<QVariant> &b : std::as_const(batches)) {
            const auto entries = b.at(1).value<QList<SessionEntry>>();
            for (const SessionEntry &e : entries)
                rows += e.isLegacy() ? 1 : 0;
        }
        note = finished.first().at(2).toString();
    };
    qsizetype legacyRows = 0;
    QString note;
    load(legacyRows, note, false);
    QCOMPARE(legacyRows, 0);
    QVERIFY2(note.contains(u"no MQTT client of it has connected yet"_s), qPrintable(note));

    ConnectionSet connections(acme);
    auto conn = connections.primary();
    QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
    const QString legacy = u"$MQTT_sess_"_s + ClientIdHash::hash(u"old-7"_s);
    QVERIFY(JetStreamClient(*conn).call(u"STREAM.CREATE."_s + legacy,
                                        QJsonObject{{u"name"_s, legacy}, {u"subjects"_s, QJsonArray{legacy}}, {u"max_msgs"_s, 1}}));
    auto ack = (*conn)->request(legacy, R"({"origin":"0ld5rvr1","id":"old-7","clean":false,"subs":{"legacy.a":1}})", 5000);
    QVERIFY2(ack && ack->data.contains("\"seq\""), ack ? ack->data.constData() : qPrintable(ack.error().toString()));
    load(legacyRows, note, true);
    QCOMPARE(legacyRows, 1);
    QVERIFY2(note.contains(u"legacy $MQTT_sess_<hash> streams"_s) && !note.contains(u"has connected yet"_s), qPrintable(note));
}

QTEST_MAIN(TestAccountBrowse)
#include "tst_accountbrowse.moc"
