// ClusterTreeModel with a fleet of 10,000 accounts shaped like discovery's (copies of the captured
// ACME, some with a missing $MQTT_sess or without JetStream), behind ClusterTreeProxyModel and a
// QTreeView as in the main window: the first list is one insertion; a refresh that adds, removes and
// reorders accounts merges in a few row signals (or one layout change when many places change) and
// the view's selection and expansion survive; badges come from a HealthMap, and an account's full
// findings win over it. AccountMergePlan and HealthMap on their own. QAbstractItemModelTester
// watches the model and the proxy throughout.
#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <random>

#include "capturedcluster.h"
#include "models/accountmergeplan.h"
#include "models/accountrows.h"
#include "models/clustertreemodel.h"
#include "models/clustertreeproxymodel.h"
#include "models/healthmap.h"

using namespace MqttDoctor;
using MqttDoctor::Test::CapturedCluster;
using Health = HealthBadge::Health;
using Run = AccountMergePlan::Run;
using Kept = AccountMergePlan::Kept;

Q_DECLARE_METATYPE(QList<AccountMergePlan::Run>)
Q_DECLARE_METATYPE(QList<AccountMergePlan::Kept>)

namespace {

constexpr int kFleet = 10000;

QString name(int i)
{
    return CapturedCluster::fleetName(i);
}

Finding finding(const QString &account, const QString &stream, Finding::Severity severity)
{
    Finding f;
    f.code = QStringLiteral("STREAM_CONFIG_WRONG");
    f.account = account;
    f.stream = stream;
    f.severity = severity;
    return f;
}

} // namespace

class TestClusterTreeFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void mergePlan_data();
    void mergePlan();
    void accountRowsPrepare();
    void healthMapFromFindings();
    void healthMapOfTheFleet();
    void firstLoadIsOneInsertion();
    void refreshMergesInRowRuns();
    void refreshWithManyChangesIsOneLayoutChange();
    void badgesFromAMap();
    void fewBadgeChangesAreDataChanges();
    void fullFindingsWin();

private:
    /** The model with a profile, the captured servers and `accounts`; the view shows everything expanded down to the accounts. */
    void load(const QList<AccountInfo> &accounts);
    QModelIndex toView(const QModelIndex &source) const { return m_proxy->mapFromSource(source); }

    QList<AccountInfo> m_fleet;
    std::unique_ptr<ClusterTreeModel> m_model;
    std::unique_ptr<ClusterTreeProxyModel> m_proxy;
    std::unique_ptr<QTreeView> m_view;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;
};

void TestClusterTreeFleet::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    m_fleet = CapturedCluster::fleet(kFleet);
}

void TestClusterTreeFleet::init()
{
    m_model = std::make_unique<ClusterTreeModel>();
    m_proxy = std::make_unique<ClusterTreeProxyModel>();
    m_proxy->setTreeModel(m_model.get());
    m_modelTester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_proxyTester = std::make_unique<QAbstractItemModelTester>(m_proxy.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_view = std::make_unique<QTreeView>();
    m_view->setUniformRowHeights(true);
    m_view->setModel(m_proxy.get());
    m_view->resize(500, 700);
    m_view->show();
}

void TestClusterTreeFleet::cleanup()
{
    m_view.reset();
    m_proxyTester.reset();
    m_modelTester.reset();
    m_proxy.reset();
    m_model.reset();
}

void TestClusterTreeFleet::load(const QList<AccountInfo> &accounts)
{
    m_model->setProfile(QStringLiteral("fleet"), QStringLiteral("nats://127.0.0.1:4222"));
    m_view->expand(toView(m_model->profileIndex()));
    m_view->expand(toView(m_model->accountGroupIndex()));
    m_model->setServers(CapturedCluster::servers());
    m_model->setAccounts(accounts);
}

void TestClusterTreeFleet::mergePlan_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("after");
    QTest::addColumn<QList<Run>>("removals");
    QTest::addColumn<QList<Run>>("insertions");
    QTest::addColumn<QList<Kept>>("kept");

    const QStringList abc{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    QTest::newRow("first list") << QStringList() << abc << QList<Run>() << QList<Run>{{0, 2}} << QList<Kept>();
    QTest::newRow("all gone") << abc << QStringList() << QList<Run>{{0, 2}} << QList<Run>() << QList<Kept>();
    QTest::newRow("same") << abc << abc << QList<Run>() << QList<Run>() << QList<Kept>{{0, 0}, {1, 1}, {2, 2}};
    QTest::newRow("runs") << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"),
                                         QStringLiteral("f")}
                          << QStringList{QStringLiteral("a"), QStringLiteral("c1"), QStringLiteral("c2"),
                                         QStringLiteral("e"), QStringLiteral("f"),  QStringLiteral("g")}
                          << QList<Run>{{1, 3}} << QList<Run>{{1, 3}, {5, 5}} << QList<Kept>{{0, 0}, {4, 4}};
    // Names differing only in case are two accounts, next to each other.
    QTest::newRow("case") << QStringList{QStringLiteral("acme"), QStringLiteral("beta")}
                          << QStringList{QStringLiteral("ACME"), QStringLiteral("acme"), QStringLiteral("Beta")} << QList<Run>{{1, 1}}
                          << QList<Run>{{0, 0}, {2, 2}} << QList<Kept>{{0, 1}};
}

