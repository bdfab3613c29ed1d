// The sessions table sorts on a worker (SessionTableModel::sortAsync through the proxy's sort()):
// the order is right for text and number columns in both directions, the load order comes back with
// column -1, a selected row (persistent index) follows its entry, rows appended while the worker
// sorts stay at the end, and a refresh (replaceAllAsync) arrives sorted. QAbstractItemModelTester
// watches the model and the proxy throughout.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTimeZone>
#include <QTest>

#include "models/sessionfilterproxymodel.h"
#include "models/sessionsort.h"
#include "models/sessiontablemodel.h"
#include "poolblocker.h"

using namespace MqttDoctor;
using MqttDoctor::Test::PoolBlocker;
using namespace Qt::Literals::StringLiterals;

namespace {

SessionEntry entry(const QString &clientId, quint64 seq, int subscriptions)
{
    SessionEntry e;
    e.clientId = clientId;
    e.hash = u"h"_s + clientId;
    e.subject = u"$MQTT.sess."_s + e.hash;
    e.seq = seq;
    e.time = QDateTime::fromMSecsSinceEpoch(qint64(1700000000000) + qint64(seq) * 1000, QTimeZone::utc());
    e.record = SessionRecord{};
    for (int i = 0; i < subscriptions; ++i)
        e.record->subs.insert(u"t.%1"_s.arg(i), 1); // MQTT filter t/<i>
    return e;
}

QStringList column0(const QAbstractItemModel &model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, SessionTableModel::ClientIdColumn).data().toString();
    return out;
}

} // namespace

class TestSessionSort : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void sortsOnAWorker();
    void selectionFollowsItsRow();
    void rowsAppendedWhileSortingStayAtTheEnd();
    void refreshArrivesSorted();

private:
    void sortAndWait(int column, Qt::SortOrder order);

    std::unique_ptr<SessionTableModel> m_model;
    std::unique_ptr<SessionFilterProxyModel> m_proxy;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;
};

void TestSessionSort::init()
{
    m_model = std::make_unique<SessionTableModel>();
    m_proxy = std::make_unique<SessionFilterProxyModel>();
    m_proxy->setSessionModel(m_model.get());
    m_modelTester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_proxyTester = std::make_unique<QAbstractItemModelTester>(m_proxy.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_model->appendBatch({entry(u"delta"_s, 1, 2), entry(u"alpha"_s, 2, 0), entry(u"charlie"_s, 3, 3)});
    m_model->appendBatch({entry(u"bravo"_s, 4, 1)});
}

void TestSessionSort::cleanup()
{
    m_proxyTester.reset();
    m_modelTester.reset();
    m_proxy.reset();
    m_model.reset();
}

void TestSessionSort::sortAndWait(int column, Qt::SortOrder order)
{
    QSignalSpy sorted(m_model.get(), &SessionTableModel::sorted);
    m_proxy->sort(column, order);
    QTRY_COMPARE(sorted.count(), 1);
    QVERIFY(!m_model->isSorting());
}

void TestSessionSort::sortsOnAWorker()
{
    QCOMPARE(column0(*m_proxy), (QStringList{u"delta"_s, u"alpha"_s, u"charlie"_s, u"bravo"_s}));
    sortAndWait(SessionTableModel::ClientIdColumn, Qt::AscendingOrder);
    QCOMPARE(column0(*m_proxy), (QStringList{u"alpha"_s, u"bravo"_s, u"charlie"_s, u"delta"_s}));
    QCOMPARE(m_model->sortColumn(), int(SessionTableModel::ClientIdColumn));
    sortAndWait(SessionTableModel::SubscriptionsColumn, Qt::DescendingOrder);
    QCOMPARE(column0(*m_proxy), (QStringList{u"charlie"_s, u"delta"_s, u"bravo"_s, u"alpha"_s}));
    sortAndWait(SessionTableModel::LastWrittenColumn, Qt::DescendingOrder);
    QCOMPARE(column0(*m_proxy), (QStringList{u"bravo"_s, u"charlie"_s, u"alpha"_s, u"delta"_s}));
    sortAndWait(-1, Qt::AscendingOrder); // the header's sort indicator cleared: load order
    QCOMPARE(column0(*m_proxy), (QStringList{u"delta"_s, u"alpha"_s, u"charlie"_s, u"bravo"_s}));
    // The filter still applies to the sorted rows.
    sortAndWait(SessionTableModel::ClientIdColumn, Qt::DescendingOrder);
    m_proxy->setFilterText(u"a"_s);
    QCOMPARE(column0(*m_proxy), (QStringList{u"delta"_s, u"charlie"_s, u"bravo"_s, u"alpha"_s}));
    m_proxy->setFilterText(u"ar"_s);
    QCOMPARE(column0(*m_proxy), (QStringList{u"charlie"_s}));
}

void TestSessionSort::selectionFollowsItsRow()
{
    const QPersistentModelIndex charlie = m_proxy->index(2, SessionTableModel::HashColumn);
    QCOMPARE(charlie.data().toString(), u"hcharlie"_s);
    sortAndWait(SessionTableModel::ClientIdColumn, Qt::DescendingOrder);
    QVERIFY(charlie.isValid());
    QCOMPARE(charlie.row(), 1);
    QCOMPARE(charlie.column(), int(SessionTableModel::HashColumn));
    QCOMPARE(charlie.data().toString(), u"hcharlie"_s);
}

void TestSessionSort::rowsAppendedWhileSortingStayAtTheEnd()
{
    QSignalSpy sorted(m_model.get(), &SessionTableModel::sorted);
    {
        PoolBlocker blocker;
        m_proxy->sort(SessionTableModel::ClientIdColumn, Qt::AscendingOrder);
        QVERIFY(m_model->isSorting()); // the worker has the rows; a batch arrives meanwhile
        m_model->appendBatch({entry(u"aaa-late"_s, 5, 0)});
        QCOMPARE(sorted.count(), 0);
    }
    QTRY_COMPARE(sorted.count(), 1);
    QCOMPARE(column0(*m_proxy), (QStringList{u"alpha"_s, u"bravo"_s, u"charlie"_s, u"delta"_s, u"aaa-late"_s}));
    // clear() drops a running sort.
    {
        PoolBlocker blocker;
        m_proxy->sort(SessionTableModel::ClientIdColumn, Qt::DescendingOrder);
        m_model->clear();
    }
    QTest::qWait(50);
    QCOMPARE(sorted.count(), 1);
    QCOMPARE(m_model->rowCount(), 0);
}

void TestSessionSort::refreshArrivesSorted()
{
    sortAndWait(SessionTableModel::ClientIdColumn, Qt::DescendingOrder);
    QSignalSpy replaced(m_model.get(), &SessionTableModel::replaced);
    {
        PoolBlocker blocker;
        m_model->replaceAllAsync(
            {QList<SessionEntry>{entry(u"echo"_s, 7, 0), entry(u"alpha"_s, 8, 1)}, QList<SessionEntry>{entry(u"foxtrot"_s, 9, 0)}});
        QCOMPARE(m_model->rowCount(), 4); // the old rows stay until the new ones are sorted
    }
    QTRY_COMPARE(replaced.count(), 1);
    QCOMPARE(column0(*m_proxy), (QStringList{u"foxtrot"_s, u"echo"_s, u"alpha"_s}));
    QCOMPARE(m_model->rowOf(u"alpha"_s), 2);
    QCOMPARE(m_model->entryAt(2)->seq, quint64(8));
}

QTEST_MAIN(TestSessionSort)
#include "tst_sessionsort.moc"
