// The record-level findings of `check` (docs/findings.md) against real servers of every version: sessions
// made by real MQTT clients (mosquitto), then broken for real the way operators and careless tools break
// them: a garbage record on a client's subject, a record with a foreign id, a consumer deleted from under
// a session, a record purged while its durables remain, the colliding IDs cid-03579431 / cid-09191235,
// a stale session, and duplicate records after max_msgs_per_subject was raised.
#include <QJsonArray>
#include <QProcess>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "persistentsessionfixture.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "records/sessionloader.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

QString sessSubject(const QString &clientId)
{
    return QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(clientId);
}

/** The account's own connection, as a careless operator's tool would hold it. */
struct Acme
{
    Profile profile;
    std::unique_ptr<ConnectionSet> connections;
    std::shared_ptr<NatsConnection> conn;

    explicit Acme(const QString &url)
    {
        profile.servers = {url};
        profile.auth.kind = Credentials::Kind::UserPassword;
        profile.auth.user = QStringLiteral("acme");
        profile.auth.password = QStringLiteral("acmepass");
        connections = std::make_unique<ConnectionSet>(profile);
        if (auto c = connections->primary())
            conn = *c;
    }

    /** A JetStream publish (normal inbox reply; never a $MQTT.JSA reply subject). Empty on success. */
    QString publish(const QString &subject, const QByteArray &data)
    {
        auto reply = conn->request(subject, data, 5000);
        if (!reply)
            return reply.error().toString();
        const QByteArray body = reply->data;
        return body.contains("\"seq\"") ? QString() : QString::fromUtf8(body);
    }

    Result<QJsonObject> api(const QString &op, const QJsonObject &body = {})
    {
        JetStreamClient js(conn);
        return js.call(op, body);
    }

    QStringList consumerNames(const QString &stream)
    {
        JetStreamClient js(conn);
        QStringList out;
        if (auto list = js.consumerList(stream))
            for (const QJsonObject &c : *list)
                out << c.value(QLatin1String("name")).toString();
        out.sort();
        return out;
    }

    /** name -> messages, consumers: what a check must not change. */
    QMap<QString, QString> snapshot()
    {
        JetStreamClient js(conn);
        QMap<QString, QString> out;
        auto streams = js.streamList();
        if (!streams)
            return {{QStringLiteral("error"), streams.error().toString()}};
        for (const QJsonObject &s : *streams) {
            const QString name = s.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString();
            out.insert(name,
                       QStringLiteral("%1 msgs; consumers %2")
                           .arg(s.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger())
                           .arg(consumerNames(name).join(QLatin1Char(','))));
        }
        return out;
    }
};

QStringList codesOf(const CliRunner::Run &run)
{
    QStringList out;
    for (const QJsonObject &f : stateFindings(run))
        out << str(f, "code");
    out.sort();
    return out;
}

QList<QJsonObject> withClient(const CliRunner::Run &run, const QString &code, const QString &clientId)
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : findingsWith(run, code))
        if (str(f, "client_id") == clientId)
            out.append(f);
    return out;
}

const QStringList recordCodes{QStringLiteral("SESSION_UNDECODABLE"),      QStringLiteral("SESSION_ID_MISMATCH"),
                              QStringLiteral("SESSION_HASH_COLLISION"),   QStringLiteral("SESSION_MISSING_CONSUMER"),
                              QStringLiteral("ORPHAN_CONSUMER"),          QStringLiteral("SESSION_STALE"),
                              QStringLiteral("DUPLICATE_SESSION_RECORDS")};

bool hasRecordFinding(const CliRunner::Run &run)
{
    for (const QString &c : codesOf(run))
        if (recordCodes.contains(c))
            return true;
    return false;
}

QProcess *startSubscriber(QObject *parent, quint16 port, const QString &clientId, bool clean, const QString &topic)
{
    auto *p = new QProcess(parent);
    QStringList args{QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                     QStringLiteral("-p"), QString::number(port),
                     QStringLiteral("-u"), QStringLiteral("acme"),
                     QStringLiteral("-P"), QStringLiteral("acmepass"),
                     QStringLiteral("-i"), clientId,
                     QStringLiteral("-q"), QStringLiteral("1"),
                     QStringLiteral("-t"), topic};
    if (!clean)
        args << QStringLiteral("-c");
    p->start(QStringLiteral("mosquitto_sub"), args);
    p->waitForStarted(5000);
    return p;
}

} // namespace

