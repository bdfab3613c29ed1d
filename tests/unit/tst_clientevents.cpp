// MQTT client events from the servers' advisories (MqttClientEvent) and takeover storms (TakeoverWatch),
// no server: the advisory shapes of a connect and a disconnect (an MQTT client's, a NATS client's that is
// skipped, other advisory types, malformed ones), and the sliding window: more than the threshold
// "Duplicate Client ID" closes of one client ID within the window is one storm, reported once, with the
// addresses it came from; other reasons, other client IDs and an emptied window do not add up.
#include <QTest>

#include "activity/mqttclientevent.h"
#include "activity/takeoverwatch.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

QByteArray advisory(const QString &type, const QString &clientType, const QString &clientId, const QString &reason = {})
{
    QString json =
        uR"({"type":"io.nats.server.advisory.v1.%1","id":"x","timestamp":"2026-12-05T08:00:01.250Z",)"
        uR"("server":{"name":"n1","host":"0.0.0.0","id":"NABC","ver":"2.12.1","seq":7,"jetstream":true,"time":"2026-12-05T08:00:01.25Z"},)"
        uR"("client":{"start":"2026-12-05T08:00:01Z","host":"10.0.0.7","id":42,"acc":"ACME","user":"acme","lang":"","ver":"",)"
        uR"("server":"n1","kind":"Client","client_type":"%2","client_id":"%3"})"_s.arg(type, clientType, clientId);
    if (!reason.isEmpty())
        json += uR"(,"reason":"%1")"_s.arg(reason);
    return (json + u'}').toUtf8();
}

MqttClientEvent takeover(const QString &clientId, const QDateTime &time, const QString &address = u"10.0.0.7"_s)
{
    MqttClientEvent e;
    e.kind = MqttClientEvent::Kind::Disconnect;
    e.account = u"ACME"_s;
    e.clientId = clientId;
    e.time = time;
    e.address = address;
    e.reason = MqttClientEvent::takeoverReason();
    return e;
}

} // namespace

class TestClientEvents : public QObject
{
    Q_OBJECT

private slots:
    void parsesAdvisories()
    {
        const auto connect = MqttClientEvent::fromAdvisory(advisory(u"client_connect"_s, u"mqtt"_s, u"dev-1"_s));
        QVERIFY(connect);
        QCOMPARE(connect->kind, MqttClientEvent::Kind::Connect);
        QCOMPARE(connect->account, u"ACME"_s);
        QCOMPARE(connect->clientId, u"dev-1"_s);
        QCOMPARE(connect->server, u"n1"_s);
        QCOMPARE(connect->address, u"10.0.0.7"_s);
        QCOMPARE(connect->user, u"acme"_s);
        QCOMPARE(connect->connectionId, quint64(42));
        QCOMPARE(connect->time, QDateTime(QDate(2026, 12, 5), QTime(8, 0, 1, 250), Qt::UTC));
        QVERIFY(connect->reason.isEmpty() && !connect->isTakeover());
        QCOMPARE(connect->toJson().value(u"event"_s).toString(), u"connect"_s);
        QVERIFY(connect->toJson().value(u"reason"_s).isNull());
        QCOMPARE(connect->text(), u"2026-12-05T08:00:01.250Z  ACME  dev-1  n1  10.0.0.7  connect"_s);

        const auto gone = MqttClientEvent::fromAdvisory(advisory(u"client_disconnect"_s, u"mqtt"_s, u"dev-1"_s, u"Duplicate Client ID"_s));
        QVERIFY(gone && gone->isTakeover());
        QVERIFY(gone->text().endsWith(u"disconnect (Duplicate Client ID)"_s));

        QVERIFY(!MqttClientEvent::fromAdvisory(advisory(u"client_connect"_s, u"nats"_s, QString()))); // not MQTT
        QVERIFY(!MqttClientEvent::fromAdvisory(advisory(u"client_auth"_s, u"mqtt"_s, u"dev-1"_s))); // another advisory
        QVERIFY(!MqttClientEvent::fromAdvisory("{\"type\":")); // truncated
        QVERIFY(!MqttClientEvent::fromAdvisory("[1,2]"));
        QVERIFY(!MqttClientEvent::fromAdvisory(""));
    }

    void stormAboveThresholdInWindow()
    {
        TakeoverWatch::Options options;
        options.threshold = 3;
        options.windowMs = 60000;
        TakeoverWatch watch(options);
        const QDateTime t0(QDate(2026, 12, 5), QTime(8, 0), Qt::UTC);
        // Other reasons and a connect's address: counted nowhere but the addresses.
        MqttClientEvent connect;
        connect.account = u"ACME"_s;
        connect.clientId = u"dup"_s;
        connect.time = t0;
        connect.address = u"10.0.0.8"_s;
        QVERIFY(!watch.add(connect));
        MqttClientEvent closed = takeover(u"dup"_s, t0);
        closed.reason = u"Client Closed"_s;
        QVERIFY(!watch.add(closed));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!watch.add(takeover(u"dup"_s, t0.addSecs(10 * i))));
        const auto storm = watch.add(takeover(u"dup"_s, t0.addSecs(30)));
        QVERIFY(storm);
        QCOMPARE(storm->takeovers, 4);
        QCOMPARE(storm->clientId, u"dup"_s);
        QCOMPARE(storm->addresses, (QStringList{u"10.0.0.8"_s, u"10.0.0.7"_s}));
        QCOMPARE(storm->first, t0);
        QVERIFY(!watch.add(takeover(u"dup"_s, t0.addSecs(31)))); // reported once
        // Another client ID does not add up with it.
        for (int i = 0; i < 3; ++i)
            QVERIFY(!watch.add(takeover(u"other"_s, t0.addSecs(i))));
        QCOMPARE(watch.takeovers(), 8);
        const QList<TakeoverWatch::Storm> storms = watch.storms();
        QCOMPARE(storms.size(), 1);
        QCOMPARE(storms.first().takeovers, 5);
    }

    void spreadOutIsNoStorm()
    {
        TakeoverWatch::Options options;
        options.threshold = 2;
        options.windowMs = 10000;
        TakeoverWatch watch(options);
        const QDateTime t0(QDate(2026, 12, 5), QTime(8, 0), Qt::UTC);
        for (int i = 0; i < 10; ++i)
            QVERIFY(!watch.add(takeover(u"slow"_s, t0.addSecs(20 * i)))); // one per 20 s, window 10 s
        QVERIFY(watch.storms().isEmpty());
        // The same client ID later in a burst: a storm then.
        QVERIFY(!watch.add(takeover(u"slow"_s, t0.addSecs(400))));
        QVERIFY(!watch.add(takeover(u"slow"_s, t0.addSecs(401))));
        QVERIFY(watch.add(takeover(u"slow"_s, t0.addSecs(402))));
        // Without a client ID nothing can be tracked.
        QVERIFY(!watch.add(takeover(QString(), t0)));
    }
};

QTEST_GUILESS_MAIN(TestClientEvents)
#include "tst_clientevents.moc"
