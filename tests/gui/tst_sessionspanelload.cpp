// The sessions panel hands batches to its table in time slices during a load: the first rows at
// once, later batches that arrive within SessionsPanel::kShowIntervalMs together (one repaint for all
// of them instead of one each), every row in the end, and the rest at once when the load finishes or
// fails; batches of a load that was replaced (another account, a reload) are dropped. The batches are
// the controller's own signals, emitted here without a server (the controller has no profile, so
// the panel's load requests go nowhere and only these batches arrive).
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "controllers/accountdatacontroller.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "common/error.h"
#include "panels/sessionspanel.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

QList<SessionEntry> batch(int first, int count)
{
    QList<SessionEntry> out;
    for (int i = first; i < first + count; ++i) {
        SessionEntry e;
        e.clientId = u"client-%1"_s.arg(i, 5, 10, QLatin1Char('0'));
        e.hash = u"H%1"_s.arg(i);
        e.seq = quint64(i + 1);
        e.record = SessionRecord{};
        out.append(e);
    }
    return out;
}

} // namespace

class TestSessionsPanelLoad : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void laterBatchesAreShownTogether();
    void finishShowsTheRestAtOnce();
    void failureKeepsWhatWasRead();
    void batchesOfAReplacedLoadAreDropped();

private:
    void send(int first, int count, quint64 total);

    std::unique_ptr<AccountDataController> m_controller;
    std::unique_ptr<SessionsPanel> m_panel;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestSessionsPanelLoad::init()
{
    m_controller = std::make_unique<AccountDataController>();
    m_panel = std::make_unique<SessionsPanel>(*m_controller);
    m_tester = std::make_unique<QAbstractItemModelTester>(m_panel->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_panel->setAccount(u"ACME"_s);
    m_panel->reload();
    QVERIFY(m_panel->isLoading());
}

void TestSessionsPanelLoad::cleanup()
{
    m_tester.reset();
    m_panel.reset();
    m_controller.reset();
}

void TestSessionsPanelLoad::send(int first, int count, quint64 total)
{
    emit m_controller->sessionsBatch(u"ACME"_s, batch(first, count), quint64(first + count), total);
}

void TestSessionsPanelLoad::laterBatchesAreShownTogether()
{
    SessionTableModel &model = *m_panel->model();
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    send(0, 100, 500);
    QCOMPARE(model.rowCount(), 100); // the first rows at once
    QVERIFY2(m_panel->statusText().contains(u"100 sessions so far"_s), qPrintable(m_panel->statusText()));
    send(100, 100, 500);
    send(200, 100, 500);
    send(300, 100, 500);
    QCOMPARE(model.rowCount(), 100); // waiting for the next time slice
    QCOMPARE(inserted.count(), 1);
    QTRY_COMPARE(model.rowCount(), 400);
    QVERIFY2(m_panel->statusText().contains(u"400 sessions so far"_s), qPrintable(m_panel->statusText()));
    QCOMPARE(inserted.count(), 4); // each batch kept as its own (no copy), all in one go
    QCOMPARE(model.entryAt(399)->clientId, u"client-00399"_s);
    QVERIFY(m_panel->isLoading());
}

void TestSessionsPanelLoad::finishShowsTheRestAtOnce()
{
    QSignalSpy finished(m_panel.get(), &SessionsPanel::loadFinished);
    send(0, 100, 300);
    send(100, 100, 300);
    send(200, 100, 300);
    QCOMPARE(m_panel->model()->rowCount(), 100);
    emit m_controller->sessionsFinished(u"ACME"_s, false, {});
    QCOMPARE(finished.count(), 1);
    QCOMPARE(m_panel->model()->rowCount(), 300);
    QVERIFY(m_panel->isLoaded());
    QVERIFY2(m_panel->statusText().startsWith(u"300 sessions"_s), qPrintable(m_panel->statusText()));
}

void TestSessionsPanelLoad::failureKeepsWhatWasRead()
{
    QSignalSpy finished(m_panel.get(), &SessionsPanel::loadFinished);
    send(0, 100, 1000);
    send(100, 50, 1000);
    emit m_controller->failed(AccountDataController::Load::Sessions, u"ACME"_s,
                              Error(Error::Kind::Timeout, u"no reply to a consumer request"_s));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(m_panel->model()->rowCount(), 150);
    QVERIFY2(m_panel->noticeText().contains(u"no reply to a consumer request"_s), qPrintable(m_panel->noticeText()));
    QTest::qWait(SessionsPanel::kShowIntervalMs + 50);
    QCOMPARE(m_panel->model()->rowCount(), 150);
}

void TestSessionsPanelLoad::batchesOfAReplacedLoadAreDropped()
{
    send(0, 100, 1000);
    send(100, 100, 1000); // waits for its time slice
    m_panel->setAccount(u"BETA"_s);
    QCOMPARE(m_panel->model()->rowCount(), 0);
    QTest::qWait(SessionsPanel::kShowIntervalMs + 50);
    QCOMPARE(m_panel->model()->rowCount(), 0); // ACME's waiting batch never shows under BETA
    send(0, 10, 10); // and ACME's later batches are ignored
    QCOMPARE(m_panel->model()->rowCount(), 0);
    QVERIFY(!m_panel->isLoading());
}

QTEST_MAIN(TestSessionsPanelLoad)
#include "tst_sessionspanelload.moc"