void TestClusterTreeFleet::mergePlan()
{
    QFETCH(QStringList, before);
    QFETCH(QStringList, after);
    QFETCH(QList<Run>, removals);
    QFETCH(QList<Run>, insertions);
    QFETCH(QList<Kept>, kept);
    const AccountMergePlan plan = AccountMergePlan::make(before, after);
    QCOMPARE(plan.removals, removals);
    QCOMPARE(plan.insertions, insertions);
    QCOMPARE(plan.kept, kept);
    QCOMPARE(plan.runCount(), removals.size() + insertions.size());
}

void TestClusterTreeFleet::accountRowsPrepare()
{
    // Discovery's order reversed, and one name twice: sorted by name, the first of the two kept.
    QList<AccountInfo> accounts = m_fleet.mid(0, 20);
    std::reverse(accounts.begin(), accounts.end());
    AccountInfo twice = m_fleet.at(13);
    twice.name = name(3);
    accounts.append(twice);
    const AccountRows rows = AccountRows::prepare(accounts);
    QCOMPARE(rows.size(), 20);
    for (int i = 0; i < 20; ++i)
        QCOMPARE(rows.accounts().at(i).name, name(i));
    QVERIFY(rows.accounts().at(3).jetstream);

    // The digest follows what the rows under an account show, and only that.
    const AccountInfo base = m_fleet.at(1);
    const size_t digest = AccountRows::childrenDigest(base);
    QCOMPARE(rows.digest(1), digest);
    AccountInfo unseen = base;
    unseen.memory += 1024;
    unseen.streams[0].state.insert(QStringLiteral("consumer_count"), 99);
    QCOMPARE(AccountRows::childrenDigest(unseen), digest);
    for (qsizetype s = 0; s < base.streams.size(); ++s) {
        if (!base.streams[s].isMqtt())
            continue;
        AccountInfo messages = base;
        messages.streams[s].state.insert(QStringLiteral("messages"), 12345);
        QVERIFY(AccountRows::childrenDigest(messages) != digest);
        AccountInfo subjects = base;
        subjects.streams[s].config.insert(QStringLiteral("subjects"), QJsonArray{QStringLiteral("other.>")});
        QVERIFY(AccountRows::childrenDigest(subjects) != digest);
        AccountInfo gone = base;
        gone.streams.removeAt(s);
        QVERIFY(AccountRows::childrenDigest(gone) != digest);
    }
    QCOMPARE(AccountRows::childrenDigest(m_fleet.at(13)), AccountRows::childrenDigest(AccountInfo{}));
}

