// The cluster tree's filter and order: AccountFilter::matches and AccountSort on their own
// (data-driven), then ClusterTreeProxyModel over a ClusterTreeModel with the captured servers and
// 300 fleet accounts badged by the real stream-level checks: the filter hides non-matching accounts
// only (profile, groups, servers and a matching account's own rows stay), problems come first,
// ties and the "by name" order follow the names, and a badge that changes re-sorts the row.
// QAbstractItemModelTester watches the proxy.
#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include "capturedcluster.h"
#include "models/accountfilter.h"
#include "models/accountsort.h"
#include "models/clustertreemodel.h"
#include "models/clustertreeproxymodel.h"
#include "models/healthmap.h"

using namespace MqttDoctor;
using MqttDoctor::Test::CapturedCluster;
using Health = HealthBadge::Health;
using NodeKind = ClusterTreeModel::NodeKind;

namespace {

constexpr int kAccounts = 300;

QStringList rowNames(const QAbstractItemModel &model, const QModelIndex &parent)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row)
        out << model.index(row, 0, parent).data(ClusterTreeModel::NameRole).toString();
    return out;
}

} // namespace

class TestClusterTreeProxyModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void filterMatches_data();
    void filterMatches();
    void nameOrder();
    void problemsFirstOrder();
    void sortKeys();
    void filterKeepsGroupsAndServers();
    void filterIgnoresCaseAndBlanks();
    void filterThatMatchesNothing();
    void sortsProblemsFirst();
    void sortsByName();
    void changedBadgeMovesTheRow();
    void newAccountsArePlaced();

private:
    QModelIndex viewGroup() const { return m_proxy->mapFromSource(m_model->accountGroupIndex()); }

    QList<AccountInfo> m_accounts;
    std::unique_ptr<ClusterTreeModel> m_model;
    std::unique_ptr<ClusterTreeProxyModel> m_proxy;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestClusterTreeProxyModel::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    m_accounts = CapturedCluster::fleet(kAccounts);
}

