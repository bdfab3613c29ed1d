// RequestCounter: the kind of each request subject (with and without a JetStream domain), counts that
// add up in the parent (a connection's counter in its connection set's), differences, recording.
#include <QTest>

#include "nats/requestcounter.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;
using Kind = RequestCounter::Kind;

class TestRequestCounter : public QObject
{
    Q_OBJECT

private slots:
    void kindOf_data();
    void kindOf();
    void countsAddUpInTheParent();
    void recordsOnlyWhenAsked();
};

void TestRequestCounter::kindOf_data()
{
    QTest::addColumn<QString>("subject");
    QTest::addColumn<int>("kind");
    const auto row = [](const QString &subject, Kind kind) { QTest::newRow(qPrintable(subject)) << subject << int(kind); };
    row(u"$SYS.REQ.SERVER.PING.VARZ"_s, Kind::Varz);
    row(u"$SYS.REQ.SERVER.NDJ3.VARZ"_s, Kind::Varz);
    row(u"$SYS.REQ.SERVER.PING"_s, Kind::Statsz);
    row(u"$SYS.REQ.SERVER.PING.STATSZ"_s, Kind::Statsz);
    row(u"$SYS.REQ.SERVER.PING.JSZ"_s, Kind::Jsz);
    row(u"$SYS.REQ.SERVER.PING.CONNZ"_s, Kind::Connz);
    row(u"$SYS.REQ.ACCOUNT.PING.CONNZ"_s, Kind::Connz);
    row(u"$SYS.REQ.ACCOUNT.ACME.CONNZ"_s, Kind::Connz);
    row(u"$SYS.REQ.SERVER.PING.ACCOUNTZ"_s, Kind::Accountz);
    row(u"$SYS.REQ.SERVER.PING.HEALTHZ"_s, Kind::OtherSystem);
    row(u"$JS.API.INFO"_s, Kind::JsAccountInfo);
    row(u"$JS.hub.API.INFO"_s, Kind::JsAccountInfo);
    row(u"$JS.API.STREAM.LIST"_s, Kind::StreamList);
    row(u"$JS.API.STREAM.NAMES"_s, Kind::StreamList);
    row(u"$JS.API.STREAM.INFO.$MQTT_sess"_s, Kind::StreamInfo);
    row(u"$JS.hub.API.STREAM.INFO.$MQTT_sess"_s, Kind::StreamInfo);
    row(u"$JS.API.STREAM.MSG.GET.$MQTT_msgs"_s, Kind::MessageGet);
    row(u"$JS.API.DIRECT.GET.$MQTT_rmsgs"_s, Kind::MessageGet);
    row(u"$JS.API.CONSUMER.LIST.$MQTT_msgs"_s, Kind::ConsumerList);
    row(u"$JS.API.CONSUMER.NAMES.$MQTT_out"_s, Kind::ConsumerList);
    row(u"$JS.API.CONSUMER.INFO.$MQTT_sess.abc"_s, Kind::ConsumerInfo);
    row(u"$JS.API.CONSUMER.CREATE.$MQTT_sess"_s, Kind::ConsumerCreate);
    row(u"$JS.API.CONSUMER.CREATE.$MQTT_sess.x.$MQTT.sess.>"_s, Kind::ConsumerCreate);
    row(u"$JS.API.CONSUMER.DURABLE.CREATE.$MQTT_msgs.abc_1"_s, Kind::ConsumerCreate);
    row(u"$JS.API.CONSUMER.DELETE.$MQTT_msgs.abc_1"_s, Kind::ConsumerDelete);
    row(u"$JS.API.STREAM.PURGE.$MQTT_sess"_s, Kind::OtherJetStream);
    row(u"$JS.ACK.$MQTT_msgs.x.1.2.3.4.5"_s, Kind::Other);
    row(u"$MQTT.sess.abcdefgh"_s, Kind::Other);
}

void TestRequestCounter::kindOf()
{
    QFETCH(QString, subject);
    QFETCH(int, kind);
    QCOMPARE(int(RequestCounter::kindOf(subject)), kind);
}

void TestRequestCounter::countsAddUpInTheParent()
{
    auto set = std::make_shared<RequestCounter>();
    RequestCounter a(set);
    RequestCounter b(set);
    const RequestCounter::Counts before = set->counts();
    a.noteRequest(u"$SYS.REQ.SERVER.PING.VARZ"_s);
    a.noteRequest(u"$JS.API.STREAM.INFO.$MQTT_sess"_s);
    b.noteRequest(u"$JS.API.STREAM.INFO.$MQTT_msgs"_s);
    b.noteOrderedConsumer(u"$MQTT_sess"_s);
    b.noteRequest(u"$JS.API.CONSUMER.CREATE.$MQTT_sess"_s);
    QCOMPARE(a.count(Kind::Varz), 1u);
    QCOMPARE(b.count(Kind::StreamInfo), 1u);
    QCOMPARE(b.count(Kind::ConsumerCreate), 1u);
    const RequestCounter::Counts diff = set->counts() - before;
    QCOMPARE(diff[Kind::Varz], 1u);
    QCOMPARE(diff[Kind::StreamInfo], 2u);
    QCOMPARE(diff[Kind::OrderedConsumer], 1u);
    QCOMPARE(diff[Kind::ConsumerCreate], 1u);
    QCOMPARE(diff.requests(), 4u); // the ordered consumer counts through its CONSUMER.CREATE
    QCOMPARE(diff.toString(), u"VARZ 1, STREAM.INFO 2, CONSUMER.CREATE 1, ordered consumer 1"_s);
}

void TestRequestCounter::recordsOnlyWhenAsked()
{
    auto set = std::make_shared<RequestCounter>();
    RequestCounter conn(set);
    conn.noteRequest(u"$JS.API.INFO"_s);
    set->setRecording(true);
    conn.noteRequest(u"$JS.API.STREAM.LIST"_s);
    conn.noteOrderedConsumer(u"$MQTT_sess"_s);
    QCOMPARE(set->recorded(), (QStringList{u"$JS.API.STREAM.LIST"_s, u"ordered consumer $MQTT_sess"_s}));
    QVERIFY(conn.recorded().isEmpty());
    set->clearRecorded();
    QVERIFY(set->recorded().isEmpty());
}

QTEST_GUILESS_MAIN(TestRequestCounter)
#include "tst_requestcounter.moc"