void TestClusterTreeFleet::healthMapFromFindings()
{
    QList<AccountInfo> accounts = CapturedCluster::accounts();
    Finding cluster = finding({}, {}, Finding::Severity::Critical); // cluster-level: badges no account
    cluster.code = QStringLiteral("MIXED_SERVER_VERSIONS");
    const HealthMap map =
        HealthMap::fromFindings({finding(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"), Finding::Severity::Warning),
                                 finding(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"), Finding::Severity::Error),
                                 finding(QStringLiteral("ACME"), {}, Finding::Severity::Info),
                                 finding(QStringLiteral("ELSEWHERE"), {}, Finding::Severity::Critical), cluster},
                                accounts);
    QCOMPARE(map.size(), accounts.size());
    QCOMPARE(map.account(QStringLiteral("ACME")), Health::Error);
    QCOMPARE(map.stream(QStringLiteral("ACME"), QStringLiteral("$MQTT_sess")), Health::Error);
    QCOMPARE(map.stream(QStringLiteral("ACME"), QStringLiteral("$MQTT_msgs")), Health::Ok);
    QCOMPARE(map.account(QStringLiteral("BETA")), Health::Ok);
    QCOMPARE(map.stream(QStringLiteral("BETA"), QStringLiteral("$MQTT_msgs")), Health::Ok);
    // Accounts that were not asked about stay unknown, even with findings.
    QVERIFY(!map.contains(QStringLiteral("ELSEWHERE")));
    QCOMPARE(map.account(QStringLiteral("ELSEWHERE")), Health::Unknown);
    QCOMPARE(map.stream(QStringLiteral("ELSEWHERE"), QStringLiteral("$MQTT_sess")), Health::Unknown);
    QCOMPARE(map.account(QString()), Health::Unknown);
}

void TestClusterTreeFleet::healthMapOfTheFleet()
{
    // The real stream-level checks over 100 fleet accounts (the controller runs this on its pool).
    const QList<AccountInfo> accounts = m_fleet.mid(0, 100);
    const HealthMap map = HealthMap::diagnose(CapturedCluster::servers(), accounts);
    QCOMPARE(map.size(), 100);
    QCOMPARE(map.account(name(7)), Health::Critical); // $MQTT_sess is missing
    QCOMPARE(map.account(name(13)), Health::Info); // JetStream disabled
    QVERIFY(int(map.account(name(1))) < int(Health::Critical));
    QVERIFY(map.account(name(1)) != Health::Unknown);
}

void TestClusterTreeFleet::firstLoadIsOneInsertion()
{
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy viewInserted(m_proxy.get(), &QAbstractItemModel::rowsInserted);
    load(m_fleet);
    const QModelIndex group = m_model->accountGroupIndex();
    int accountInsertions = 0;
    for (const QList<QVariant> &signal : inserted) {
        if (signal.at(0).value<QModelIndex>() != group)
            continue;
        ++accountInsertions;
        QCOMPARE(signal.at(1).toInt(), 0);
        QCOMPARE(signal.at(2).toInt(), kFleet - 1);
    }
    QCOMPARE(accountInsertions, 1);
    QCOMPARE(layout.count(), 0);
    QCOMPARE(m_model->accountCount(), kFleet);
    QCOMPARE(m_proxy->rowCount(toView(group)), kFleet);
    // The proxy passed it on as one insertion too.
    int proxyAccountInsertions = 0;
    for (const QList<QVariant> &signal : viewInserted)
        proxyAccountInsertions += signal.at(0).value<QModelIndex>() == toView(group) ? 1 : 0;
    QCOMPARE(proxyAccountInsertions, 1);

    // Every account is found by name, at its row in name order, with its payload.
    for (int i : {0, 1, 4999, 9998, kFleet - 1}) {
        const QModelIndex index = m_model->accountIndex(name(i));
        QCOMPARE(index.row(), i);
        QCOMPARE(m_model->accountAt(index)->name, name(i));
    }
    QCOMPARE(m_model->rowCount(m_model->accountIndex(name(1))), 7);
    QVERIFY(!m_model->accountIndex(QStringLiteral("fleet-99999")).isValid());
    // Badges are unknown until a map comes.
    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(7))), Health::Unknown);
}

void TestClusterTreeFleet::refreshMergesInRowRuns()
{
    load(m_fleet);
    const QPersistentModelIndex selected = m_model->accountIndex(name(5001));
    const QPersistentModelIndex expanded = m_model->accountIndex(name(8000));
    m_view->setCurrentIndex(toView(selected));
    m_view->expand(toView(selected));
    m_view->expand(toView(expanded));
    m_view->scrollTo(toView(selected));

    // The refresh: 2 accounts gone at 100-101, 3 at 7000-7002, 4 new ones in two places, one more
    // message in an account's $MQTT_msgs, and discovery answered in another order.
    QList<AccountInfo> next = m_fleet;
    next.remove(7000, 3);
    next.remove(100, 2);
    for (const QString &added :
         {QStringLiteral("fleet-00050a"), QStringLiteral("fleet-00050b"), QStringLiteral("fleet-09999a"), QStringLiteral("fleet-09999b")}) {
        AccountInfo a = m_fleet.at(1);
        a.name = added;
        next.append(a);
    }
    for (StreamInfo &s : next[1].streams)
        if (s.name == QLatin1String("$MQTT_msgs"))
            s.state.insert(QStringLiteral("messages"), 42);
    std::shuffle(next.begin(), next.end(), std::mt19937(15));

    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy moved(m_model.get(), &QAbstractItemModel::rowsMoved);
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setAccounts(next);
    QCOMPARE(removed.count(), 2);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(moved.count(), 0);
    QCOMPARE(layout.count(), 0);
    QCOMPARE(reset.count(), 0);
    // One range for the account rows, one for the changed stream row, one for the group's count.
    QCOMPARE(changed.count(), 3);

    QCOMPARE(m_model->accountCount(), kFleet - 5 + 4);
    QCOMPARE(m_model->accountIndex(QStringLiteral("fleet-00050a")).row(), 50 + 1);
    QVERIFY(!m_model->accountIndex(name(100)).isValid());
    QVERIFY(!m_model->accountIndex(name(7001)).isValid());
    QCOMPARE(m_model->accountIndex(name(9999)).row(), m_model->accountCount() - 3);
    const QModelIndex msgs = m_model->streamIndex(name(1), QStringLiteral("$MQTT_msgs"));
    QCOMPARE(msgs.data(ClusterTreeModel::MessagesRole).toLongLong(), 42);

    // The view still has the same account selected and the same accounts expanded.
    QVERIFY(selected.isValid());
    QCOMPARE(selected.data(ClusterTreeModel::NameRole).toString(), name(5001));
    QCOMPARE(m_proxy->mapToSource(m_view->currentIndex()), QModelIndex(selected));
    QCOMPARE(m_view->selectionModel()->selectedRows().size(), 1);
    QVERIFY(m_view->isExpanded(toView(selected)));
    QVERIFY(m_view->isExpanded(toView(expanded)));
    QVERIFY(!m_view->isExpanded(toView(m_model->accountIndex(name(5002)))));
}

