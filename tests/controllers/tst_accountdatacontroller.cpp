// AccountDataController against a real nats-server with three persistent MQTT sessions in ACME: one
// refresh reads one snapshot and delivers the findings and every session on the GUI thread; a refresh
// that replaces a running one delivers only the newer snapshot's rows; without the system account the
// sessions come with the core's note that the connected state is unknown; an account that does not
// exist fails with the core's error. Built in the TSan tree (MQTTDOCTOR_BUILD_CONTROLLERS), which runs it.
#include <QSignalSpy>
#include <QTest>

#include "controllertestserver.h"
#include "controllers/accountdatacontroller.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

qsizetype rowsOf(const QSignalSpy &batches)
{
    qsizetype rows = 0;
    for (const QList<QVariant> &args : batches)
        rows += args.at(1).value<QList<SessionEntry>>().size();
    return rows;
}

} // namespace

class TestAccountDataController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = startWithSessions(m_server, u"newest"_s, {u"sensor-1"_s, u"sensor-2"_s, u"sensor-3"_s});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void oneRefreshOneSnapshot()
    {
        AccountDataController controller;
        controller.setProfile(acmeProfile(m_server));
        QSignalSpy findings(&controller, &AccountDataController::findingsLoaded);
        QSignalSpy batches(&controller, &AccountDataController::sessionsBatch);
        QSignalSpy finished(&controller, &AccountDataController::sessionsFinished);
        QSignalSpy failed(&controller, &AccountDataController::failed);
        controller.refresh(u"ACME"_s);
        controller.loadSessions(u"ACME"_s);
        controller.loadFindings(u"ACME"_s);
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1 && findings.size() == 1, 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(2).value<Error>().toString()));
        QCOMPARE(rowsOf(batches), 3);
        QCOMPARE(finished.first().at(0).toString(), u"ACME"_s);
        QCOMPARE(finished.first().at(1).toBool(), false); // not cancelled
        QCOMPARE(finished.first().at(2).toString(), QString()); // every session read, connected state known
        QCOMPARE(controller.snapshotLoads(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 30000);
        controller.shutdown();
    }

    void newerRefreshReplacesTheRunningOne()
    {
        AccountDataController controller;
        controller.setProfile(acmeProfile(m_server));
        QSignalSpy batches(&controller, &AccountDataController::sessionsBatch);
        QSignalSpy finished(&controller, &AccountDataController::sessionsFinished);
        controller.refresh(u"ACME"_s);
        controller.loadSessions(u"ACME"_s);
        // At once again, as a second F5: the first snapshot's deliveries are dropped.
        controller.refresh(u"ACME"_s);
        controller.loadSessions(u"ACME"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy() && !finished.isEmpty(), 30000);
        QTest::qWait(300); // nothing of the first snapshot follows
        QCOMPARE(controller.snapshotLoads(), 2);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(rowsOf(batches), 3);
        controller.shutdown();
    }

    void withoutSystemAccountTheNoteSaysWhatIsUnknown()
    {
        AccountDataController controller;
        controller.setProfile(acmeProfile(m_server, false));
        QSignalSpy batches(&controller, &AccountDataController::sessionsBatch);
        QSignalSpy finished(&controller, &AccountDataController::sessionsFinished);
        controller.refresh(u"ACME"_s);
        controller.loadSessions(u"ACME"_s);
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 30000);
        QCOMPARE(rowsOf(batches), 3);
        const QString note = finished.first().at(2).toString();
        QVERIFY2(note.contains(u"Connected state unknown: there is no system account connection"_s), qPrintable(note));
        controller.shutdown();
    }

    void unknownAccountFails()
    {
        AccountDataController controller;
        controller.setProfile(acmeProfile(m_server));
        QSignalSpy failed(&controller, &AccountDataController::failed);
        QSignalSpy finished(&controller, &AccountDataController::sessionsFinished);
        controller.refresh(u"NO_SUCH_ACCOUNT"_s);
        controller.loadSessions(u"NO_SUCH_ACCOUNT"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QCOMPARE(failed.first().at(1).toString(), u"NO_SUCH_ACCOUNT"_s);
        QVERIFY(!failed.first().at(2).value<Error>().message().isEmpty());
        QVERIFY(finished.isEmpty());
        controller.shutdown();
    }

private:
    NatsServerFixture m_server;
};

QTEST_MAIN(TestAccountDataController)
#include "tst_accountdatacontroller.moc"
