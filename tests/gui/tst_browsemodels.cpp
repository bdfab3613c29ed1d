// The record-view models (findings, sessions, retained, consumers) under QAbstractItemModelTester,
// with entries decoded by the core from stored-message shapes nats-server writes: batches append
// rows, the session filter is the CLI's predicate, sorting uses raw values, payload modes switch.
#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "models/consumertablemodel.h"
#include "models/findinglistmodel.h"
#include "models/healthbadge.h"
#include "models/inflighttablemodel.h"
#include "models/retainedtablemodel.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/clientidhash.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

using Tester = QAbstractItemModelTester;
constexpr auto Mode = QAbstractItemModelTester::FailureReportingMode::QtTest;

/** A session as nats-server 2.10 stores it: one QoS 1 subscription and its durable. */
SessionEntry session(const QString &clientId, const QString &filter, bool withConsumer)
{
    const QString hash = ClientIdHash::hash(clientId);
    const QString subject = filter;
    const QString json =
        uR"({"origin":"DiAi4bSi","id":"%1","clean":false,"subs":{"%2":1},"cons":{"%2":{"durable_name":"%3_d1","deliver_subject":"$MQTT.sub.x","ack_policy":"explicit","max_ack_pending":1024,"filter_subject":"$MQTT.msgs.%2"}}})"_s
            .arg(clientId, subject, hash);
    StreamMessage m;
    m.subject = u"$MQTT.sess."_s + hash;
    m.sequence = 7;
    m.timeNs = 1764700000LL * 1000000000LL;
    m.data = json.toUtf8();
    SessionEntry e = SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
    SessionLoader::ConsumerIndex index;
    if (withConsumer) {
        QJsonObject info;
        info.insert(u"name"_s, QString(hash + u"_d1"_s));
        info.insert(u"num_pending"_s, 3);
        info.insert(u"num_ack_pending"_s, 1);
        SessionLoader::indexConsumers(index, u"$MQTT_msgs"_s, QList<QJsonObject>{info});
    }
    SessionLoader::joinConsumers(e, index, true);
    return e;
}

RetainedEntry retained(const QString &topic, const QByteArray &payload, quint64 seq)
{
    QString natsSubject = topic;
    natsSubject.replace(u'/', u'.');
    const QByteArray json = R"({"origin":"DiAi4bSi","subject":")" + natsSubject.toUtf8() + R"(","topic":")" + topic.toUtf8()
        + R"(","msg":")" + payload.toBase64() + R"(","flags":3,"source":"acme"})";
    StreamMessage m;
    m.subject = u"$MQTT.rmsgs."_s + natsSubject;
    m.sequence = seq;
    m.data = json;
    return RetainedLoader::fromMessage(m);
}

} // namespace

class TestBrowseModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void findings();
    void sessionsAppendFilterSort();
    void retainedPayloadModes_data();
    void retainedPayloadModes();
    void retainedSparkplugBirths();
    void consumers();
    void inflight();
};