void TestClusterTreeProxyModel::init()
{
    m_model = std::make_unique<ClusterTreeModel>();
    m_model->setProfile(QStringLiteral("fleet"), {});
    m_model->setServers(CapturedCluster::servers());
    m_model->setAccounts(m_accounts);
    m_model->applyHealth(HealthMap::diagnose(CapturedCluster::servers(), m_accounts));
    m_proxy = std::make_unique<ClusterTreeProxyModel>();
    m_proxy->setTreeModel(m_model.get());
    m_tester = std::make_unique<QAbstractItemModelTester>(m_proxy.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestClusterTreeProxyModel::cleanup()
{
    m_tester.reset();
    m_proxy.reset();
    m_model.reset();
}

void TestClusterTreeProxyModel::filterMatches_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("matches");

    QTest::newRow("empty text") << QStringLiteral("ACME") << QString() << true;
    QTest::newRow("blanks only") << QStringLiteral("ACME") << QStringLiteral("  ") << true;
    QTest::newRow("whole name") << QStringLiteral("ACME") << QStringLiteral("ACME") << true;
    QTest::newRow("start") << QStringLiteral("tenant-00042") << QStringLiteral("tenant") << true;
    QTest::newRow("middle") << QStringLiteral("tenant-00042") << QStringLiteral("0004") << true;
    QTest::newRow("other case") << QStringLiteral("Tenant-ACME") << QStringLiteral("tenant-acme") << true;
    QTest::newRow("surrounding blanks") << QStringLiteral("tenant-00042") << QStringLiteral(" 42 ") << true;
    QTest::newRow("non-ASCII case") << QStringLiteral("Überwachung") << QStringLiteral("üBER") << true;
    QTest::newRow("not contained") << QStringLiteral("tenant-00042") << QStringLiteral("00043") << false;
    QTest::newRow("longer than the name") << QStringLiteral("ACME") << QStringLiteral("ACMEX") << false;
    QTest::newRow("inner blank kept") << QStringLiteral("tenant-00042") << QStringLiteral("tenant 0") << false;
    QTest::newRow("unnamed account") << QString() << QStringLiteral("a") << false;
}

void TestClusterTreeProxyModel::filterMatches()
{
    QFETCH(QString, account);
    QFETCH(QString, typed);
    QFETCH(bool, matches);
    QCOMPARE(AccountFilter::matches(account, AccountFilter::normalized(typed)), matches);
}

void TestClusterTreeProxyModel::nameOrder()
{
    QStringList names{QStringLiteral("beta"),  QStringLiteral("ACME"),   QStringLiteral("acme"),
                      QStringLiteral("Alpha"), QStringLiteral("acme-2"), QString(),
                      QStringLiteral("$SYS")};
    std::sort(names.begin(), names.end(), AccountSort::nameLess);
    QCOMPARE(names,
             (QStringList{QString(), QStringLiteral("$SYS"), QStringLiteral("ACME"), QStringLiteral("acme"), QStringLiteral("acme-2"),
                          QStringLiteral("Alpha"), QStringLiteral("beta")}));
    QVERIFY(!AccountSort::nameLess(QStringLiteral("acme"), QStringLiteral("acme")));
}

void TestClusterTreeProxyModel::problemsFirstOrder()
{
    struct Row
    {
        Health health;
        QString name;
    };
    QList<Row> rows{{Health::Ok, QStringLiteral("a")},       {Health::Warning, QStringLiteral("b")}, {Health::Unknown, QStringLiteral("c")},
                    {Health::Critical, QStringLiteral("d")}, {Health::Info, QStringLiteral("e")},    {Health::Error, QStringLiteral("f")},
                    {Health::Critical, QStringLiteral("B")}, {Health::Warning, QStringLiteral("A")}};
    const auto sorted = [&rows](AccountSort::Mode mode) {
        std::sort(rows.begin(), rows.end(),
                  [mode](const Row &x, const Row &y) { return AccountSort::lessThan(mode, x.health, x.name, y.health, y.name); });
        QStringList names;
        for (const Row &r : std::as_const(rows))
            names << r.name;
        return names.join(QLatin1Char(' '));
    };
    // Critical, error, warning first; info, ok and not checked are alike; ties by name.
    QCOMPARE(sorted(AccountSort::Mode::ByHealth), QStringLiteral("B d f A b a c e"));
    QCOMPARE(sorted(AccountSort::Mode::ByName), QStringLiteral("A a B b c d e f"));
    QVERIFY(AccountSort::problemRank(Health::Critical) < AccountSort::problemRank(Health::Error));
    QVERIFY(AccountSort::problemRank(Health::Error) < AccountSort::problemRank(Health::Warning));
    QCOMPARE(AccountSort::problemRank(Health::Ok), AccountSort::problemRank(Health::Unknown));
}

void TestClusterTreeProxyModel::sortKeys()
{
    QCOMPARE(AccountSort::fromKey(AccountSort::key(AccountSort::Mode::ByName)), AccountSort::Mode::ByName);
    QCOMPARE(AccountSort::fromKey(AccountSort::key(AccountSort::Mode::ByHealth)), AccountSort::Mode::ByHealth);
    QCOMPARE(AccountSort::fromKey(QStringLiteral("garbage")), AccountSort::Mode::ByHealth);
}

void TestClusterTreeProxyModel::filterKeepsGroupsAndServers()
{
    QSignalSpy arranged(m_proxy.get(), &ClusterTreeProxyModel::arrangementChanged);
    m_proxy->setFilterText(QStringLiteral("fleet-0004"));
    QCOMPARE(arranged.count(), 1);
    QCOMPARE(m_proxy->filterText(), QStringLiteral("fleet-0004"));

    // The profile and both groups stay, every server stays.
    QCOMPARE(m_proxy->rowCount(), 1);
    const QModelIndex profile = m_proxy->index(0, 0);
    QCOMPARE(m_proxy->rowCount(profile), 2);
    const QModelIndex servers = m_proxy->mapFromSource(m_model->serverGroupIndex());
    QVERIFY(servers.isValid());
    QCOMPARE(rowNames(*m_proxy, servers), (QStringList{QStringLiteral("gui1"), QStringLiteral("gui2")}));

    // fleet-00040 .. fleet-00049 only (00042 is critical, so it comes first).
    QStringList shown = rowNames(*m_proxy, viewGroup());
    QCOMPARE(shown.size(), 10);
    QCOMPARE(shown.first(), CapturedCluster::fleetName(42));
    std::sort(shown.begin(), shown.end());
    QStringList expected;
    for (int i = 40; i < 50; ++i)
        expected << CapturedCluster::fleetName(i);
    QCOMPARE(shown, expected);
    QVERIFY(!m_proxy->mapFromSource(m_model->accountIndex(CapturedCluster::fleetName(50))).isValid());

    // A matching account keeps its streams and record views.
    const QModelIndex account = m_proxy->mapFromSource(m_model->accountIndex(CapturedCluster::fleetName(41)));
    QVERIFY(m_proxy->hasChildren(account));
    QCOMPARE(m_proxy->rowCount(account), m_model->rowCount(m_model->accountIndex(CapturedCluster::fleetName(41))));
    QVERIFY(m_proxy->mapFromSource(m_model->dataIndex(CapturedCluster::fleetName(41), NodeKind::Sessions)).isValid());

    // The same text again changes nothing; clearing shows every account.
    m_proxy->setFilterText(QStringLiteral(" fleet-0004 "));
    QCOMPARE(arranged.count(), 1);
    m_proxy->setFilterText({});
    QCOMPARE(m_proxy->rowCount(viewGroup()), kAccounts);
}

void TestClusterTreeProxyModel::filterIgnoresCaseAndBlanks()
{
    m_proxy->setFilterText(QStringLiteral("  FLEET-0029 "));
    QCOMPARE(m_proxy->rowCount(viewGroup()), 10);
}

void TestClusterTreeProxyModel::filterThatMatchesNothing()
{
    m_proxy->setFilterText(QStringLiteral("no such account"));
    QCOMPARE(m_proxy->rowCount(viewGroup()), 0);
    QVERIFY(!m_proxy->hasChildren(viewGroup()));
    QCOMPARE(m_proxy->rowCount(m_proxy->mapFromSource(m_model->serverGroupIndex())), 2);
}

void TestClusterTreeProxyModel::sortsProblemsFirst()
{
    QCOMPARE(m_proxy->sortMode(), AccountSort::Mode::ByHealth);
    // What the proxy shows is the accounts sorted with AccountSort::lessThan on the model's badges.
    struct Row
    {
        Health health;
        QString name;
    };
    QList<Row> expected;
    for (int row = 0; row < m_model->accountCount(); ++row) {
        const QModelIndex index = m_model->index(row, 0, m_model->accountGroupIndex());
        expected.append({m_model->healthAt(index), m_model->nameAt(index)});
    }
    std::sort(expected.begin(), expected.end(), [](const Row &a, const Row &b) {
        return AccountSort::lessThan(AccountSort::Mode::ByHealth, a.health, a.name, b.health, b.name);
    });
    QStringList expectedNames;
    for (const Row &r : std::as_const(expected))
        expectedNames << r.name;
    const QStringList shown = rowNames(*m_proxy, viewGroup());
    QCOMPARE(shown, expectedNames);
    // The critical ones (every 7th lost $MQTT_sess) lead.
    QCOMPARE(shown.at(0), CapturedCluster::fleetName(0));
    QCOMPARE(shown.at(1), CapturedCluster::fleetName(7));
    QCOMPARE(m_model->healthAt(m_proxy->mapToSource(m_proxy->index(1, 0, viewGroup()))), Health::Critical);
    // Servers keep discovery's order, an account's rows the model's.
    QCOMPARE(rowNames(*m_proxy, m_proxy->mapFromSource(m_model->serverGroupIndex())),
             (QStringList{QStringLiteral("gui1"), QStringLiteral("gui2")}));
    const QModelIndex account = m_model->accountIndex(CapturedCluster::fleetName(1));
    QCOMPARE(rowNames(*m_proxy, m_proxy->mapFromSource(account)), rowNames(*m_model, account));
}

void TestClusterTreeProxyModel::sortsByName()
{
    QSignalSpy layout(m_proxy.get(), &QAbstractItemModel::layoutChanged);
    m_proxy->setSortMode(AccountSort::Mode::ByName);
    QCOMPARE(layout.count(), 1);
    QStringList expected;
    for (int i = 0; i < kAccounts; ++i)
        expected << CapturedCluster::fleetName(i);
    QCOMPARE(rowNames(*m_proxy, viewGroup()), expected);
    m_proxy->setSortMode(AccountSort::Mode::ByName);
    QCOMPARE(layout.count(), 1);
}

void TestClusterTreeProxyModel::changedBadgeMovesTheRow()
{
    const QString account = CapturedCluster::fleetName(250);
    QVERIFY(m_proxy->mapFromSource(m_model->accountIndex(account)).row() > 50);
    const QPersistentModelIndex held = m_proxy->mapFromSource(m_model->accountIndex(account));
    HealthMap next = HealthMap::diagnose(CapturedCluster::servers(), m_accounts);
    next.raise(account, {}, Health::Critical);
    m_model->applyHealth(next);
    // fleet-00250 is critical now: among the critical ones, by name (after 0, 7, ..., 245).
    const QModelIndex moved = m_proxy->mapFromSource(m_model->accountIndex(account));
    QCOMPARE(moved.row(), 250 / 7 + 1);
    QCOMPARE(QModelIndex(held), moved);
}

void TestClusterTreeProxyModel::newAccountsArePlaced()
{
    m_proxy->setFilterText(QStringLiteral("fleet-001"));
    QList<AccountInfo> next = m_accounts;
    AccountInfo matching = m_accounts.at(1);
    matching.name = QStringLiteral("fleet-001-new");
    AccountInfo other = m_accounts.at(1);
    other.name = QStringLiteral("other-account");
    next << matching << other;
    m_model->setAccounts(next);
    // The new account that matches the filter shows; the other one does not.
    QVERIFY(m_proxy->mapFromSource(m_model->accountIndex(QStringLiteral("fleet-001-new"))).isValid());
    QVERIFY(!m_proxy->mapFromSource(m_model->accountIndex(QStringLiteral("other-account"))).isValid());
    QCOMPARE(m_proxy->rowCount(viewGroup()), 100 + 1);
}

QTEST_MAIN(TestClusterTreeProxyModel)
#include "tst_clustertreeproxymodel.moc"
