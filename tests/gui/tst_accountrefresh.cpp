// One refresh of an account in the main window is one snapshot load: against a real
// nats-server 2.10 with mosquitto-made sessions, the connection set's RequestCounter shows that a
// refresh with the findings, sessions and consumers views open asks each thing once (no server
// discovery, the account's INFO, STREAM.LIST and CONSUMER.LISTs once, CONNZ once, `$MQTT_sess` with one
// ordered consumer and no other consumer made), and that opening another view afterwards asks
// nothing. The findings and the consumers view agree on the orphans (ConsumerOwner): a durable on the
// hash of an undecodable record and a durable with a name the gateway never gives are no orphans in
// either (the consumers view used to call them orphans), nor is a connected clean-session client's;
// a leftover `<hash>_*` durable is one in both.
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include "controllers/accountdatacontroller.h"
#include "controllers/clustercontroller.h"
#include "diagnosis/findingcodes.h"
#include "mainwindow.h"
#include "models/clustertreemodel.h"
#include "models/consumertablemodel.h"
#include "models/findinglistmodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "nats/requestcounter.h"
#include "natsserverfixture.h"
#include "panels/accountworkspace.h"
#include "panels/consumerspanel.h"
#include "panels/findingspanel.h"
#include "panels/sessionspanel.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;
using Kind = RequestCounter::Kind;

class TestAccountRefresh : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void oneRefreshReadsEachThingOnce();
    void findingsAndConsumersAgreeOnOrphans();

private:
    NatsServerFixture m_server;
    QProcess *m_cleanClient = nullptr;
    QString m_cleanDurable;
    QString m_orphan;
    QString m_broken;
    const QString m_foreign = u"audit-tap"_s;
};

void TestAccountRefresh::initTestCase()
{
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    QVERIFY2(m_server.start(u"2.10"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));
    const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    for (const QString &id : {u"sensor-1"_s, u"sensor-2"_s, u"sensor-3"_s}) {
        const MqttResult r = mqtt.createPersistentSession(id, {u"plant/"_s + id}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }

    // A clean-session client that stays connected: its durable has no record naming it.
    m_cleanClient = new QProcess(this);
    m_cleanClient->start(u"mosquitto_sub"_s,
                         {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(m_server.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s,
                          u"acmepass"_s, u"-i"_s, u"clean-live"_s, u"-q"_s, u"1"_s, u"-t"_s, u"c/#"_s});
    QVERIFY(m_cleanClient->waitForStarted(5000));
    Profile acme;
    acme.servers = {m_server.url()};
    acme.auth.kind = Credentials::Kind::UserPassword;
    acme.auth.user = u"acme"_s;
    acme.auth.password = u"acmepass"_s;
    ConnectionSet connections(acme);
    auto conn = connections.primary();
    QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
    JetStreamClient js(*conn);
    const QString cleanPrefix = ClientIdHash::hash(u"clean-live"_s) + u'_';
    for (int i = 0; i < 50 && m_cleanDurable.isEmpty(); ++i) {
        QTest::qWait(100);
        if (const auto list = js.consumerList(u"$MQTT_msgs"_s))
            for (const QJsonObject &c : *list)
                if (c.value("name"_L1).toString().startsWith(cleanPrefix))
                    m_cleanDurable = c.value("name"_L1).toString();
    }
    QVERIFY2(!m_cleanDurable.isEmpty(), "the clean-session client's durable did not appear");

    // A durable left behind by a session that is gone, one of another application, and one on the hash
    // of a record nobody can decode.
    m_orphan = ClientIdHash::hash(u"gone-9"_s) + u"_x"_s;
    m_broken = ClientIdHash::hash(u"broken-4"_s) + u"_z"_s;
    auto stored = (*conn)->request(u"$MQTT.sess."_s + ClientIdHash::hash(u"broken-4"_s), "{not a record", 5000);
    QVERIFY2(stored && stored->data.contains("\"seq\""), stored ? stored->data.constData() : qPrintable(stored.error().toString()));
    for (const auto &[name, filter] : {std::pair{m_orphan, u"$MQTT.msgs.gone.x"_s}, std::pair{m_foreign, u"$MQTT.msgs.audit"_s},
                                       std::pair{m_broken, u"$MQTT.msgs.broken.z"_s}}) {
        const QJsonObject config{{u"durable_name"_s, name}, {u"ack_policy"_s, u"explicit"_s}, {u"filter_subject"_s, filter}};
        auto created = js.call(u"CONSUMER.DURABLE.CREATE.$MQTT_msgs."_s + name,
                               QJsonObject{{u"stream_name"_s, u"$MQTT_msgs"_s}, {u"config"_s, config}});
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
    }
}

void TestAccountRefresh::cleanupTestCase()
{
    if (m_cleanClient) {
        m_cleanClient->kill();
        m_cleanClient->waitForFinished(5000);
    }
}

void TestAccountRefresh::oneRefreshReadsEachThingOnce()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, standardProfile(m_server.url())));
    AccountWorkspace &workspace = *window.workspace();
    AccountDataController &data = *window.accountData();
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Sessions));
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Consumers));
    QTRY_VERIFY_WITH_TIMEOUT(!data.isBusy() && !controller.isLoading(), kLoadTimeoutMs);

    RequestCounter &requests = controller.connectionSet()->requests();
    requests.clearRecorded();
    requests.setRecording(true);
    const RequestCounter::Counts before = requests.counts();
    const int loadsBefore = data.snapshotLoads();
    QSignalSpy findings(&data, &AccountDataController::findingsLoaded);
    QSignalSpy consumers(&data, &AccountDataController::consumersLoaded);
    QSignalSpy failures(&data, &AccountDataController::failed);

    workspace.reload(); // what View > Refresh does
    QTRY_VERIFY_WITH_TIMEOUT(findings.count() == 1 && consumers.count() == 1 && !data.isBusy(), kLoadTimeoutMs);
    QCOMPARE(failures.count(), 0);
    // The sessions view (not open) reads the same snapshot when opened: nothing more is asked.
    workspace.setCurrentIndex(AccountWorkspace::SessionsTab);
    // The three sensors, the connected clean-session client and the undecodable record.
    QTRY_VERIFY_WITH_TIMEOUT(workspace.sessionsPanel()->isLoaded() && !data.isBusy(), kLoadTimeoutMs);
    QCOMPARE(workspace.sessionsPanel()->model()->rowCount(), 5);
    workspace.setCurrentIndex(AccountWorkspace::FindingsTab);
    QTest::qWait(200);

    const RequestCounter::Counts n = requests.counts() - before;
    const QString all = requests.recorded().join(u"\n"_s);
    const QString what = n.toString() + u"\n"_s + all;
    QCOMPARE(data.snapshotLoads() - loadsBefore, 1);
    // No server discovery: the servers are the ones the connection set found.
    QVERIFY2(n[Kind::Varz] == 0 && n[Kind::Statsz] == 0 && n[Kind::Jsz] == 0 && n[Kind::Accountz] == 0, qPrintable(what));
    // The account: its INFO and STREAM.LIST once; one STREAM.INFO ($MQTT_rmsgs' subject count), none of $MQTT_sess.
    QVERIFY2(n[Kind::JsAccountInfo] == 1 && n[Kind::StreamList] == 1, qPrintable(what));
    QVERIFY2(n[Kind::StreamInfo] == 1 && all.contains(u"STREAM.INFO.$MQTT_rmsgs"_s), qPrintable(what));
    // CONSUMER.LIST of each of the five MQTT streams once (the session join uses $MQTT_msgs' and
    // $MQTT_out's from there); CONNZ once.
    QVERIFY2(n[Kind::ConsumerList] == 5, qPrintable(what));
    for (const QString &stream : {u"$MQTT_msgs"_s, u"$MQTT_out"_s, u"$MQTT_sess"_s, u"$MQTT_rmsgs"_s, u"$MQTT_qos2in"_s})
        QVERIFY2(all.count(u"CONSUMER.LIST."_s + stream + u'\n') == 1, qPrintable(what));
    QVERIFY2(n[Kind::Connz] == 1, qPrintable(what));
    // The servers' MQTT set-up of the account: one SUBSZ ping (RETAINED_CONSUMER_MISSING).
    QVERIFY2(n[Kind::OtherSystem] == 1 && all.count(u"$SYS.REQ.SERVER.PING.SUBSZ"_s) == 1, qPrintable(what));
    // $MQTT_sess read once, through one ordered consumer; no other consumer is created, and the only one
    // deleted is that consumer, when the read is done.
    QVERIFY2(n[Kind::OrderedConsumer] == 1 && all.count(u"ordered consumer $MQTT_sess"_s) == 1, qPrintable(what));
    QVERIFY2(n[Kind::ConsumerCreate] == 1 && all.count(u"CONSUMER.CREATE.$MQTT_sess"_s) == 1, qPrintable(what));
    QVERIFY2(n[Kind::ConsumerDelete] == 1 && all.count(u"CONSUMER.DELETE.$MQTT_sess."_s) == 1, qPrintable(what));
    QVERIFY2(n[Kind::MessageGet] == 0 && n[Kind::OtherJetStream] == 0, qPrintable(what));
    QVERIFY2(n.requests() == 12, qPrintable(what));
    requests.setRecording(false);
}