void TestBrowseModels::findings()
{
    FindingListModel model;
    Tester tester(&model, Mode);
    QCOMPARE(model.summary(), u"no findings"_s);
    Finding a;
    a.code = u"SESSION_MISSING_CONSUMER"_s;
    a.severity = Finding::Severity::Error;
    a.title = u"Session of c1 misses a consumer"_s;
    a.stream = u"$MQTT_msgs"_s;
    a.clientId = u"c1"_s;
    Finding b;
    b.code = u"ORPHAN_CONSUMER"_s;
    b.severity = Finding::Severity::Warning;
    model.setFindings({a, b, b});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.summary(), u"1 error, 2 warnings"_s);
    QCOMPARE(model.index(0, FindingListModel::WhereColumn).data().toString(), u"$MQTT_msgs · c1"_s);
    QCOMPARE(model.index(0, FindingListModel::SeverityColumn).data(FindingListModel::SortRole).toInt(), int(Finding::Severity::Error));
    QCOMPARE(model.index(1, 0).data(FindingListModel::FindingRole).value<Finding>().code, u"ORPHAN_CONSUMER"_s);
    QVERIFY(!model.index(0, 0).data(Qt::DecorationRole).value<QIcon>().isNull());
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestBrowseModels::sessionsAppendFilterSort()
{
    SessionTableModel model;
    SessionFilterProxyModel proxy;
    proxy.setSessionModel(&model);
    Tester tester(&model, Mode);
    Tester proxyTester(&proxy, Mode);
    proxy.sort(SessionTableModel::ClientIdColumn, Qt::AscendingOrder);

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.appendBatch({session(u"sensor-b"_s, u"room.b"_s, true), session(u"sensor-a"_s, u"room.a"_s, false)});
    model.appendBatch({session(u"dashboard"_s, u"room.>"_s, true)});
    QCOMPARE(inserted.count(), 2); // one insertion per batch
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.problemRows(), 1);

    const int a = model.rowOf(u"sensor-a"_s);
    QCOMPARE(model.index(a, SessionTableModel::HashColumn).data().toString(), ClientIdHash::hash(u"sensor-a"_s));
    QCOMPARE(model.index(a, SessionTableModel::ConsumersColumn).data().toString(), u"0/1"_s);
    QCOMPARE(model.index(a, SessionTableModel::CleanColumn).data().toString(), u"no"_s);
    QCOMPARE(model.index(a, SessionTableModel::ConnectedColumn).data().toString(), u"?"_s);
    QVERIFY(model.index(a, SessionTableModel::ProblemsColumn).data().toString().contains(u"missing"_s));
    QCOMPARE(model.index(model.rowOf(u"sensor-b"_s), SessionTableModel::ConsumersColumn).data().toString(), u"1/1"_s);
    QCOMPARE(model.index(a, SessionTableModel::SubscriptionsColumn).data().toString(), u"room/a (QoS 1)"_s);

    // Rows arrive in load order (appending never re-sorts 100,000 rows); sorting through the proxy
    // runs on a worker (SessionTableModel::sortAsync) and is applied in one layout change.
    QCOMPARE(proxy.index(0, 0).data().toString(), u"sensor-b"_s);
    QSignalSpy sorted(&model, &SessionTableModel::sorted);
    proxy.sort(SessionTableModel::ClientIdColumn, Qt::AscendingOrder);
    QTRY_COMPARE(sorted.count(), 1);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"dashboard"_s);
    QCOMPARE(proxy.index(2, 0).data().toString(), u"sensor-b"_s);
    proxy.sort(SessionTableModel::ConsumersColumn, Qt::DescendingOrder);
    QTRY_COMPARE(sorted.count(), 2);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"sensor-a"_s); // the one missing a consumer

    // The CLI's --filter: client ID, hash, subscription (MQTT form), case-insensitive.
    proxy.setFilterText(u"SENSOR"_s);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFilterText(u"room/a"_s);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setFilterText(ClientIdHash::hash(u"dashboard"_s));
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setFilterText({});
    proxy.setProblemsOnly(true);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"sensor-a"_s);
    proxy.setProblemsOnly(false);
    QCOMPARE(proxy.rowCount(), 3);

    model.clear();
    QCOMPARE(proxy.rowCount(), 0);
    QCOMPARE(model.problemRows(), 0);
}

void TestBrowseModels::retainedPayloadModes_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<RetainedTableModel::PayloadMode>("mode");
    QTest::addColumn<QString>("shown");
    QTest::newRow("text") << QByteArray("{\"t\": 21.5}\n") << RetainedTableModel::PayloadMode::Text << u"{\"t\": 21.5}\\n"_s;
    QTest::newRow("hex") << QByteArray("ab\x01") << RetainedTableModel::PayloadMode::Hex << u"61 62 01"_s;
    QTest::newRow("json") << QByteArray("{ \"t\" : 21.5 }") << RetainedTableModel::PayloadMode::Json << u"{\"t\":21.5}"_s;
    QTest::newRow("not json") << QByteArray("on") << RetainedTableModel::PayloadMode::Json << u"not JSON"_s;
}

void TestBrowseModels::retainedPayloadModes()
{
    QFETCH(QByteArray, payload);
    QFETCH(RetainedTableModel::PayloadMode, mode);
    QFETCH(QString, shown);
    RetainedTableModel model;
    Tester tester(&model, Mode);
    model.appendBatch({retained(u"home/kitchen/temp"_s, payload, 5)});
    StreamMessage garbage;
    garbage.subject = u"$MQTT.rmsgs.x"_s;
    garbage.data = "not a record";
    model.appendBatch({RetainedLoader::fromMessage(garbage)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, RetainedTableModel::TopicColumn).data().toString(), u"home/kitchen/temp"_s);
    QCOMPARE(model.index(0, RetainedTableModel::QosColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, RetainedTableModel::SizeColumn).data(RetainedTableModel::SortRole).toLongLong(), payload.size());
    QCOMPARE(model.index(1, RetainedTableModel::TopicColumn).data().toString(), u"(undecodable)"_s);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setPayloadMode(mode);
    QCOMPARE(changed.count(), mode == RetainedTableModel::PayloadMode::Text ? 0 : 1);
    const QString preview = model.index(0, RetainedTableModel::PayloadColumn).data().toString();
    QVERIFY2(preview.startsWith(shown), qPrintable(preview));
    QCOMPARE(model.rowOf(u"home/kitchen/temp"_s), 0);
}