class TestSessionChecks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void brokenRecords_data() { addServerVersionRows(); }

    void brokenRecords()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        MqttClient &mqtt = lab.mqtt();
        const QStringList ids{QStringLiteral("healthy-1"), QStringLiteral("victim-2"), QStringLiteral("orphan-3"),
                              QStringLiteral("garbage-4"), QStringLiteral("cid-03579431")};
        const bool qos2 = version != QLatin1String("2.9"); // 2.10+: a QoS 2 subscription adds $MQTT_PUBREL_<hash> on $MQTT_out
        for (const QString &id : ids) {
            const int qos = qos2 && id == QLatin1String("orphan-3") ? 2 : 1;
            const MqttResult r = lab.addSession(id, {QStringLiteral("site/%1/#").arg(id)}, qos);
            QVERIFY2(r.subscribed(), qPrintable(r.describe()));
        }
        QVERIFY2(mqtt.publish(QStringLiteral("site/victim-2/alarm"), "queued", 1).acknowledged, "queued publish");
        const QString url = lab.url();
        Acme acme(url);
        QVERIFY(acme.conn);

        // Healthy: no record-level finding, and the check changes nothing.
        const QMap<QString, QString> before = acme.snapshot();
        const auto healthy = check(lab.cliArgs());
        QVERIFY2(healthy.jsonValid, qPrintable(describe(healthy)));
        QVERIFY2(!hasRecordFinding(healthy), qPrintable(describe(healthy)));
        QCOMPARE(healthy.json.value(QLatin1String("records_checked")).toArray(), QJsonArray{LiveCheck::acme()});
        QCOMPARE(acme.snapshot(), before);

        // Break them.
        QVERIFY2(acme.publish(sessSubject(QStringLiteral("garbage-4")), "this is not a session").isEmpty(), "garbage record");
        const QByteArray foreign = R"({"origin":"x","id":"someone-else","subs":{"a":1}})";
        QVERIFY2(acme.publish(sessSubject(QStringLiteral("mismatch-5")), foreign).isEmpty(), "foreign record");
        const QString victimHash = ClientIdHash::hash(QStringLiteral("victim-2"));
        QString victimDurable;
        for (const QString &name : acme.consumerNames(QStringLiteral("$MQTT_msgs")))
            if (name.startsWith(victimHash + QLatin1Char('_')))
                victimDurable = name;
        QVERIFY(!victimDurable.isEmpty());
        QVERIFY(acme.api(QStringLiteral("CONSUMER.DELETE.$MQTT_msgs.") + victimDurable));
        QVERIFY(acme.api(QStringLiteral("STREAM.PURGE.$MQTT_sess"),
                         QJsonObject{{QStringLiteral("filter"), sessSubject(QStringLiteral("orphan-3"))}}));
        const QString orphanHash = ClientIdHash::hash(QStringLiteral("orphan-3"));

        const auto broken = check(lab.cliArgs(), {QStringLiteral("--client-id"), QStringLiteral("cid-09191235")});
        QVERIFY2(broken.jsonValid, qPrintable(describe(broken)));
        QCOMPARE(broken.exitCode(), 2);

        const QList<QJsonObject> undecodable = findingsWith(broken, QStringLiteral("SESSION_UNDECODABLE"));
        QCOMPARE(undecodable.size(), 1);
        QCOMPARE(str(undecodable.first(), "subject"), sessSubject(QStringLiteral("garbage-4")));
        QCOMPARE(str(undecodable.first(), "severity"), QStringLiteral("critical"));
        QCOMPARE(str(undecodable.first(), "repair"), QStringLiteral("purge_session"));

        const QList<QJsonObject> mismatch = findingsWith(broken, QStringLiteral("SESSION_ID_MISMATCH"));
        QCOMPARE(mismatch.size(), 1);
        QCOMPARE(str(mismatch.first(), "client_id"), QStringLiteral("someone-else"));
        QCOMPARE(str(mismatch.first(), "subject"), sessSubject(QStringLiteral("mismatch-5")));

        const QList<QJsonObject> missing = withClient(broken, QStringLiteral("SESSION_MISSING_CONSUMER"), QStringLiteral("victim-2"));
        QCOMPARE(missing.size(), 1);
        QVERIFY2(str(missing.first(), "title").contains(victimDurable), qPrintable(describe(broken)));
        QCOMPARE(str(missing.first(), "repair"), QStringLiteral("create_consumer"));
        QCOMPARE(findingsWith(broken, QStringLiteral("SESSION_MISSING_CONSUMER")).size(), 1);

        // Every durable of orphan-3 is an orphan; no other durable is.
        const QList<QJsonObject> orphans = findingsWith(broken, QStringLiteral("ORPHAN_CONSUMER"));
        QVERIFY2(!orphans.isEmpty(), qPrintable(describe(broken)));
        int pubrelOrphans = 0;
        for (const QJsonObject &o : orphans) {
            QCOMPARE(str(o, "repair"), QStringLiteral("delete_consumer"));
            if (str(o, "stream") == QLatin1String("$MQTT_out")) {
                QVERIFY2(str(o, "title").contains(QStringLiteral("$MQTT_PUBREL_") + orphanHash), qPrintable(describe(broken)));
                ++pubrelOrphans;
                continue;
            }
            QCOMPARE(str(o, "stream"), QStringLiteral("$MQTT_msgs"));
            QVERIFY2(str(o, "title").contains(orphanHash + QLatin1Char('_')), qPrintable(describe(broken)));
        }
        QCOMPARE(pubrelOrphans, qos2 ? 1 : 0);
        int orphanDurables = 0;
        for (const QString &name : acme.consumerNames(QStringLiteral("$MQTT_msgs")))
            orphanDurables += name.startsWith(orphanHash + QLatin1Char('_')) ? 1 : 0;
        QVERIFY(orphanDurables >= 1);
        QCOMPARE(orphans.size(), orphanDurables + pubrelOrphans);

        const QList<QJsonObject> collision = findingsWith(broken, QStringLiteral("SESSION_HASH_COLLISION"));
        QCOMPARE(collision.size(), 1);
        QCOMPARE(str(collision.first(), "client_id"), QStringLiteral("cid-03579431"));
        QVERIFY(str(collision.first(), "title").contains(QStringLiteral("cid-09191235")));
        QVERIFY(str(collision.first(), "title").contains(QStringLiteral("1fbmU9bb")));
        // Without the operator's hint the second ID is unknown: no collision.
        QVERIFY(findingsWith(check(lab.cliArgs()), QStringLiteral("SESSION_HASH_COLLISION")).isEmpty());
        // `session` tells the cases apart: the colliding ID's subject holds the other client's session (a
        // collision); mismatch-5's subject holds a record of a client whose ID does not hash there (a foreign record).
        const CliRunner::Run other = CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("session"), QStringLiteral("cid-09191235")});
        QVERIFY2(other.exitCode() == 3 && other.err().contains(QStringLiteral("SESSION_HASH_COLLISION"))
                     && other.err().contains(QStringLiteral("cid-03579431")),
                 qPrintable(other.describe()));
        const CliRunner::Run foreignRecord =
            CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("session"), QStringLiteral("mismatch-5")});
        QVERIFY2(foreignRecord.exitCode() == 3 && foreignRecord.err().contains(QStringLiteral("SESSION_ID_MISMATCH"))
                     && foreignRecord.err().contains(QStringLiteral("someone-else")),
                 qPrintable(foreignRecord.describe()));

        // Nothing stale at the default threshold; everything persistent and disconnected past 1s.
        QVERIFY(findingsWith(broken, QStringLiteral("SESSION_STALE")).isEmpty());
        // Ages are whole seconds: "older than 1s" means written 2 s ago or more. The commands between the
        // sessions' creation and here may take well under a second.
        QTest::qWait(2100);
        QProcess *online = startSubscriber(this, lab.mqttPort(), QStringLiteral("healthy-1"), false, QStringLiteral("site/healthy-1/#"));
        bool onlineSeen = false;
        CliRunner::Run stale;
        for (int i = 0; i < 20 && !onlineSeen; ++i) {
            QTest::qWait(250);
            stale = check(lab.cliArgs(), {QStringLiteral("--stale-after"), QStringLiteral("1s")});
            onlineSeen = stale.jsonValid && !withClient(stale, QStringLiteral("SESSION_STALE"), QStringLiteral("cid-03579431")).isEmpty()
                && withClient(stale, QStringLiteral("SESSION_STALE"), QStringLiteral("healthy-1")).isEmpty();
        }
        online->kill();
        online->waitForFinished(5000);
        QVERIFY2(onlineSeen, qPrintable(describe(stale)));
        const QList<QJsonObject> victimStale = withClient(stale, QStringLiteral("SESSION_STALE"), QStringLiteral("victim-2"));
        QCOMPARE(victimStale.size(), 1);
        QCOMPARE(str(victimStale.first(), "repair"), QStringLiteral("delete_session"));
        QCOMPARE(withClient(stale, QStringLiteral("SESSION_STALE"), QStringLiteral("cid-03579431")).size(), 1);
        const auto badThreshold = check(lab.cliArgs(), {QStringLiteral("--stale-after"), QStringLiteral("soon")});
        QCOMPARE(badThreshold.exitCode(), 64); // a usage error
        QVERIFY2(badThreshold.out().contains(QStringLiteral("--stale-after")), qPrintable(describe(badThreshold)));

        // A check changes nothing (the broken state included), and leaves no consumer of its own behind. This
        // comes before the runs with a 1 ms timeout below: those may end while their ordered read's ephemeral
        // consumer exists, which the server removes a few seconds later by itself.
        const QMap<QString, QString> brokenState = acme.snapshot();
        check(lab.cliArgs());
        const QMap<QString, QString> afterCheck = acme.snapshot();
        for (auto it = brokenState.cbegin(); it != brokenState.cend(); ++it)
            QCOMPARE(afterCheck.value(it.key()), it.value());
        QCOMPARE(afterCheck.keys(), brokenState.keys());

        // Without a system connection: no SESSION_STALE, and the note says why.
        // A check that cannot read everything in time never says "no problem": with a 1 ms timeout some runs
        // connect and read part of the account, some do not even connect. The account has a critical record,
        // so each run either finds it (exit 2) or says it could not check (exit 3), never 0 or 1.
        for (int i = 0; i < 8; ++i) {
            const CliRunner::Run hurried = CliRunner::run(
                lab.cliArgs()
                + QStringList{QStringLiteral("--timeout"), QStringLiteral("1ms"), QStringLiteral("check"), QStringLiteral("--json")});
            QVERIFY2(hurried.exitCode() == 2 || hurried.exitCode() == 3, qPrintable(describe(hurried)));
            if (hurried.exitCode() == 3 && hurried.jsonValid && hurried.json.contains(QLatin1String("findings")))
                QVERIFY2(!hurried.json.value(QLatin1String("coverage_complete")).toBool(true)
                             || !hurried.json.value(QLatin1String("unanswered_servers")).toArray().isEmpty(),
                         qPrintable(describe(hurried)));
            const CliRunner::Run hurriedText =
                CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("--timeout"), QStringLiteral("1ms"), QStringLiteral("check")});
            QVERIFY2(hurriedText.exitCode() == 2 || hurriedText.exitCode() == 3, qPrintable(hurriedText.describe()));
            QVERIFY2(!hurriedText.out().contains(QStringLiteral("No problem found.")), qPrintable(hurriedText.describe()));
        }

        const auto noSys = check(acmeArgs(url), {QStringLiteral("--stale-after"), QStringLiteral("1s")});
        QVERIFY2(noSys.jsonValid, qPrintable(describe(noSys)));
        QVERIFY(findingsWith(noSys, QStringLiteral("SESSION_STALE")).isEmpty());
        QVERIFY(!findingsWith(noSys, QStringLiteral("SESSION_UNDECODABLE")).isEmpty());
        QVERIFY2(
            noSys.json.value(QLatin1String("notes")).toArray().first().toString().contains(QStringLiteral("Connected clients of account")),
            qPrintable(describe(noSys)));
        const QJsonObject noSysGap = noSys.json.value(QLatin1String("not_checked")).toArray().first().toObject();
        QCOMPARE(noSysGap.value(QLatin1String("level")).toString(), QStringLiteral("connections"));
        QCOMPARE(noSysGap.value(QLatin1String("cause")).toString(), QStringLiteral("no_system_connection"));
        QCOMPARE(noSysGap.value(QLatin1String("leaves_verdict_open")).toBool(true), false);
        QCOMPARE(noSys.exitCode(), 2); // the undecodable record is critical; unknown connected clients do not open the verdict

        // Only the system connection: stream-level checks only, and a note that records need credentials.
        const auto sysOnly = check(systemArgs(url), {QStringLiteral("--account"), LiveCheck::acme()});
        QVERIFY2(sysOnly.jsonValid, qPrintable(describe(sysOnly)));
        QVERIFY2(!hasRecordFinding(sysOnly), qPrintable(describe(sysOnly)));
        QVERIFY2(sysOnly.json.value(QLatin1String("notes")).toArray().first().toString().contains(QStringLiteral("credentials")),
                 qPrintable(describe(sysOnly)));
        // ... which leaves the verdict open: the undecodable record is there but could not be seen, so never
        // "no problem" (exit 3, coverage says records not checked).
        QCOMPARE(sysOnly.exitCode(), 3);
        QCOMPARE(sysOnly.json.value(QLatin1String("coverage_complete")).toBool(true), false);
        QCOMPARE(sysOnly.json.value(QLatin1String("coverage")).toArray().first().toObject().value(QLatin1String("records")).toString(),
                 QStringLiteral("not_checked"));
        // --no-records skips them on request.
        QVERIFY(!hasRecordFinding(check(lab.cliArgs(), {QStringLiteral("--no-records")})));

        // The server agrees: the garbage client cannot connect, and explain maps its line to the finding.
        QVERIFY(mqtt.connectOnce(QStringLiteral("garbage-4"), false).connackCode != 0);
    }

    // A connected clean-session client's durables are not orphans, and no record is left behind it.
    void connectedCleanSessionIsNotOrphan()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(QStringLiteral("newest")), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(QStringLiteral("keeper"), {QStringLiteral("k/#")}).subscribed());
        const QString url = lab.url();
        Acme acme(url);
        QProcess *clean = startSubscriber(this, lab.mqttPort(), QStringLiteral("clean-live"), true, QStringLiteral("c/#"));
        const QString hash = ClientIdHash::hash(QStringLiteral("clean-live"));
        bool durableSeen = false;
        for (int i = 0; i < 40 && !durableSeen; ++i) {
            QTest::qWait(100);
            for (const QString &name : acme.consumerNames(QStringLiteral("$MQTT_msgs")))
                durableSeen = durableSeen || name.startsWith(hash + QLatin1Char('_'));
        }
        QVERIFY(durableSeen);
        const auto run = check(lab.cliArgs());
        clean->kill();
        clean->waitForFinished(5000);
        QVERIFY2(run.jsonValid, qPrintable(describe(run)));
        QVERIFY2(findingsWith(run, QStringLiteral("ORPHAN_CONSUMER")).isEmpty(), qPrintable(describe(run)));
    }

    // A JetStream domain puts its token in the session subject ($MQTT.sess.hub.<hash>): the records are
    // listed and checked there, with or without --js-domain (the servers' domain is what counts).
    void jetStreamDomain_data() { brokenRecords_data(); }
    void jetStreamDomain()
    {
        QFETCH(QString, version);
        ServerConfig config = ServerConfig::standard();
        config.setJetStreamDomain(QStringLiteral("hub"));
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version, config), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(QStringLiteral("dom-1"), {QStringLiteral("d/+/x")}).subscribed());
        const QString url = lab.url();
        const QString hash = ClientIdHash::hash(QStringLiteral("dom-1"));
        const QString subject = QStringLiteral("$MQTT.sess.hub.") + hash;

        for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--js-domain"), QStringLiteral("hub")}}) {
            const auto list = CliRunner::run(lab.cliArgs() + extra + QStringList{QStringLiteral("sessions"), QStringLiteral("--json")});
            QVERIFY2(list.exitCode() == 0 && list.jsonValid, qPrintable(list.describe()));
            const QJsonArray sessions = list.json.value(QLatin1String("sessions")).toArray();
            QCOMPARE(sessions.size(), 1);
            const QJsonObject one = sessions.first().toObject();
            QCOMPARE(str(one, "client_id"), QStringLiteral("dom-1"));
            QCOMPARE(str(one, "subject"), subject);
            QCOMPARE(str(one, "hash"), hash);
            QCOMPARE(one.value(QLatin1String("subscriptions")).toArray().first().toObject().value(QLatin1String("topic")).toString(),
                     QStringLiteral("d/+/x"));
            QVERIFY(one.value(QLatin1String("consumers")).toArray().first().toObject().value(QLatin1String("exists")).toBool());
            const auto single = CliRunner::run(lab.cliArgs() + extra
                                               + QStringList{QStringLiteral("session"), QStringLiteral("dom-1"), QStringLiteral("--json")});
            QVERIFY2(single.exitCode() == 0 && single.jsonValid, qPrintable(single.describe()));
            QVERIFY2(!hasRecordFinding(check(lab.cliArgs() + extra)), "healthy domain account");
        }

        Acme acme(url);
        QStringList durables;
        for (const QString &name : acme.consumerNames(QStringLiteral("$MQTT_msgs")))
            if (name.startsWith(hash + QLatin1Char('_')))
                durables << name;
        QCOMPARE(durables.size(), 1);
        QVERIFY(acme.api(QStringLiteral("CONSUMER.DELETE.$MQTT_msgs.") + durables.first()));
        const auto run = check(lab.cliArgs());
        const QList<QJsonObject> missing = findingsWith(run, QStringLiteral("SESSION_MISSING_CONSUMER"));
        QCOMPARE(missing.size(), 1);
        QCOMPARE(str(missing.first(), "subject"), subject);
        QCOMPARE(str(missing.first(), "client_id"), QStringLiteral("dom-1"));
    }

    // CONNZ is read in pages: with pages of 2, five connected MQTT clients are all found.
    void connectedClientsPaged()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(QStringLiteral("newest")), qPrintable(lab.errorString()));
        QStringList ids;
        for (int i = 0; i < 5; ++i) {
            ids << QStringLiteral("paged-%1").arg(i);
            startSubscriber(this, lab.mqttPort(), ids.last(), true, QStringLiteral("p/%1").arg(i));
        }
        Profile profile = acmeProfile(lab.url());
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = QStringLiteral("sys");
        profile.system.password = QStringLiteral("syspass");
        ConnectionSet connections(profile);
        auto sys = connections.system();
        QVERIFY(sys);
        QStringList found;
        for (int attempt = 0; attempt < 40 && found.size() < ids.size(); ++attempt) {
            QTest::qWait(100);
            auto paged = SessionLoader::loadConnected(*sys, QStringLiteral("ACME"), {}, 2);
            QVERIFY2(paged, qPrintable(paged ? QString() : paged.error().toString()));
            found = paged->keys();
            found.sort();
        }
        QCOMPARE(found, ids);
        auto whole = SessionLoader::loadConnected(*sys, QStringLiteral("ACME"));
        QVERIFY(whole);
        QCOMPARE(whole->size(), ids.size());
        auto one = SessionLoader::loadConnected(*sys, QStringLiteral("ACME"), QStringLiteral("paged-3"), 2);
        QVERIFY(one);
        QCOMPARE(one->keys(), QStringList{QStringLiteral("paged-3")});
        for (QProcess *p : findChildren<QProcess *>()) {
            p->kill();
            p->waitForFinished(5000);
        }
    }

    // Raising max_msgs_per_subject lets every save add a record: DUPLICATE_SESSION_RECORDS with the count.
    void duplicateRecords_data() { brokenRecords_data(); }
    void duplicateRecords()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        MqttClient &mqtt = lab.mqtt();
        QVERIFY(lab.addSession(QStringLiteral("dup-1"), {QStringLiteral("d/#")}).subscribed());
        const QString url = lab.url();
        Acme acme(url);
        auto info = acme.api(QStringLiteral("STREAM.INFO.$MQTT_sess"));
        QVERIFY(info);
        QJsonObject config = info->value(QLatin1String("config")).toObject();
        config.insert(QStringLiteral("max_msgs_per_subject"), 5);
        QVERIFY2(acme.api(QStringLiteral("STREAM.UPDATE.$MQTT_sess"), config), "raise max_msgs_per_subject");
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("dup-1"), {QStringLiteral("e/#")}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("dup-1"), {QStringLiteral("f/#")}, 1).subscribed());

        const auto run = check(lab.cliArgs());
        QVERIFY2(run.jsonValid, qPrintable(describe(run)));
        const QList<QJsonObject> dups = findingsWith(run, QStringLiteral("DUPLICATE_SESSION_RECORDS"));
        QCOMPARE(dups.size(), 1);
        QCOMPARE(str(dups.first(), "subject"), sessSubject(QStringLiteral("dup-1")));
        QCOMPARE(str(dups.first(), "client_id"), QStringLiteral("dup-1"));
        QVERIFY(dups.first()
                    .value(QLatin1String("evidence"))
                    .toObject()
                    .value(QLatin1String("actual"))
                    .toObject()
                    .value(QLatin1String("messages"))
                    .toInteger()
                >= 2);
        QVERIFY(!findingsWith(run, QStringLiteral("STREAM_CONFIG_WRONG"), QStringLiteral("$MQTT_sess")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSessionChecks)
#include "tst_sessionchecks.moc"
