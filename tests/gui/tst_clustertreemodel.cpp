// ClusterTreeModel fed with Discovery results built from captured nats-server replies: structure,
// display texts, typed roles, and merging updates without a model reset.
#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include "capturedcluster.h"
#include "models/clustertreemodel.h"

using namespace MqttDoctor;
using MqttDoctor::Test::CapturedCluster;
using NodeKind = ClusterTreeModel::NodeKind;
using JetStreamState = ClusterTreeModel::JetStreamState;

namespace {

QString text(const QModelIndex &index, int column = ClusterTreeModel::NameColumn)
{
    return index.siblingAtColumn(column).data(Qt::DisplayRole).toString();
}

QStringList childNames(const QAbstractItemModel &model, const QModelIndex &parent)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row)
        out << model.index(row, 0, parent).data(ClusterTreeModel::NameRole).toString();
    return out;
}

} // namespace

class TestClusterTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void emptyModel();
    void profileAndGroups();
    void servers();
    void serversGroupedByCluster();
    void accounts_data();
    void accounts();
    void mqttStreams();
    void payloadRoles();
    void refreshWithSameDataKeepsRows();
    void mergeInsertsRemovesAndKeepsNameOrder();
    void duplicateNamesKeepTheFirst();
    void streamsMergeUnderAccount();
    void healthBadges();
    void clear();

private:
    std::unique_ptr<ClusterTreeModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestClusterTreeModel::initTestCase()
{
    QLocale::setDefault(QLocale::c());
}

