// RepairController against a real nats-server whose ACME lost `$MQTT_msgs`: the check finds STREAM_MISSING,
// the first round planned from that finding creates the stream again with its events and outcome handed to
// the GUI thread, and the stream exists afterwards. A read-only profile says why it may not change anything;
// a controller destroyed while its check runs goes quietly. Built in the TSan tree
// (MQTTDOCTOR_BUILD_CONTROLLERS), which runs it: the sessions run on the pool, their events cross threads.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "common/asyncrunner.h"
#include "controllertestserver.h"
#include "controllers/repaircontroller.h"
#include "mqttclient.h"
#include "jetstreamadmin.h"
#include "natsserverfixture.h"
#include "repair/repairsession.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

class TestRepairController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = startWithSessions(m_server, u"newest"_s, {u"sensor-1"_s});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(m_js.connect({m_server.url()}, u"acme"_s, u"acmepass"_s), qPrintable(m_js.error()));
    }

    void repairsAMissingStream()
    {
        QVERIFY2(m_js.deleteStream(u"$MQTT_msgs"_s), qPrintable(m_js.error()));
        Profile profile = acmeProfile(m_server);
        profile.allowChanges = true;
        QTemporaryDir backups;
        AsyncRunner runner;
        RepairController repair(runner, profile);
        repair.addAccount(u"ACME"_s, {});
        QSignalSpy checked(&repair, &RepairController::checkFinished);
        QSignalSpy events(&repair, &RepairController::repairEvent);
        QSignalSpy ran(&repair, &RepairController::runFinished);

        QVERIFY(repair.check());
        QVERIFY(repair.isChecking());
        QTRY_VERIFY_WITH_TIMEOUT(checked.size() == 1, 30000);
        QVERIFY(!repair.isChecking());
        QCOMPARE(repair.checks().size(), 1);
        const std::optional<Error> &checkError = repair.checks().first().error;
        QVERIFY2(!checkError, checkError ? qPrintable(checkError->toString()) : "");
        QVERIFY(!repair.checks().first().blocked);
        QList<Finding> missing;
        for (const Finding &f : repair.findings())
            if (f.code == u"STREAM_MISSING" && f.stream == u"$MQTT_msgs")
                missing << f;
        QCOMPARE(missing.size(), 1);

        const QList<RepairPlan> plans = repair.plan(missing);
        QCOMPARE(plans.size(), 1);
        QVERIFY(!plans.first().steps.isEmpty());
        QVERIFY(repair.hasPendingRound());
        QCOMPARE(repair.pendingRound(), 1);

        QVERIFY(repair.run(backups.path()));
        QVERIFY(repair.isRunning());
        QVERIFY(!repair.check()); // not while a round runs
        QTRY_VERIFY_WITH_TIMEOUT(ran.size() == 1, 60000);
        QVERIFY(!repair.isRunning());
        QVERIFY(!repair.runError());
        QVERIFY(repair.anyRoundRan());
        QVERIFY2(repair.session(0).wholeReport().complete, qPrintable(repair.session(0).wholeReport().stoppedBecause));
        int started = 0, ended = 0;
        for (const QList<QVariant> &args : events) {
            const auto e = args.at(0).value<RepairEvent>();
            started += e.kind == RepairEvent::Kind::StepStarted;
            ended += e.kind == RepairEvent::Kind::StepFinished;
        }
        QVERIFY(started >= 1);
        QCOMPARE(ended, started);
        QVERIFY2(m_js.call(u"STREAM.INFO.$MQTT_msgs"_s), "$MQTT_msgs was not created again");
    }

    void readOnlyProfileSaysWhy()
    {
        AsyncRunner runner;
        RepairController repair(runner, acmeProfile(m_server)); // allowChanges false
        repair.addAccount(u"ACME"_s, {});
        QSignalSpy checked(&repair, &RepairController::checkFinished);
        QVERIFY(repair.check());
        QTRY_VERIFY_WITH_TIMEOUT(checked.size() == 1, 30000);
        QVERIFY(repair.checks().first().blocked);
        QCOMPARE(repair.checks().first().blocked->kind(), Error::Kind::ReadOnly);
        QVERIFY(!repair.run(QString())); // nothing planned: nothing runs
    }

    void destroyedWhileChecking()
    {
        AsyncRunner runner;
        {
            RepairController repair(runner, acmeProfile(m_server));
            repair.addAccount(u"ACME"_s, {});
            QVERIFY(repair.check());
        }
        // The check ends on the pool and its delivery goes with the controller; the pool closes the connections.
        runner.shutdown();
        QTest::qWait(100);
    }

private:
    NatsServerFixture m_server;
    JetStreamAdmin m_js;
};

QTEST_MAIN(TestRepairController)
#include "tst_repaircontroller.moc"