void TestClusterTreeFleet::refreshWithManyChangesIsOneLayoutChange()
{
    load(m_fleet);
    const QPersistentModelIndex selected = m_model->accountIndex(name(5001));
    const QPersistentModelIndex selectedStream = m_model->streamIndex(name(5001), QStringLiteral("$MQTT_msgs"));
    const QPersistentModelIndex gone = m_model->accountIndex(name(5000));
    const QPersistentModelIndex goneStream = m_model->streamIndex(name(5000), QStringLiteral("$MQTT_msgs"));
    m_view->setCurrentIndex(toView(selected));
    m_view->expand(toView(selected));

    // Every other account is gone: 5,000 runs, far more than kMaxSignalGroups.
    QList<AccountInfo> next;
    for (int i = 1; i < kFleet; i += 2)
        next.append(m_fleet.at(i));
    // ... and 5001 lost its legacy session stream.
    next[5001 / 2].streams.removeIf([](const StreamInfo &s) { return s.isLegacySession(); });

    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy aboutToChange(m_model.get(), &QAbstractItemModel::layoutAboutToBeChanged);
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy viewLayout(m_proxy.get(), &QAbstractItemModel::layoutChanged);
    m_model->setAccounts(next);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(aboutToChange.count(), 1);
    QCOMPARE(layout.count(), 1);
    QCOMPARE(viewLayout.count(), 1);

    QCOMPARE(m_model->accountCount(), kFleet / 2);
    QCOMPARE(m_proxy->rowCount(toView(m_model->accountGroupIndex())), kFleet / 2);
    QVERIFY(!gone.isValid());
    QVERIFY(!goneStream.isValid());
    QVERIFY(!m_model->accountIndex(name(5000)).isValid());
    QCOMPARE(selected.row(), 5001 / 2);
    QCOMPARE(selected.data(ClusterTreeModel::NameRole).toString(), name(5001));
    QCOMPARE(m_model->rowCount(selected), 6);
    QVERIFY(selectedStream.isValid());
    QCOMPARE(selectedStream.parent(), QModelIndex(selected));
    QCOMPARE(selectedStream.data(ClusterTreeModel::NameRole).toString(), QStringLiteral("$MQTT_msgs"));
    QCOMPARE(m_proxy->mapToSource(m_view->currentIndex()), QModelIndex(selected));
    QVERIFY(m_view->isExpanded(toView(selected)));
}