// A Sparkplug B birth certificate (2.11+ servers retain NBIRTH/DBIRTH under $sparkplug/certificates/) says what it is
// before its protobuf bytes.
void TestBrowseModels::retainedSparkplugBirths()
{
    RetainedTableModel model;
    Tester tester(&model, Mode);
    model.appendBatch({retained(u"$sparkplug/certificates/spBv1.0/plant1/DBIRTH/gw7/press3"_s, QByteArray("\x08\x01", 2), 1),
                       retained(u"spBv1.0/plant1/NDATA/gw7"_s, QByteArray("\x08\x02", 2), 2)});
    const QString birth = model.index(0, RetainedTableModel::PayloadColumn).data().toString();
    QVERIFY2(birth.startsWith(u"(Sparkplug B DBIRTH certificate: group plant1, edge node gw7, device press3) "_s), qPrintable(birth));
    QVERIFY2(!model.index(1, RetainedTableModel::PayloadColumn).data().toString().contains(u"Sparkplug"_s),
             qPrintable(model.index(1, RetainedTableModel::PayloadColumn).data().toString()));
}

void TestBrowseModels::consumers()
{
    ConsumerTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ConsumerTableModel::SortRole);
    Tester tester(&model, Mode);
    Tester proxyTester(&proxy, Mode);
    ConsumerRow owned{u"kBmSuDPK_a"_s, u"$MQTT_msgs"_s, 12, 2, u"kBmSuDPK"_s, ConsumerOwner::Kind::Session, u"sensor-sub-1"_s, {}, {}};
    ConsumerRow orphan{u"zzzzzzzz_b"_s,
                       u"$MQTT_msgs"_s,
                       3,
                       0,
                       u"zzzzzzzz"_s,
                       ConsumerOwner::Kind::Orphan,
                       {},
                       u"No session record on hash zzzzzzzz"_s,
                       {}};
    model.setConsumers({owned, orphan});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.orphanCount(), 1);
    QCOMPARE(model.index(0, ConsumerTableModel::OwnerColumn).data().toString(), u"sensor-sub-1"_s);
    QCOMPARE(model.index(1, ConsumerTableModel::OwnerColumn).data().toString(), u"orphan"_s);
    QVERIFY(model.index(1, ConsumerTableModel::OwnerColumn).data(Qt::ToolTipRole).toString().contains(u"zzzzzzzz"_s));
    QCOMPARE(model.index(0, ConsumerTableModel::PendingColumn).data().toString(), u"12"_s);
    proxy.sort(ConsumerTableModel::PendingColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"zzzzzzzz_b"_s);
    QCOMPARE(model.rowOf(u"zzzzzzzz_b"_s), 1);
    model.clear();
    QCOMPARE(proxy.rowCount(), 0);
}

// The In flight tab's model: sessions with what they have in flight, then the gone sessions' QoS 2
// records; replaced and cleared under the tester.
void TestBrowseModels::inflight()
{
    InflightTableModel model;
    Tester tester(&model, Mode);
    const QDateTime now(QDate(2026, 12, 5), QTime(8, 0), Qt::UTC);
    AccountInflight in;
    in.account = u"ACME"_s;
    in.now = now;
    AccountInflight::Session device;
    device.clientId = u"device-1"_s;
    device.hash = ClientIdHash::hash(device.clientId);
    device.queuedTotal = 3;
    AccountInflight::Session gateway;
    gateway.clientId = u"gateway-7"_s;
    gateway.hash = ClientIdHash::hash(gateway.clientId);
    gateway.oldestQos2Incoming = now.addSecs(-120);
    gateway.qos2PacketIds = {311};
    gateway.oldestPubrel = now.addSecs(-30);
    gateway.pubrelPacketIds = {12, 13};
    in.sessions = {gateway, device};
    Qos2Records::Orphans gone;
    gone.stream = u"$MQTT_qos2in"_s;
    gone.clientId = u"old-tablet"_s;
    gone.hash = ClientIdHash::hash(gone.clientId);
    gone.sequences = {4};
    gone.packetIds = {12};
    gone.oldest = now.addSecs(-3600);
    in.orphans = {gone};
    model.setInflight(in);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(InflightTableModel::ColumnCount));
    QCOMPARE(model.index(0, InflightTableModel::ClientIdColumn).data().toString(), u"gateway-7"_s);
    QVERIFY(!model.isOrphanRow(1));
    QVERIFY(model.isOrphanRow(2));
    QVERIFY2(model.index(2, InflightTableModel::ClientIdColumn).data().toString().contains(u"old-tablet"_s),
             qPrintable(model.index(2, InflightTableModel::ClientIdColumn).data().toString()));
    QVERIFY(model.index(2, InflightTableModel::NoteColumn).data().toString().startsWith(u"QOS2_ORPHANED"_s));
    for (int column = 0; column < model.columnCount(); ++column)
        QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
    in.orphans.clear();
    model.setInflight(in);
    QCOMPARE(model.rowCount(), 2);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

QTEST_MAIN(TestBrowseModels)
#include "tst_browsemodels.moc"
