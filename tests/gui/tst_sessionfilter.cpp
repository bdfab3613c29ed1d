// The sessions filter matches on a worker (SessionTableModel::setFilterAsync through the proxy's
// setFilterText) for a table of kSyncFilterRows rows or more: until the answer comes the rows are the
// previous filter's, then they change in one go to exactly the matching rows; quick typing ends with
// the last text's rows (older answers are dropped, not applied); a refresh or clear() while a filter
// is matched never applies the answer for the old rows; rows appended meanwhile are matched too; a
// small table filters at once. QAbstractItemModelTester watches the model and the proxy throughout.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "poolblocker.h"

using namespace MqttDoctor;
using MqttDoctor::Test::PoolBlocker;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kRows = SessionTableModel::kSyncFilterRows + 1000; // large enough to match on a worker

SessionEntry entry(const QString &clientId, quint64 seq, bool problem = false)
{
    SessionEntry e;
    e.clientId = clientId;
    e.hash = u"H"_s + QString::number(seq); // hashes and subjects never contain the client IDs' text
    e.subject = u"$MQTT.sess."_s + e.hash;
    e.seq = seq;
    if (problem)
        e.otherProblems << u"durable missing"_s;
    e.record = SessionRecord{};
    e.record->subs.insert(u"plant.x"_s, 0); // MQTT filter plant/x
    return e;
}

/** `count` sessions "<prefix>-00000", ...; every 100th has a problem. */
QList<QList<SessionEntry>> batches(const QString &prefix, int count, quint64 firstSeq = 1)
{
    QList<QList<SessionEntry>> out;
    for (int i = 0; i < count; ++i) {
        if (i % 1000 == 0)
            out.append(QList<SessionEntry>{});
        out.last().append(entry(u"%1-%2"_s.arg(prefix).arg(i, 5, 10, QLatin1Char('0')), firstSeq + quint64(i), i % 100 == 0));
    }
    return out;
}

QStringList clientIds(const QAbstractItemModel &model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, SessionTableModel::ClientIdColumn).data().toString();
    return out;
}

QStringList names(const QString &prefix, int from, int to)
{
    QStringList out;
    for (int i = from; i <= to; ++i)
        out << u"%1-%2"_s.arg(prefix).arg(i, 5, 10, QLatin1Char('0'));
    return out;
}

} // namespace

class TestSessionFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void appliesExactlyTheMatchingRows();
    void quickTypingEndsWithTheLastText();
    void refreshDuringAPendingFilterDropsTheStaleAnswer();
    void clearDuringAPendingFilterDropsTheStaleAnswer();
    void rowsAppendedWhileMatchingAreMatched();
    void smallTableFiltersAtOnce();

private:
    void fill(const QString &prefix, int count);

    std::unique_ptr<SessionTableModel> m_model;
    std::unique_ptr<SessionFilterProxyModel> m_proxy;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;
};

void TestSessionFilter::init()
{
    m_model = std::make_unique<SessionTableModel>();
    m_proxy = std::make_unique<SessionFilterProxyModel>();
    m_proxy->setSessionModel(m_model.get());
    m_modelTester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_proxyTester = std::make_unique<QAbstractItemModelTester>(m_proxy.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestSessionFilter::cleanup()
{
    QThreadPool::globalInstance()->waitForDone();
    m_proxyTester.reset();
    m_modelTester.reset();
    m_proxy.reset();
    m_model.reset();
}

void TestSessionFilter::fill(const QString &prefix, int count)
{
    for (QList<SessionEntry> &b : batches(prefix, count))
        m_model->appendBatch(std::move(b));
}

void TestSessionFilter::appliesExactlyTheMatchingRows()
{
    fill(u"client"_s, kRows);
    QCOMPARE(m_proxy->rowCount(), kRows);
    QSignalSpy applied(m_proxy.get(), &SessionFilterProxyModel::filterApplied);
    {
        PoolBlocker blocker;
        m_proxy->setFilterText(u"  CLIENT-0001 "_s); // trimmed, case-insensitive
        QCOMPARE(m_proxy->filterText(), u"CLIENT-0001"_s);
        // The worker has not answered: the rows are still the previous (empty) filter's.
        QVERIFY(m_proxy->isFiltering());
        QCOMPARE(m_proxy->rowCount(), kRows);
        QCOMPARE(applied.count(), 0);
    }
    QTRY_COMPARE(applied.count(), 1);
    QVERIFY(!m_proxy->isFiltering());
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 10, 19));

    // Problems only, on top of the text: every 100th row has a problem.
    m_proxy->setFilterText({});
    QTRY_COMPARE(m_proxy->rowCount(), kRows); // an empty filter applies at once
    m_proxy->setProblemsOnly(true);
    QTRY_VERIFY(!m_proxy->isFiltering());
    QCOMPARE(m_proxy->rowCount(), (kRows + 99) / 100);
    for (const QString &id : clientIds(*m_proxy))
        QVERIFY2(id.endsWith(u"00"_s), qPrintable(id));

    // Nothing matches: no rows, and the model still holds them all.
    m_proxy->setProblemsOnly(false);
    m_proxy->setFilterText(u"no-such-client"_s);
    QTRY_VERIFY(!m_proxy->isFiltering());
    QCOMPARE(m_proxy->rowCount(), 0);
    QCOMPARE(m_model->rowCount(), kRows);
    m_proxy->setFilterText({});
    QCOMPARE(m_proxy->rowCount(), kRows);
}