void TestClusterTreeFleet::badgesFromAMap()
{
    load(m_fleet);
    const QPersistentModelIndex selected = m_model->accountIndex(name(4242));
    m_view->setCurrentIndex(toView(selected));
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->applyHealth(HealthMap::diagnose(CapturedCluster::servers(), m_fleet));
    // Nearly every account's streams changed from "unknown": one layout change, not 10,000 signals.
    QCOMPARE(layout.count(), 1);
    QCOMPARE(changed.count(), 0);

    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(7))), Health::Critical);
    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(13))), Health::Info);
    const Health healthy = m_model->healthAt(m_model->accountIndex(name(1)));
    QVERIFY(healthy != Health::Unknown && healthy != Health::Critical);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(name(7), QStringLiteral("$MQTT_msgs"))),
             m_model->healthAt(m_model->streamIndex(name(1), QStringLiteral("$MQTT_msgs"))));
    QVERIFY(m_model->healthAt(m_model->streamIndex(name(7), QStringLiteral("$MQTT_msgs"))) != Health::Unknown);
    QVERIFY(
        !m_model->accountIndex(name(7)).siblingAtColumn(ClusterTreeModel::SummaryColumn).data(Qt::DecorationRole).value<QIcon>().isNull());

    // Problems first: the view's first account rows are the critical ones, in name order.
    const QModelIndex group = toView(m_model->accountGroupIndex());
    QCOMPARE(m_proxy->index(0, 0, group).data(ClusterTreeModel::NameRole).toString(), name(0));
    QCOMPARE(m_proxy->index(1, 0, group).data(ClusterTreeModel::NameRole).toString(), name(7));
    QCOMPARE(m_proxy->index(2, 0, group).data(ClusterTreeModel::NameRole).toString(), name(14));
    // The selection followed its row.
    QCOMPARE(m_proxy->mapToSource(m_view->currentIndex()), QModelIndex(selected));
}

void TestClusterTreeFleet::fewBadgeChangesAreDataChanges()
{
    load(m_fleet);
    const QList<AccountInfo> accounts = m_fleet;
    m_model->applyHealth(HealthMap::fromFindings({}, accounts));
    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(7))), Health::Ok);

    // The next refresh finds two problems: two account rows and two accounts' streams change.
    const HealthMap next = HealthMap::fromFindings({finding(name(3), QStringLiteral("$MQTT_msgs"), Finding::Severity::Error),
                                                    finding(name(9000), QStringLiteral("$MQTT_rmsgs"), Finding::Severity::Warning)},
                                                   accounts);
    QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->applyHealth(next);
    QCOMPARE(layout.count(), 0);
    QCOMPARE(changed.count(), 3); // the account rows 3..9000 as one range, then each account's streams
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>(), m_model->accountIndex(name(3)));
    QCOMPARE(changed.at(0).at(1).value<QModelIndex>().row(), 9000);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(name(3), QStringLiteral("$MQTT_msgs"))), Health::Error);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(name(3), QStringLiteral("$MQTT_rmsgs"))), Health::Ok);
    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(9000))), Health::Warning);

    // The proxy re-sorted: the two problems come first.
    const QModelIndex group = toView(m_model->accountGroupIndex());
    QCOMPARE(m_proxy->index(0, 0, group).data(ClusterTreeModel::NameRole).toString(), name(3));
    QCOMPARE(m_proxy->index(1, 0, group).data(ClusterTreeModel::NameRole).toString(), name(9000));
    QCOMPARE(m_proxy->index(2, 0, group).data(ClusterTreeModel::NameRole).toString(), name(0));

    // The same map again changes nothing.
    changed.clear();
    m_model->applyHealth(next);
    QCOMPARE(changed.count(), 0);
}

void TestClusterTreeFleet::fullFindingsWin()
{
    load(m_fleet.mid(0, 200));
    const QString account = name(1);
    // The workspace loaded the account's findings, records included: a record-level error on $MQTT_sess.
    m_model->setFindings(account, {finding(account, QStringLiteral("$MQTT_sess"), Finding::Severity::Error)});
    QCOMPARE(m_model->healthAt(m_model->accountIndex(account)), Health::Error);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(account, QStringLiteral("$MQTT_sess"))), Health::Error);

    // The stream-level badges of a refresh say it is fine: the full findings stay.
    const QList<AccountInfo> accounts = m_fleet.mid(0, 200);
    m_model->applyHealth(HealthMap::fromFindings({}, accounts));
    QCOMPARE(m_model->healthAt(m_model->accountIndex(account)), Health::Error);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(account, QStringLiteral("$MQTT_sess"))), Health::Error);
    QCOMPARE(m_model->healthAt(m_model->accountIndex(name(2))), Health::Ok);

    // A stream that appears later is badged from the same findings.
    QList<AccountInfo> next = accounts;
    StreamInfo out = next[1].streams.first();
    out.name = QStringLiteral("$MQTT_out");
    next[1].streams.append(out);
    m_model->setAccounts(next);
    QCOMPARE(m_model->healthAt(m_model->streamIndex(account, QStringLiteral("$MQTT_out"))), Health::Ok);
    m_model->applyHealth(HealthMap::fromFindings({finding(account, {}, Finding::Severity::Critical)}, next));
    QCOMPARE(m_model->healthAt(m_model->accountIndex(account)), Health::Error);
}

QTEST_MAIN(TestClusterTreeFleet)
#include "tst_clustertreefleet.moc"