void TestAccountRefresh::findingsAndConsumersAgreeOnOrphans()
{
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, standardProfile(m_server.url())));
    AccountWorkspace &workspace = *window.workspace();
    QVERIFY(openRecordView(window, ClusterTreeModel::NodeKind::Consumers));
    QTRY_VERIFY_WITH_TIMEOUT(workspace.findingsPanel()->isLoaded() && !window.accountData()->isBusy(), kLoadTimeoutMs);

    QStringList reported;
    for (const Finding &f : workspace.findingsPanel()->model()->findings().toList())
        if (f.code == FindingCodes::orphanConsumer())
            for (const QString &name : {m_orphan, m_cleanDurable, m_foreign, m_broken})
                if (f.title.contains(name + u" on"_s))
                    reported << name;
    QStringList shown;
    const ConsumerTableModel &model = *workspace.consumersPanel()->model();
    for (const ConsumerRow &r : model.consumers())
        if (r.isOrphan())
            shown << r.name;
    QCOMPARE(shown, QStringList{m_orphan});
    QCOMPARE(reported, shown);
    QCOMPARE(model.orphanCount(), 1);

    const auto rowOf = [&model](const QString &name) { return model.consumers().at(model.rowOf(u"$MQTT_msgs"_s, name)); };
    // 2.10 keeps a record for a connected clean-session client; without one, CONNZ names the owner.
    QVERIFY(rowOf(m_cleanDurable).owner == ConsumerOwner::Kind::Session
            || rowOf(m_cleanDurable).owner == ConsumerOwner::Kind::ConnectedClient);
    QCOMPARE(rowOf(m_cleanDurable).ownerClientId, u"clean-live"_s);
    QCOMPARE(rowOf(m_broken).owner, ConsumerOwner::Kind::UndecodableRecord);
    QCOMPARE(rowOf(m_foreign).owner, ConsumerOwner::Kind::NotMqtt);
    QCOMPARE(model.index(model.rowOf(u"$MQTT_msgs"_s, m_orphan), ConsumerTableModel::OwnerColumn).data().toString(), u"orphan"_s);
}

QTEST_MAIN(TestAccountRefresh)
#include "tst_accountrefresh.moc"