void TestClusterTreeModel::init()
{
    m_model = std::make_unique<ClusterTreeModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestClusterTreeModel::cleanup()
{
    m_tester.reset();
    m_model.reset();
}

void TestClusterTreeModel::emptyModel()
{
    QCOMPARE(m_model->rowCount(), 0);
    QCOMPARE(m_model->columnCount(), int(ClusterTreeModel::ColumnCount));
    QVERIFY(!m_model->profileIndex().isValid());
    QVERIFY(!m_model->accountIndex(QStringLiteral("ACME")).isValid());
    // Updates before a profile exists are ignored, not crashes.
    m_model->setAccounts(CapturedCluster::accounts());
    QCOMPARE(m_model->rowCount(), 0);
}

void TestClusterTreeModel::profileAndGroups()
{
    m_model->setProfile(QStringLiteral("demo"), QStringLiteral("nats://127.0.0.1:4222"));
    QCOMPARE(m_model->rowCount(), 1);
    const QModelIndex profile = m_model->profileIndex();
    QCOMPARE(text(profile), QStringLiteral("demo"));
    QCOMPARE(text(profile, ClusterTreeModel::SummaryColumn), QStringLiteral("nats://127.0.0.1:4222"));
    QCOMPARE(profile.data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Profile);
    QVERIFY(profile.data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(m_model->rowCount(profile), 2);
    QCOMPARE(m_model->serverGroupIndex(), m_model->index(0, 0, profile));
    QCOMPARE(m_model->accountGroupIndex(), m_model->index(1, 0, profile));
    QCOMPARE(text(m_model->serverGroupIndex()), QStringLiteral("Servers"));
    QCOMPARE(text(m_model->accountGroupIndex()), QStringLiteral("Accounts"));
    QCOMPARE(text(m_model->accountGroupIndex(), ClusterTreeModel::SummaryColumn), QStringLiteral("not loaded"));
    QCOMPARE(m_model->headerData(ClusterTreeModel::NameColumn, Qt::Horizontal).toString(), QStringLiteral("Name"));

    // A new name for the same profile changes the row, it does not add one.
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setProfile(QStringLiteral("renamed"), QStringLiteral("nats://a:4222"));
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(text(m_model->profileIndex()), QStringLiteral("renamed"));
    QCOMPARE(changed.count(), 1);
}

void TestClusterTreeModel::servers()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setServers(CapturedCluster::servers());
    const QModelIndex group = m_model->serverGroupIndex();
    QCOMPARE(childNames(*m_model, group), (QStringList{QStringLiteral("gui1"), QStringLiteral("gui2")}));
    QCOMPARE(text(group, ClusterTreeModel::SummaryColumn), QStringLiteral("2 servers"));
    const QModelIndex gui1 = m_model->index(0, 0, group);
    QCOMPARE(gui1.data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Server);
    QCOMPARE(text(gui1, ClusterTreeModel::SummaryColumn), QStringLiteral("2.9.10 · JetStream · MQTT :1883"));
    QCOMPARE(text(m_model->index(1, 0, group), ClusterTreeModel::SummaryColumn), QStringLiteral("2.10.4 · JetStream · MQTT :1884"));
    QVERIFY(gui1.data(Qt::ToolTipRole).toString().contains(QStringLiteral("127.0.0.1:1883")));
    QVERIFY(!gui1.data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(m_model->rowCount(gui1), 0);
}

// A supercluster: one row per cluster with its servers, a row for a cluster a gateway leads to but
// none of whose servers answers; back to flat rows when only one cluster is left.
void TestClusterTreeModel::serversGroupedByCluster()
{
    const auto server = [](const QString &name, const QString &cluster, const QStringList &gateways) {
        ServerInfo s;
        s.name = name;
        s.id = QStringLiteral("N") + name.toUpper();
        s.version = QStringLiteral("2.15.1");
        s.cluster = cluster;
        s.gateway = cluster;
        s.gatewayRemotes = gateways;
        s.jetstream = true;
        return s;
    };
    m_model->setProfile(QStringLiteral("super"), {});
    const QStringList fromEast{QStringLiteral("south"), QStringLiteral("west")};
    m_model->setServers({server(QStringLiteral("w1"), QStringLiteral("west"), {QStringLiteral("east")}),
                         server(QStringLiteral("e2"), QStringLiteral("east"), fromEast),
                         server(QStringLiteral("e1"), QStringLiteral("east"), fromEast)});
    const QModelIndex group = m_model->serverGroupIndex();
    QCOMPARE(childNames(*m_model, group), (QStringList{QStringLiteral("east"), QStringLiteral("south"), QStringLiteral("west")}));
    QCOMPARE(text(group, ClusterTreeModel::SummaryColumn), QStringLiteral("3 servers"));
    const QModelIndex east = m_model->index(0, 0, group);
    QCOMPARE(east.data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Cluster);
    QCOMPARE(text(east), QStringLiteral("Cluster east"));
    QCOMPARE(text(east, ClusterTreeModel::SummaryColumn), QStringLiteral("2 servers · gateways to south, west"));
    QCOMPARE(childNames(*m_model, east), (QStringList{QStringLiteral("e1"), QStringLiteral("e2")}));
    QCOMPARE(m_model->index(0, 0, east).data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Server);
    QCOMPARE(m_model->serverAt(m_model->index(1, 0, east))->name, QStringLiteral("e2"));
    const QModelIndex south = m_model->index(1, 0, group);
    QCOMPARE(text(south, ClusterTreeModel::SummaryColumn), QStringLiteral("unreachable"));
    QCOMPARE(m_model->rowCount(south), 0);
    QVERIFY2(
        south.data(Qt::ToolTipRole).toString().contains(QStringLiteral("no server of cluster south answers, though e1, e2 have a gateway")),
        qPrintable(south.data(Qt::ToolTipRole).toString()));
    QCOMPARE(south.data(ClusterTreeModel::ClusterRole).value<ClusterGroup>().gatewayFrom,
             (QStringList{QStringLiteral("e1"), QStringLiteral("e2")}));
    QVERIFY(m_model->clusterAt(south) && !m_model->clusterAt(south)->problem.isEmpty());
    QCOMPARE(childNames(*m_model, m_model->index(2, 0, group)), QStringList{QStringLiteral("w1")});
    QCOMPARE(m_model->servers().size(), 3);
    QCOMPARE(m_model->clusters().size(), 3);

    // West answers no more and south is gone from the gateways: west becomes unreachable, its server row goes.
    m_model->setServers({server(QStringLiteral("e1"), QStringLiteral("east"), {QStringLiteral("west")}),
                         server(QStringLiteral("e2"), QStringLiteral("east"), {QStringLiteral("west")})});
    QCOMPARE(childNames(*m_model, group), (QStringList{QStringLiteral("east"), QStringLiteral("west")}));
    QCOMPARE(text(m_model->index(1, 0, group), ClusterTreeModel::SummaryColumn), QStringLiteral("unreachable"));
    QCOMPARE(m_model->rowCount(m_model->index(1, 0, group)), 0);

    // Where an account's MQTT state lives: the domain token of $MQTT_sess's subjects and the streams' cluster.
    AccountInfo edge;
    edge.name = QStringLiteral("EDGE");
    edge.jetstream = true;
    edge.streamsKnown = true;
    StreamInfo sess;
    sess.name = QStringLiteral("$MQTT_sess");
    sess.config = QJsonObject{{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.edge.>")}}};
    sess.cluster = QJsonObject{{QStringLiteral("name"), QStringLiteral("west")}, {QStringLiteral("leader"), QStringLiteral("w1")}};
    edge.streams = {sess};
    m_model->setAccounts(QList<AccountInfo>{edge});
    QVERIFY2(m_model->accountIndex(QStringLiteral("EDGE"))
                 .data(Qt::ToolTipRole)
                 .toString()
                 .contains(QStringLiteral("MQTT state in: JetStream domain edge · cluster west")),
             qPrintable(m_model->accountIndex(QStringLiteral("EDGE")).data(Qt::ToolTipRole).toString()));

    // One cluster left: flat server rows again.
    m_model->setServers(
        {server(QStringLiteral("e1"), QStringLiteral("east"), {}), server(QStringLiteral("e2"), QStringLiteral("east"), {})});
    QCOMPARE(childNames(*m_model, group), (QStringList{QStringLiteral("e1"), QStringLiteral("e2")}));
    QCOMPARE(m_model->index(0, 0, group).data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Server);
    QVERIFY(m_model->clusters().isEmpty());
    QCOMPARE(text(group, ClusterTreeModel::SummaryColumn), QStringLiteral("2 servers"));
}

void TestClusterTreeModel::accounts_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<JetStreamState>("jetstream");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<int>("children");

    QTest::newRow("ACME") << QStringLiteral("ACME") << JetStreamState::Enabled << QStringLiteral("JetStream · 4 MQTT streams")
                          << 7; // + Sessions, Retained, Consumers
    QTest::newRow("BETA") << QStringLiteral("BETA") << JetStreamState::Enabled << QStringLiteral("JetStream · no MQTT streams") << 0;
    QTest::newRow("NOJS") << QStringLiteral("NOJS") << JetStreamState::Disabled << QStringLiteral("JetStream disabled") << 0;
    QTest::newRow("SYS") << QStringLiteral("SYS") << JetStreamState::Disabled << QStringLiteral("system account") << 0;
}

void TestClusterTreeModel::accounts()
{
    QFETCH(QString, account);
    QFETCH(JetStreamState, jetstream);
    QFETCH(QString, summary);
    QFETCH(int, children);

    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setAccounts(CapturedCluster::accounts());
    QCOMPARE(childNames(*m_model, m_model->accountGroupIndex()),
             (QStringList{QStringLiteral("ACME"), QStringLiteral("BETA"), QStringLiteral("NOJS"), QStringLiteral("SYS")}));
    QCOMPARE(text(m_model->accountGroupIndex(), ClusterTreeModel::SummaryColumn), QStringLiteral("4 accounts"));

    const QModelIndex index = m_model->accountIndex(account);
    QVERIFY(index.isValid());
    QCOMPARE(text(index), account);
    QCOMPARE(index.data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Account);
    QCOMPARE(index.data(ClusterTreeModel::AccountNameRole).toString(), account);
    QCOMPARE(index.data(ClusterTreeModel::JetStreamRole).value<JetStreamState>(), jetstream);
    QCOMPARE(text(index, ClusterTreeModel::SummaryColumn), summary);
    QCOMPARE(m_model->rowCount(index), children);
    if (jetstream == JetStreamState::Disabled)
        QVERIFY(index.data(Qt::ToolTipRole).toString().contains(QStringLiteral("cannot connect")));
}

void TestClusterTreeModel::mqttStreams()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setAccounts(CapturedCluster::accounts());
    const QModelIndex acme = m_model->accountIndex(QStringLiteral("ACME"));
    QCOMPARE(childNames(*m_model, acme),
             (QStringList{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess"),
                          QStringLiteral("$MQTT_sess_X8bU3C1q"), QStringLiteral(" sessions"), QStringLiteral(" retained"),
                          QStringLiteral(" consumers")}));
    // The record views follow the streams, named for people, keyed apart from any stream.
    const QModelIndex sessions = m_model->dataIndex(QStringLiteral("ACME"), NodeKind::Sessions);
    QCOMPARE(sessions.row(), 4);
    QCOMPARE(text(sessions), QStringLiteral("Sessions"));
    QCOMPARE(sessions.data(ClusterTreeModel::AccountNameRole).toString(), QStringLiteral("ACME"));
    QCOMPARE(text(m_model->dataIndex(QStringLiteral("ACME"), NodeKind::Consumers)), QStringLiteral("Consumers"));
    QVERIFY(!m_model->dataIndex(QStringLiteral("BETA"), NodeKind::Sessions).isValid());
    QVERIFY(!m_model->streamAt(sessions));

    const QModelIndex sess = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"));
    QCOMPARE(sess.parent(), acme);
    QCOMPARE(sess.data(ClusterTreeModel::NodeKindRole).value<NodeKind>(), NodeKind::Stream);
    QCOMPARE(sess.data(ClusterTreeModel::AccountNameRole).toString(), QStringLiteral("ACME"));
    QCOMPARE(sess.data(ClusterTreeModel::MessagesRole).toLongLong(), 1);
    QCOMPARE(sess.data(ClusterTreeModel::LegacyRole).toBool(), false);
    QCOMPARE(text(sess, ClusterTreeModel::SummaryColumn), QStringLiteral("1 message"));
    QCOMPARE(text(m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_msgs")), ClusterTreeModel::SummaryColumn),
             QStringLiteral("0 messages"));

    const QModelIndex legacy = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess_X8bU3C1q"));
    QCOMPARE(legacy.data(ClusterTreeModel::LegacyRole).toBool(), true);
    QCOMPARE(text(legacy, ClusterTreeModel::SummaryColumn), QStringLiteral("legacy · 1 message"));
    QVERIFY(legacy.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Legacy per-session stream")));
}

void TestClusterTreeModel::payloadRoles()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setServers(CapturedCluster::servers());
    m_model->setAccounts(CapturedCluster::accounts());
    const QModelIndex gui2 = m_model->index(1, 0, m_model->serverGroupIndex());
    QCOMPARE(gui2.data(ClusterTreeModel::ServerRole).value<ServerInfo>().version, QStringLiteral("2.10.4"));
    QCOMPARE(m_model->serverAt(gui2)->mqttPort, 1884);
    const QModelIndex beta = m_model->accountIndex(QStringLiteral("BETA"));
    QCOMPARE(beta.data(ClusterTreeModel::AccountRole).value<AccountInfo>().name, QStringLiteral("BETA"));
    QVERIFY(!beta.data(ClusterTreeModel::ServerRole).isValid());
    QVERIFY(m_model->accountAt(beta));
    QVERIFY(!m_model->serverAt(beta));
    const QModelIndex sess = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"));
    QCOMPARE(m_model->streamAt(sess)->config.value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
    QCOMPARE(m_model->accounts().size(), 4);
    QCOMPARE(m_model->servers().size(), 2);
}

void TestClusterTreeModel::refreshWithSameDataKeepsRows()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setServers(CapturedCluster::servers());
    m_model->setAccounts(CapturedCluster::accounts());
    const QPersistentModelIndex sess = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"));

    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setServers(CapturedCluster::servers());
    m_model->setAccounts(CapturedCluster::accounts());
    QCOMPARE(reset.count(), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QVERIFY(changed.count() > 0);
    QVERIFY(sess.isValid());
    QCOMPARE(sess.data(ClusterTreeModel::NameRole).toString(), QStringLiteral("$MQTT_sess"));
}

void TestClusterTreeModel::mergeInsertsRemovesAndKeepsNameOrder()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setAccounts(CapturedCluster::accounts());
    const QPersistentModelIndex acme = m_model->accountIndex(QStringLiteral("ACME"));
    const QPersistentModelIndex nojs = m_model->accountIndex(QStringLiteral("NOJS"));

    // BETA is gone, GAMMA is new, and the order is reversed.
    QList<AccountInfo> next = CapturedCluster::accounts();
    next.removeIf([](const AccountInfo &a) { return a.name == QLatin1String("BETA"); });
    AccountInfo gamma;
    gamma.name = QStringLiteral("GAMMA");
    gamma.jetstream = true;
    gamma.streamsKnown = true;
    next.append(gamma);
    std::reverse(next.begin(), next.end());

    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy moved(m_model.get(), &QAbstractItemModel::rowsMoved);
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    m_model->setAccounts(next);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    // The model keeps its accounts in name order whatever order discovery gives: nothing moves.
    QCOMPARE(moved.count(), 0);
    QCOMPARE(childNames(*m_model, m_model->accountGroupIndex()),
             (QStringList{QStringLiteral("ACME"), QStringLiteral("GAMMA"), QStringLiteral("NOJS"), QStringLiteral("SYS")}));
    // Persistent indexes (a view's selection) follow their rows.
    QCOMPARE(acme.data(ClusterTreeModel::NameRole).toString(), QStringLiteral("ACME"));
    QCOMPARE(acme.row(), 0);
    QCOMPARE(nojs.data(ClusterTreeModel::NameRole).toString(), QStringLiteral("NOJS"));
    QCOMPARE(nojs.row(), 2);
    QCOMPARE(m_model->rowCount(acme), 7);
    QCOMPARE(m_model->accountIndex(QStringLiteral("GAMMA")).row(), 1);
    QVERIFY(!m_model->accountIndex(QStringLiteral("BETA")).isValid());
}

void TestClusterTreeModel::duplicateNamesKeepTheFirst()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    QList<AccountInfo> accounts = CapturedCluster::accounts();
    AccountInfo second = CapturedCluster::account(QStringLiteral("NOJS"));
    second.name = QStringLiteral("ACME"); // the same name again, without JetStream
    accounts.append(second);
    m_model->setAccounts(accounts);
    QCOMPARE(m_model->accountCount(), 4);
    QVERIFY(m_model->accountAt(m_model->accountIndex(QStringLiteral("ACME")))->jetstream);
}

void TestClusterTreeModel::streamsMergeUnderAccount()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    QList<AccountInfo> accounts = CapturedCluster::accounts();
    m_model->setAccounts(accounts);
    const QModelIndex acme = m_model->accountIndex(QStringLiteral("ACME"));

    // The legacy stream was removed, $MQTT_sess got a second message.
    AccountInfo &a = accounts.first();
    QCOMPARE(a.name, QStringLiteral("ACME"));
    a.streams.removeIf([](const StreamInfo &s) { return s.isLegacySession(); });
    for (StreamInfo &s : a.streams)
        if (s.name == QLatin1String("$MQTT_sess"))
            s.state.insert(QStringLiteral("messages"), 2);

    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    m_model->setAccounts(accounts);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.first().at(0).value<QModelIndex>(), acme);
    QCOMPARE(m_model->rowCount(acme), 6);
    QCOMPARE(text(acme, ClusterTreeModel::SummaryColumn), QStringLiteral("JetStream · 3 MQTT streams"));
    QCOMPARE(m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess")).data(ClusterTreeModel::MessagesRole).toLongLong(),
             2);
}

