// Repair under a JetStream domain: the session records live on $MQTT.sess.<domain>.<hash> and the
// sessions stream captures $MQTT.sess.<domain>.>. A garbage record, a session whose durable was deleted and a wrong
// max_msgs_per_subject are broken for real; `repair --yes` (with and without --js-domain) fixes them, check is clean,
// the clients resume with their queued messages, and the untouched session's record and messages are as before.

#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "natsserverbinary.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::Literals::StringLiterals;

namespace {

const QString kDomain = u"hub"_s;

QString sessSubject(const QString &clientId)
{
    return u"$MQTT.sess.%1.%2"_s.arg(kDomain, ClientIdHash::hash(clientId));
}

QStringList codesOf(const CliRunner::Run &run)
{
    QStringList out;
    for (const QJsonObject &f : stateFindings(run))
        out << str(f, "code");
    out.sort();
    return out;
}

} // namespace

class TestRepairDomain : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void repairInDomain_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("domainFlag");
        for (const QString &label : NatsServerBinary::testVersionLabels())
            QTest::addRow("%s", qPrintable(label)) << label << (label != u"2.10"_s);
    }
    void repairInDomain()
    {
        QFETCH(QString, version);
        QFETCH(bool, domainFlag);
        ServerConfig config = ServerConfig::standard();
        config.setJetStreamDomain(kDomain);
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), u"acme"_s, u"acmepass"_s);
        mqtt.setTimeoutMs(30000);
        QVERIFY(mqtt.createPersistentSession(u"dom-keeper"_s, {u"keep/#"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"dom-victim"_s, {u"victim/#"_s}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(u"dom-garbage"_s, {u"junk/#"_s}, 1).subscribed());
        QVERIFY(mqtt.publish(u"keep/a"_s, "kept-1", 1).acknowledged);

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        const QString victimHash = ClientIdHash::hash(u"dom-victim"_s);
        const QString keeperHash = ClientIdHash::hash(u"dom-keeper"_s);
        QString victimDurable;
        for (const QString &name : admin.consumerNames(u"$MQTT_msgs"_s))
            if (name.startsWith(victimHash + u'_'))
                victimDurable = name;
        QVERIFY2(!victimDurable.isEmpty(), qPrintable(admin.consumerNames(u"$MQTT_msgs"_s).join(u',')));
        QVERIFY2(admin.call(u"CONSUMER.DELETE.$MQTT_msgs."_s + victimDurable), qPrintable(admin.error()));
        QVERIFY2(admin.store(sessSubject(u"dom-garbage"_s), "{\"id\": 17, \"not\": \"a session\""), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(u"$MQTT_sess"_s, {{u"max_msgs_per_subject"_s, 3}}), qPrintable(admin.error()));

        const QStringList domain = domainFlag ? QStringList{u"--js-domain"_s, kDomain} : QStringList{};
        const QStringList before = codesOf(check(acmeWithSystemArgs(server.url()) + domain));
        for (const QString &code : {u"SESSION_UNDECODABLE"_s, u"SESSION_MISSING_CONSUMER"_s, u"STREAM_CONFIG_WRONG"_s})
            QVERIFY2(before.contains(code), qPrintable(code + u" missing from "_s + before.join(u',')));
        QStringList keeperDurables;
        for (const QString &name : admin.consumerNames(u"$MQTT_msgs"_s))
            if (name.startsWith(keeperHash + u'_'))
                keeperDurables << name;
        QVERIFY(!keeperDurables.isEmpty()); // "keep/#" is two NATS subscriptions: keep and keep.>

        QTemporaryDir dir;
        const CliRunner::Run repair = CliRunner::run(
            acmeWithSystemArgs(server.url()) + domain
                + QStringList{u"--allow-changes"_s, u"repair"_s, u"--yes"_s, u"--backup-dir"_s, dir.filePath(u"backups"_s), u"--json"_s},
            180000);
        QVERIFY2(repair.exitCode() == 0 && repair.jsonValid, qPrintable(repair.describe()));
        const QJsonArray steps = repair.json.value(u"plan"_s).toObject().value(u"steps"_s).toArray();
        QStringList actions;
        for (const QJsonValue &v : steps)
            actions << v.toObject().value(u"action"_s).toString();
        QVERIFY2(actions.contains(u"purge_session"_s) && actions.contains(u"create_consumer"_s) && actions.contains(u"update_stream"_s),
                 qPrintable(actions.join(u',')));
        // The purge names the domain's subject, never the plain $MQTT.sess.<hash>.
        const QString requests = QString::fromUtf8(QJsonDocument(steps).toJson(QJsonDocument::Compact));
        QVERIFY2(requests.contains(sessSubject(u"dom-garbage"_s)), qPrintable(requests));

        // Clean with and without the flag; the keeper's durable is the same one, and the record is back at 1 per subject.
        for (const QStringList &extra : {QStringList{}, QStringList{u"--js-domain"_s, kDomain}}) {
            const CliRunner::Run after = check(acmeWithSystemArgs(server.url()) + extra);
            QVERIFY2(findingsAbove(after, u"warning"_s).isEmpty(), qPrintable(describe(after)));
        }
        QStringList keeperAfter;
        for (const QString &name : admin.consumerNames(u"$MQTT_msgs"_s))
            if (name.startsWith(keeperHash + u'_'))
                keeperAfter << name;
        QCOMPARE(keeperAfter, keeperDurables);
        QCOMPARE(admin.streamConfig(u"$MQTT_sess"_s)->value(u"max_msgs_per_subject"_s).toInteger(), 1);

        // Real clients: the keeper gets its queued message, the victim gets one queued after the repair, the
        // client whose record was garbage connects with a persistent session again.
        const MqttResult keeper = mqtt.subscribeAndCollect(u"dom-keeper"_s, {u"keep/#"_s}, 1, 1, 10, true);
        QVERIFY2(keeper.receivedPayloads().contains(u"kept-1"_s), qPrintable(keeper.describe()));
        QVERIFY(mqtt.publish(u"victim/x"_s, "queued-for-victim", 1).acknowledged);
        const MqttResult victim = mqtt.subscribeAndCollect(u"dom-victim"_s, {u"victim/#"_s}, 1, 1, 10, true);
        QVERIFY2(victim.receivedPayloads().contains(u"queued-for-victim"_s), qPrintable(victim.describe()));
        const MqttResult garbage = mqtt.createPersistentSession(u"dom-garbage"_s, {u"junk/#"_s}, 1);
        QVERIFY2(garbage.subscribed(), qPrintable(garbage.describe()));
    }
};

QTEST_GUILESS_MAIN(TestRepairDomain)
#include "tst_repairdomain.moc"
