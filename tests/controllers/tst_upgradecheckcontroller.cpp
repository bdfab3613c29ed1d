// UpgradeCheckController and MqttProbeController against a real nats-server 2.10 (which accepts the client
// ID "dev.1" that 2.11.15 / 2.12.6 / 2.14.0 refuse): the check against 2.14.5 hands back that refusal, against
// 2.11.14 nothing; a check replaced by a newer one delivers only the newer; without connections nothing
// starts. The probe verifies MQTT delivery with the account's MQTT user. Built in the TSan tree
// (MQTTDOCTOR_BUILD_CONTROLLERS), which runs it.
#include <QSignalSpy>
#include <QTest>

#include "common/asyncrunner.h"
#include "controllertestserver.h"
#include "controllers/mqttprobecontroller.h"
#include "controllers/upgradecheckcontroller.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

class TestUpgradeCheckController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = startWithSessions(m_server, u"2.10"_s, {u"dev.1"_s});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void handsBackWhatTheTargetRefuses()
    {
        AsyncRunner runner;
        UpgradeCheckController checker(runner, std::make_shared<ConnectionSet>(acmeProfile(m_server)), u"ACME"_s);
        QSignalSpy finished(&checker, &UpgradeCheckController::finished);
        QSignalSpy failed(&checker, &UpgradeCheckController::failed);
        QVERIFY(checker.check(*ServerVersion::parse(u"2.14.5"_s)));
        QVERIFY(checker.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 30000);
        QVERIFY(!checker.isRunning());
        QVERIFY(failed.isEmpty());
        QCOMPARE(finished.first().at(0).value<ServerVersion>().toString(), u"2.14.5"_s);
        const auto findings = finished.first().at(1).value<QList<Finding>>();
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().code, u"UPGRADE_CLIENT_ID_REFUSED"_s);
        QCOMPARE(findings.first().clientId, u"dev.1"_s);

        // A check replaced by a newer one: only the newer one's result (2.11.14 refuses nothing).
        QVERIFY(checker.check(*ServerVersion::parse(u"2.14.5"_s)));
        QVERIFY(checker.check(*ServerVersion::parse(u"2.11.14"_s)));
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!checker.isRunning(), 30000);
        QTest::qWait(500);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(finished.last().at(0).value<ServerVersion>().toString(), u"2.11.14"_s);
        QVERIFY(finished.last().at(1).value<QList<Finding>>().isEmpty());
    }

    void nothingStartsWithoutConnections()
    {
        AsyncRunner runner;
        UpgradeCheckController checker(runner, nullptr, u"ACME"_s);
        QVERIFY(!checker.check(*ServerVersion::parse(u"2.14.5"_s)));
        QVERIFY(!checker.isRunning());
        MqttProbeController prober(runner, nullptr, u"ACME"_s);
        QVERIFY(!prober.probe({}));
        QVERIFY(!prober.isRunning());
    }

    void probeVerifiesDelivery()
    {
        AsyncRunner runner;
        MqttProbeController prober(runner, std::make_shared<ConnectionSet>(acmeProfile(m_server)), u"ACME"_s);
        QSignalSpy finished(&prober, &MqttProbeController::finished);
        QVERIFY(prober.probe(MqttProbeSettings{u"127.0.0.1:%1"_s.arg(m_server.mqttPort()), u"acme"_s, u"acmepass"_s}));
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 60000);
        const auto result = finished.first().at(0).value<MqttProbeResult>();
        QVERIFY2(result.verified(), qPrintable(result.summary()));
        QVERIFY(!prober.isRunning());

        // A wrong password: the probe runs and says what failed, it is not "verified".
        QVERIFY(prober.probe(MqttProbeSettings{u"127.0.0.1:%1"_s.arg(m_server.mqttPort()), u"acme"_s, u"wrong"_s}));
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 2, 60000);
        const auto refused = finished.last().at(0).value<MqttProbeResult>();
        QVERIFY(!refused.verified());
        QVERIFY(!refused.why.isEmpty());
    }

private:
    NatsServerFixture m_server;
};

QTEST_MAIN(TestUpgradeCheckController)
#include "tst_upgradecheckcontroller.moc"