void TestClusterTreeModel::healthBadges()
{
    using Health = HealthBadge::Health;
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setAccounts(CapturedCluster::accounts());
    const QModelIndex sess = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"));
    const QModelIndex msgs = m_model->streamIndex(QStringLiteral("ACME"), QStringLiteral("$MQTT_msgs"));
    const QModelIndex acme = m_model->accountIndex(QStringLiteral("ACME"));
    QCOMPARE(sess.data(ClusterTreeModel::HealthRole).value<Health>(), Health::Unknown);
    QVERIFY(sess.siblingAtColumn(ClusterTreeModel::SummaryColumn).data(Qt::DecorationRole).isNull());

    Finding onSess;
    onSess.code = QStringLiteral("SESSION_MISSING_CONSUMER");
    onSess.severity = Finding::Severity::Error;
    onSess.account = QStringLiteral("ACME");
    onSess.stream = QStringLiteral("$MQTT_sess");
    Finding warning = onSess;
    warning.severity = Finding::Severity::Warning;
    Finding elsewhere = onSess;
    elsewhere.account = QStringLiteral("BETA");
    elsewhere.stream = QStringLiteral("$MQTT_msgs");
    elsewhere.severity = Finding::Severity::Critical;
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setFindings(QStringLiteral("ACME"), {warning, onSess, elsewhere});
    QVERIFY(changed.count() > 0);
    QCOMPARE(sess.data(ClusterTreeModel::HealthRole).value<Health>(), Health::Error);
    QCOMPARE(msgs.data(ClusterTreeModel::HealthRole).value<Health>(), Health::Ok); // BETA's finding is not ACME's
    QCOMPARE(acme.data(ClusterTreeModel::HealthRole).value<Health>(), Health::Error);
    QVERIFY(!sess.siblingAtColumn(ClusterTreeModel::SummaryColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(sess.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Health: error")));

    m_model->setFindings(QStringLiteral("ACME"), {});
    QCOMPARE(sess.data(ClusterTreeModel::HealthRole).value<Health>(), Health::Ok);
}

void TestClusterTreeModel::clear()
{
    m_model->setProfile(QStringLiteral("demo"), {});
    m_model->setAccounts(CapturedCluster::accounts());
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    m_model->clear();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(m_model->rowCount(), 0);
    QVERIFY(!m_model->accountGroupIndex().isValid());
}

QTEST_MAIN(TestClusterTreeModel)
#include "tst_clustertreemodel.moc"