void TestSessionFilter::quickTypingEndsWithTheLastText()
{
    fill(u"client"_s, kRows);
    QSignalSpy applied(m_proxy.get(), &SessionFilterProxyModel::filterApplied);
    {
        PoolBlocker blocker; // every keystroke's worker waits; they answer in order after release
        for (const QString &text : {u"c"_s, u"cl"_s, u"client-00"_s, u"client-002"_s, u"client-0020"_s})
            m_proxy->setFilterText(text);
        QCOMPARE(m_proxy->rowCount(), kRows);
    }
    QTRY_VERIFY(!m_proxy->isFiltering());
    QTest::qWait(20); // any older answer that were applied late would show now
    QCOMPARE(applied.count(), 1); // only the last text's answer was applied
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 200, 209));
    QCOMPARE(m_model->appliedFilter().text, u"client-0020"_s);

    // Typing back to the text already shown drops the pending answer of the one in between.
    {
        PoolBlocker blocker;
        m_proxy->setFilterText(u"client-003"_s);
        QVERIFY(m_proxy->isFiltering());
        m_proxy->setFilterText(u"client-0020"_s);
        QVERIFY(!m_proxy->isFiltering());
    }
    QTest::qWait(20);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 200, 209));
}

void TestSessionFilter::refreshDuringAPendingFilterDropsTheStaleAnswer()
{
    fill(u"client"_s, kRows);
    QSignalSpy replaced(m_model.get(), &SessionTableModel::replaced);
    {
        PoolBlocker blocker;
        // The refresh's worker starts first, with the old (empty) filter; the filter's worker is
        // queued behind it and matches the old rows, which are gone when it answers.
        m_model->replaceAllAsync(batches(u"renewed-client"_s, kRows, 100000));
        m_proxy->setFilterText(u"client-0001"_s);
        QVERIFY(m_proxy->isFiltering());
    }
    QTRY_COMPARE(replaced.count(), 1);
    QTRY_VERIFY(!m_proxy->isFiltering());
    QTest::qWait(20);
    // Exactly the new rows that match; none of the old ones.
    QCOMPARE(clientIds(*m_proxy), names(u"renewed-client"_s, 10, 19));

    // And the other way round: the filter is asked for first, the refresh comes while it matches.
    m_proxy->setFilterText({});
    {
        PoolBlocker blocker;
        m_proxy->setFilterText(u"client-0002"_s);
        m_model->replaceAllAsync(batches(u"third"_s, 3, 200000) + batches(u"client"_s, 30, 300000));
    }
    QTRY_COMPARE(replaced.count(), 2);
    QTRY_VERIFY(!m_proxy->isFiltering());
    QTest::qWait(20);
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 20, 29));
}

void TestSessionFilter::clearDuringAPendingFilterDropsTheStaleAnswer()
{
    fill(u"client"_s, kRows);
    QSignalSpy applied(m_proxy.get(), &SessionFilterProxyModel::filterApplied);
    {
        PoolBlocker blocker;
        m_proxy->setFilterText(u"client-0001"_s);
        QVERIFY(m_proxy->isFiltering());
        m_model->clear(); // another account: the old rows (and their entries) go
        QVERIFY(!m_proxy->isFiltering());
        QCOMPARE(m_proxy->rowCount(), 0);
        // The next account's rows arrive while the stale answer is still queued; they are matched as they come.
        fill(u"client"_s, 40);
        QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 10, 19));
    }
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(20);
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 10, 19)); // the stale answer changed nothing
    QCOMPARE(applied.count(), 1); // the one from clear()
}

void TestSessionFilter::rowsAppendedWhileMatchingAreMatched()
{
    fill(u"client"_s, kRows);
    {
        PoolBlocker blocker;
        m_proxy->setFilterText(u"-0001"_s);
        // A batch arrives while the worker matches the rows it was given: shown under the filter in
        // place (the empty one) now, matched with the new one when the answer comes.
        m_model->appendBatch({entry(u"late-00010"_s, 900001), entry(u"late-00099"_s, 900002)});
        QCOMPARE(m_proxy->rowCount(), kRows + 2);
    }
    QTRY_VERIFY(!m_proxy->isFiltering());
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 10, 19) << u"late-00010"_s);
    // Appended after the answer: matched on arrival.
    m_model->appendBatch({entry(u"later-00011"_s, 900003), entry(u"later-00500"_s, 900004)});
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 10, 19) << u"late-00010"_s << u"later-00011"_s);
}

void TestSessionFilter::smallTableFiltersAtOnce()
{
    fill(u"client"_s, 50);
    QSignalSpy applied(m_proxy.get(), &SessionFilterProxyModel::filterApplied);
    m_proxy->setFilterText(u"client-0004"_s);
    QVERIFY(!m_proxy->isFiltering());
    QCOMPARE(applied.count(), 1);
    QCOMPARE(clientIds(*m_proxy), names(u"client"_s, 40, 49));
    m_proxy->setFilterText(u"client-0004"_s); // unchanged: nothing happens
    QCOMPARE(applied.count(), 1);
}

QTEST_MAIN(TestSessionFilter)
#include "tst_sessionfilter.moc"
