// ConsumerOwner, the one rule for who owns a durable of $MQTT_msgs/$MQTT_out: each kind of owner, and
// for every case that ORPHAN_CONSUMER (Checks::checkSessions) reports exactly the consumers the rule
// calls orphans. The cases where the consumers view used to have its own rule (a connected
// clean-session client's durables, durables on the hash of an undecodable record, names that are not
// the gateway's) are among them.
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/consumerowner.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/sessionchecks.h"
#include "mqtt/clientidhash.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

using Kind = ConsumerOwner::Kind;

SessionEntry session(const QString &clientId, const QStringList &durables)
{
    QJsonObject cons;
    for (const QString &d : durables)
        cons.insert(u"t."_s + d, QJsonObject{{u"durable_name"_s, d}});
    StreamMessage m;
    m.subject = u"$MQTT.sess."_s + ClientIdHash::hash(clientId);
    m.sequence = 1;
    m.data = QJsonDocument(QJsonObject{{u"id"_s, clientId}, {u"cons"_s, cons}}).toJson(QJsonDocument::Compact);
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

SessionEntry undecodable(const QString &hash)
{
    StreamMessage m;
    m.subject = u"$MQTT.sess."_s + hash;
    m.sequence = 2;
    m.data = "{not json";
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

QJsonObject consumer(const QString &name)
{
    return QJsonObject{{u"name"_s, name}, {u"num_pending"_s, 3}, {u"config"_s, QJsonObject{{u"durable_name"_s, name}}}};
}

struct Case
{
    QList<SessionEntry> sessions;
    QList<QJsonObject> msgs;
    QList<QJsonObject> out;
    std::optional<SessionLoader::ConnectedClients> connected = SessionLoader::ConnectedClients{};
};

SessionCheckInput inputOf(const Case &c)
{
    SessionCheckInput in;
    in.account = u"ACME"_s;
    in.consumersKnown = true;
    SessionLoader::indexConsumers(in.consumers, u"$MQTT_msgs"_s, c.msgs);
    SessionLoader::indexConsumers(in.consumers, u"$MQTT_out"_s, c.out);
    for (SessionEntry e : c.sessions) {
        SessionLoader::joinConsumers(e, in.consumers, true);
        in.sessions.append(e);
    }
    in.connected = c.connected;
    return in;
}

const QString h1 = ClientIdHash::hash(u"dev-1"_s);
const QString hClean = ClientIdHash::hash(u"clean-7"_s);
const QString hGone = ClientIdHash::hash(u"gone-9"_s);
const QString hBroken = ClientIdHash::hash(u"broken-4"_s);

} // namespace

Q_DECLARE_METATYPE(Case)

class TestConsumerOwner : public QObject
{
    Q_OBJECT

private slots:
    void owners_data();
    void owners();
    void unknownConsumers();
    void legacyRecordsOwnNothing();
};

void TestConsumerOwner::owners_data()
{
    QTest::addColumn<Case>("input");
    QTest::addColumn<QString>("consumer");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("clientId");

    QTest::newRow("named by its record") << Case{{session(u"dev-1"_s, {h1 + u"_a"_s})}, {consumer(h1 + u"_a"_s)}, {}} << h1 + u"_a"_s
                                         << int(Kind::Session) << u"dev-1"_s;
    QTest::newRow("pubrel named by nobody, no record")
        << Case{{}, {}, {consumer(u"$MQTT_PUBREL_"_s + hGone)}} << u"$MQTT_PUBREL_"_s + hGone << int(Kind::Orphan) << QString();
    QTest::newRow("record on the hash does not name it")
        << Case{{session(u"dev-1"_s, {h1 + u"_a"_s})}, {consumer(h1 + u"_a"_s), consumer(h1 + u"_old"_s)}, {}} << h1 + u"_old"_s
        << int(Kind::Orphan) << QString();
    // The consumers view used to call these orphans; ORPHAN_CONSUMER never did.
    QTest::newRow("connected clean-session client")
        << Case{{}, {consumer(hClean + u"_q"_s)}, {}, SessionLoader::ConnectedClients{{u"clean-7"_s, u"n1"_s}}} << hClean + u"_q"_s
        << int(Kind::ConnectedClient) << u"clean-7"_s;
    QTest::newRow("undecodable record on the hash") << Case{{undecodable(hBroken)}, {consumer(hBroken + u"_z"_s)}, {}} << hBroken + u"_z"_s
                                                    << int(Kind::UndecodableRecord) << QString();
    QTest::newRow("not a gateway name") << Case{{}, {consumer(u"my-durable"_s)}, {}} << u"my-durable"_s << int(Kind::NotMqtt) << QString();
    QTest::newRow("no system connection: still an orphan")
        << Case{{}, {consumer(hGone + u"_x"_s)}, {}, std::nullopt} << hGone + u"_x"_s << int(Kind::Orphan) << QString();
}

void TestConsumerOwner::owners()
{
    QFETCH(Case, input);
    QFETCH(QString, consumer);
    QFETCH(int, kind);
    QFETCH(QString, clientId);
    const SessionCheckInput in = inputOf(input);
    const QList<ConsumerOwner> owners = ConsumerOwner::ofAccount(in);
    QCOMPARE(owners.size(), in.consumers.size());
    const auto it = std::find_if(owners.cbegin(), owners.cend(), [&](const ConsumerOwner &o) { return o.name == consumer; });
    QVERIFY(it != owners.cend());
    QCOMPARE(int(it->kind), kind);
    QCOMPARE(it->clientId, clientId);
    QCOMPARE(it->connectedUnknown, !input.connected.has_value());
    if (it->kind == Kind::Orphan && consumer.endsWith(u"_old"_s))
        QCOMPARE(it->recordOnHash, u"dev-1"_s);

    // ORPHAN_CONSUMER reports exactly the rule's orphans.
    QStringList ruleOrphans;
    for (const ConsumerOwner &o : owners)
        if (o.isOrphan())
            ruleOrphans << o.name;
    QStringList reported;
    for (const Finding &f : Checks::checkSessions(in))
        if (f.code == FindingCodes::orphanConsumer())
            for (const ConsumerOwner &o : owners)
                if (f.title.contains(o.name + u" on"_s))
                    reported << o.name;
    ruleOrphans.sort();
    reported.sort();
    QCOMPARE(reported, ruleOrphans);
    QCOMPARE(ruleOrphans.contains(consumer), kind == int(Kind::Orphan));
}

void TestConsumerOwner::unknownConsumers()
{
    SessionCheckInput in = inputOf(Case{{}, {consumer(hGone + u"_x"_s)}, {}});
    in.consumersKnown = false;
    QVERIFY(ConsumerOwner::ofAccount(in).isEmpty());
}

void TestConsumerOwner::legacyRecordsOwnNothing()
{
    SessionEntry legacy = session(u"dev-1"_s, {h1 + u"_a"_s});
    SessionLoader::markLegacy(legacy, u"$MQTT_sess_"_s + h1);
    const SessionCheckInput in = inputOf(Case{{legacy}, {consumer(h1 + u"_a"_s)}, {}});
    const QList<ConsumerOwner> owners = ConsumerOwner::ofAccount(in);
    QCOMPARE(owners.size(), 1);
    QCOMPARE(owners.first().kind, Kind::Orphan);
}

QTEST_GUILESS_MAIN(TestConsumerOwner)
#include "tst_consumerowner.moc"
