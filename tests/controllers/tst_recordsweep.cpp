// RecordSweep against a real nats-server: ACME (the profile's user, persistent MQTT sessions) is checked on
// the sweep's pool and its findings come back on the GUI thread; BETA (JetStream and `$MQTT_sess`, no
// credentials in the profile) is skipped with the reason; the sweep ends with finished(). A sweep cancelled
// at once never reports finished(). Built in the TSan tree (MQTTDOCTOR_BUILD_CONTROLLERS), which runs it.
#include <QSignalSpy>
#include <QTest>

#include "controllertestserver.h"
#include "controllers/recordsweep.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

class TestRecordSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        ServerConfig config = ServerConfig::standard();
        config.addAccount(ServerConfig::jetStreamAccount(u"BETA"_s, u"beta"_s, u"betapass"_s));
        const QString problem = startWithSessions(m_server, u"newest"_s, {u"acme-dev"_s}, config);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const MqttResult beta =
            MqttClient(m_server.mqttPort(), u"beta"_s, u"betapass"_s).createPersistentSession(u"beta-dev"_s, {u"a/b"_s}, 1);
        QVERIFY2(beta.connected() && beta.subscribed(), qPrintable(beta.describe()));
        m_connections = std::make_shared<ConnectionSet>(acmeProfile(m_server));
        auto servers = Discovery::servers(*m_connections);
        QVERIFY2(servers, servers ? "" : qPrintable(servers.error().toString()));
        auto accounts = Discovery::accounts(*m_connections);
        QVERIFY2(accounts, accounts ? "" : qPrintable(accounts.error().toString()));
        m_servers = *servers;
        m_accounts = *accounts;
    }

    void checksWhatItCanAndSaysWhatItCannot()
    {
        RecordSweep sweep;
        QSignalSpy checked(&sweep, &RecordSweep::accountChecked);
        QSignalSpy skipped(&sweep, &RecordSweep::accountSkipped);
        QSignalSpy finished(&sweep, &RecordSweep::finished);
        sweep.start(m_connections, m_servers, m_accounts);
        QVERIFY(sweep.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 60000);
        QVERIFY(!sweep.isRunning());
        QStringList checkedAccounts;
        for (const QList<QVariant> &args : checked)
            checkedAccounts << args.at(0).toString();
        QVERIFY2(checkedAccounts.contains(u"ACME"_s), qPrintable(checkedAccounts.join(u',')));
        bool betaSkipped = false;
        for (const QList<QVariant> &args : skipped)
            if (args.at(0).toString() == u"BETA") {
                betaSkipped = true;
                QVERIFY(args.at(1).toBool()); // could not check: no credentials
                QVERIFY(!args.at(2).toString().isEmpty());
            }
        QVERIFY2(betaSkipped, "BETA has no credentials in the profile: it must be named as not checked");
        QCOMPARE(sweep.done(), sweep.total());
        QCOMPARE(finished.first().at(0).toInt(), sweep.total());
    }

    void cancelledSweepDoesNotFinish()
    {
        RecordSweep sweep;
        QSignalSpy finished(&sweep, &RecordSweep::finished);
        QSignalSpy checked(&sweep, &RecordSweep::accountChecked);
        sweep.start(m_connections, m_servers, m_accounts);
        sweep.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!sweep.isRunning(), 30000);
        QTest::qWait(500);
        QVERIFY(finished.isEmpty());
        QVERIFY(checked.isEmpty());
        sweep.shutdown();
    }

    void cleanupTestCase()
    {
        // Closing nats.c connections waits for their threads: done here, before the fixture stops the server.
        m_connections.reset();
    }

private:
    NatsServerFixture m_server;
    std::shared_ptr<ConnectionSet> m_connections;
    QList<ServerInfo> m_servers;
    QList<AccountInfo> m_accounts;
};

QTEST_MAIN(TestRecordSweep)
#include "tst_recordsweep.moc"
