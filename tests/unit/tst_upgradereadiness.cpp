// UpgradeReadiness on hand-made records: which client IDs, subscriptions and retained topics a target
// version refuses or skips, against the versions the servers run now (the live test covers what a real
// 2.10 server stores).
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/findingcodes.h"
#include "diagnosis/upgradereadiness.h"
#include "mqtt/clientidhash.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

SessionEntry session(const QString &clientId, const QJsonObject &subs = {})
{
    QJsonObject rec{{u"id"_s, clientId}};
    if (!subs.isEmpty())
        rec.insert(u"subs"_s, subs);
    StreamMessage m;
    m.subject = u"$MQTT.sess."_s + ClientIdHash::hash(clientId);
    m.sequence = 1;
    m.data = QJsonDocument(rec).toJson(QJsonDocument::Compact);
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

ServerInfo server(const QString &version, qint64 maxPayload = 1048576)
{
    ServerInfo s;
    s.name = u"n1"_s;
    s.version = version;
    s.mqttKnown = true;
    s.mqttPort = 1883;
    s.maxPayload = maxPayload;
    return s;
}

SessionCheckInput state()
{
    SessionCheckInput in;
    in.account = u"ACME"_s;
    in.sessions.append(session(u"dev.1"_s));
    in.sessions.append(session(u"ok-device"_s, QJsonObject{{u"$MQTT.sub.abc"_s, 1}, {u"plant.>"_s, 1}}));
    in.sessions.append(session(u"tab\tid"_s));
    in.sessions.append(session(u"cid-03579431"_s));
    in.connected = SessionLoader::ConnectedClients{{u"cid-09191235"_s, u"n1"_s}, {u"ok-device"_s, u"n1"_s}, {u"a*b"_s, u"n1"_s}};
    in.retained = QList<RetainedTopicSize>{{u"plant/line\t1"_s, 4}, {u"del\x7f"_s, 4}, {u"big/one"_s, 2000}, {u"fine/topic"_s, 10}};
    return in;
}

QStringList summary(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code + u' ' + (f.clientId.isEmpty() ? f.title.toString() : f.clientId);
    out.sort();
    return out;
}

CheckOptions target(const QString &version)
{
    CheckOptions o;
    o.targetVersion = *ServerVersion::parse(version);
    return o;
}

} // namespace

class TestUpgradeReadiness : public QObject
{
    Q_OBJECT

private slots:
    void clientIds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("refused");
        QTest::newRow("plain") << u"sensor-17_a@b#c"_s << false;
        QTest::newRow("dot") << u"dev.1"_s << true;
        QTest::newRow("space") << u"my device"_s << true;
        QTest::newRow("tab") << u"a\tb"_s << true;
        QTest::newRow("star") << u"a*"_s << true;
        QTest::newRow("gt") << u">"_s << true;
        QTest::newRow("nul") << QString(u"a"_s + QChar(0) + u"b"_s) << true;
        QTest::newRow("slash and plus are fine") << u"a/b+c"_s << false;
        QTest::newRow("U+FFFD is valid UTF-8") << u"a\uFFFDb"_s << false;
    }
    void clientIds()
    {
        QFETCH(QString, id);
        QFETCH(bool, refused);
        QCOMPARE(!UpgradeReadiness::clientIdProblem(id).isEmpty(), refused);
    }

    void topics()
    {
        QStringList versions;
        QVERIFY(!UpgradeReadiness::topicProblem(u"a/b\tc"_s, &versions).isEmpty());
        QCOMPARE(versions, UpgradeReadiness::controlCharacterTopicVersions());
        QVERIFY(!UpgradeReadiness::topicProblem(u"a\x7f"_s, &versions).isEmpty());
        QCOMPARE(versions, UpgradeReadiness::delCharacterTopicVersions());
        QVERIFY(UpgradeReadiness::topicProblem(u"a/\x01/b"_s).isEmpty()); // accepted by 2.15.1 too
        QVERIFY(UpgradeReadiness::topicProblem(u"$sparkplug/certificates/spBv1.0/g/NBIRTH/e"_s).isEmpty());
    }

    void fromTwoTen()
    {
        const QList<Finding> fs = UpgradeReadiness::accountFindings(state(), {server(u"2.10.27"_s, 1024)}, target(u"2.14.5"_s));
        QCOMPARE(summary(fs),
                 (QStringList{
                     u"UPGRADE_CLIENT_ID_REFUSED a*b"_s,
                     u"UPGRADE_CLIENT_ID_REFUSED cid-09191235"_s,
                     u"UPGRADE_CLIENT_ID_REFUSED dev.1"_s,
                     u"UPGRADE_CLIENT_ID_REFUSED tab\tid"_s,
                     u"UPGRADE_INTERNAL_SUBSCRIPTION ok-device"_s,
                     u"UPGRADE_PAYLOAD_TOO_LARGE Retained message on big/one (2000 bytes) exceeds max_payload 1024"_s,
                     u"UPGRADE_RETAINED_SKIPPED Retained topic del\\x7f will be skipped or refused from 2.14.5"_s,
                     u"UPGRADE_RETAINED_SKIPPED Retained topic plant/line\\x091 will be skipped or refused from 2.14.5"_s,
                 }));
        for (const Finding &f : fs) {
            QCOMPARE(f.account, u"ACME"_s);
            QCOMPARE(f.severity, Finding::Severity::Warning);
            QVERIFY2(f.detail.toString().contains(u"n1 2.10.27"_s) || f.code == FindingCodes::upgradePayloadTooLarge(),
                     qPrintable(f.detail.toString()));
        }
        // The colliding ID names the record it collides with.
        for (const Finding &f : fs)
            if (f.clientId == u"cid-09191235"_s)
                QVERIFY2(f.title.toString().contains(u"cid-03579431"_s), qPrintable(f.title.toString()));
    }

    void onlyWhatTheTargetChanges()
    {
        // 2.12.8 refuses the client IDs (2.12.6+) but has neither the topic nor the subscription changes.
        QCOMPARE(summary(UpgradeReadiness::accountFindings(state(), {server(u"2.10.27"_s)}, target(u"2.12.8"_s)))
                     .join(u'|')
                     .count(u"UPGRADE_"_s),
                 4);
        // 2.11.14 changes nothing of these.
        QVERIFY(UpgradeReadiness::accountFindings(state(), {server(u"2.10.27"_s)}, target(u"2.11.14"_s)).isEmpty());
        // Servers that already refuse: nothing new (the payload limit does not depend on a version).
        QVERIFY(UpgradeReadiness::accountFindings(state(), {server(u"2.15.1"_s)}, target(u"2.15.1"_s)).isEmpty());
        // No target, no findings.
        QVERIFY(UpgradeReadiness::accountFindings(state(), {server(u"2.10.27"_s)}, CheckOptions()).isEmpty());
        // The retained messages not read: only the records are judged.
        SessionCheckInput noRetained = state();
        noRetained.retained.reset();
        for (const Finding &f : UpgradeReadiness::accountFindings(noRetained, {server(u"2.10.27"_s, 1024)}, target(u"2.14.5"_s)))
            QVERIFY(f.code == FindingCodes::upgradeClientIdRefused() || f.code == FindingCodes::upgradeInternalSubscription());
    }
};

QTEST_GUILESS_MAIN(TestUpgradeReadiness)
#include "tst_upgradereadiness.moc"
