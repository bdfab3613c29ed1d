// ActivityFeed against a real nats-server: with the system account it follows MQTT clients live, and a
// client that connects and disconnects arrives as two events on the GUI thread, in order; stop() detaches
// the reader and nothing arrives after it; without the system account it says why it cannot follow.
// Built in the TSan tree (MQTTDOCTOR_BUILD_CONTROLLERS), which runs it: the reader thread hands batches over.
#include <QSignalSpy>
#include <QTest>

#include "controllertestserver.h"
#include "controllers/activityfeed.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

QList<MqttClientEvent> eventsOf(const QSignalSpy &spy, const QString &clientId)
{
    QList<MqttClientEvent> out;
    for (const QList<QVariant> &args : spy)
        for (const MqttClientEvent &e : args.at(0).value<QList<MqttClientEvent>>())
            if (e.clientId == clientId)
                out << e;
    return out;
}

} // namespace

class TestActivityFeed : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = startWithSessions(m_server, u"newest"_s, {});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void followsClientsLive()
    {
        auto connections = std::make_shared<ConnectionSet>(acmeProfile(m_server));
        ActivityFeed feed;
        QSignalSpy events(&feed, &ActivityFeed::eventsArrived);
        QSignalSpy failed(&feed, &ActivityFeed::failed);
        feed.start(connections);
        QVERIFY(feed.isRunning());
        // The reader subscribes on its own thread: connect until the feed has seen a client.
        MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        QDeadlineTimer deadline(20000);
        while (eventsOf(events, u"feed-warmup"_s).isEmpty() && !deadline.hasExpired()) {
            QVERIFY2(mqtt.connectOnce(u"feed-warmup"_s).connected(), "the MQTT client could not connect");
            QTest::qWait(300);
        }
        QVERIFY2(failed.isEmpty(), qPrintable(feed.error()));
        QVERIFY(mqtt.connectOnce(u"feed-1"_s).connected());
        QTRY_VERIFY_WITH_TIMEOUT(eventsOf(events, u"feed-1"_s).size() >= 2, 20000);
        const QList<MqttClientEvent> seen = eventsOf(events, u"feed-1"_s);
        QCOMPARE(seen.at(0).kind, MqttClientEvent::Kind::Connect);
        QCOMPARE(seen.at(1).kind, MqttClientEvent::Kind::Disconnect);
        QCOMPARE(seen.at(0).account, u"ACME"_s);

        feed.stop();
        QVERIFY(!feed.isRunning());
        const qsizetype before = events.size();
        QVERIFY(mqtt.connectOnce(u"feed-after-stop"_s).connected());
        QTest::qWait(700); // the reader posts at most every 200 ms: anything it still had would be here
        QCOMPARE(events.size(), before);
    }

    void withoutSystemAccountItSaysWhy()
    {
        auto connections = std::make_shared<ConnectionSet>(acmeProfile(m_server, false));
        ActivityFeed feed;
        QSignalSpy failed(&feed, &ActivityFeed::failed);
        feed.start(connections);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty() || !feed.error().isEmpty(), 20000);
        QVERIFY(!feed.error().isEmpty());
        QVERIFY(!feed.isRunning());
    }

private:
    NatsServerFixture m_server;
};

QTEST_MAIN(TestActivityFeed)
#include "tst_activityfeed.moc"
