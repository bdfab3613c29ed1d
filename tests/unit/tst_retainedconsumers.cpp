// The servers' MQTT set-up as SUBSZ shows it (MqttManagers), RETAINED_CONSUMER_MISSING from it
// (RetainedChecks::retainedConsumers) and the profile's mqtt_probe entry. The SUBSZ subscriptions below
// are those a 2.15.1 server listed for an account after one MQTT client connected (names shortened).
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/checks.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttprobe.h"
#include "nats/profile.h"
#include "records/mqttmanagers.h"

using namespace MqttDoctor;

namespace {

QJsonObject sub(const char *subject, int sid, int cid, const char *account = "ACME")
{
    return QJsonObject{{QStringLiteral("account"), QLatin1String(account)},
                       {QStringLiteral("subject"), QLatin1String(subject)},
                       {QStringLiteral("sid"), QString::number(sid)},
                       {QStringLiteral("cid"), cid}};
}

QJsonObject subsz(const QJsonArray &subs)
{
    return QJsonObject{{QStringLiteral("subscriptions_list"), subs}};
}

const QJsonObject kServer{{QStringLiteral("name"), QStringLiteral("s1")},
                          {QStringLiteral("id"), QStringLiteral("NID1")},
                          {QStringLiteral("ver"), QStringLiteral("2.15.1")}};

QJsonObject consumer(const QString &name, const QString &deliver, bool bound)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("config"), QJsonObject{{QStringLiteral("deliver_subject"), deliver}}},
                       {QStringLiteral("push_bound"), bound}};
}

MqttManager manager(const QString &server, const QString &version, const QString &subject = {})
{
    MqttManager m;
    m.server = server;
    m.serverId = server + QStringLiteral("-id");
    m.version = version;
    m.cid = 7;
    m.retainedSubject = subject;
    return m;
}

/** An account with the 2.10+ retained stream and the given consumers on it (and on $MQTT_msgs). */
AccountCheckInput input(const QList<QJsonObject> &rmsgsConsumers, const QList<QJsonObject> &msgsConsumers = {},
                        const QString &version = QStringLiteral("2.15.1"))
{
    AccountCheckInput in;
    in.account.name = QStringLiteral("ACME");
    in.account.jetstream = true;
    in.account.streamsKnown = true;
    StreamInfo rm;
    rm.name = QStringLiteral("$MQTT_rmsgs");
    rm.config =
        QJsonObject{{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs.>")}}, {QStringLiteral("max_msgs_per_subject"), 1}};
    rm.consumers = rmsgsConsumers;
    rm.consumersKnown = true;
    StreamInfo msgs;
    msgs.name = QStringLiteral("$MQTT_msgs");
    msgs.consumers = msgsConsumers;
    msgs.consumersKnown = true;
    in.account.streams = {msgs, rm};
    ServerInfo s;
    s.name = QStringLiteral("s1");
    s.version = version;
    s.jetstream = true;
    in.servers = {s};
    return in;
}

QList<Finding> missing(const AccountCheckInput &in)
{
    QList<Finding> out;
    for (const Finding &f : Checks::checkAccount(in))
        if (f.code == FindingCodes::retainedConsumerMissing())
            out << f;
    return out;
}

} // namespace

class TestRetainedConsumers final : public QObject
{
    Q_OBJECT

private slots:
    void managersFromSubsz()
    {
        const QJsonArray subs{sub("$MQTT.JSA.k2My6qdB.>", 1, 7), sub("$MQTT.JSA.*.SP.*.*", 2, 7),
                              sub("$MQTT.JSA.*.RD", 4, 7),       sub("$MQTT.sub.9caRPX85nqKMhtXPPZvrS4", 3, 7),
                              sub("$MQTT.sess.>", 1, 8),         sub("$MQTT.JSA.*.RD", 4, 9, "OTHER"),
                              sub("$MQTT.sub.client1", 2, 25)};
        const auto found = MqttManagers::fromSubsz(kServer, subsz(subs));
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.value(QStringLiteral("ACME")).size(), 1);
        const MqttManager m = found.value(QStringLiteral("ACME")).first();
        QCOMPARE(m.server, QStringLiteral("s1"));
        QCOMPARE(m.serverId, QStringLiteral("NID1"));
        QCOMPARE(m.version, QStringLiteral("2.15.1"));
        QCOMPARE(m.cid, quint64(7));
        QVERIFY(!m.resolved()); // the retained subject is read per server, when needed
        QCOMPARE(found.value(QStringLiteral("OTHER")).first().cid, quint64(9));
        // Nothing but the set-up's own RD subscription counts: a client's subscriptions are no manager.
        QVERIFY(MqttManagers::fromSubsz(kServer, subsz({sub("$MQTT.sub.client1", 2, 25)})).isEmpty());
    }

    void whichManagersLackAConsumer()
    {
        AccountManagers a;
        a.managers = {manager(QStringLiteral("s1"), QStringLiteral("2.15.1")), manager(QStringLiteral("s2"), QStringLiteral("2.15.1"))};
        const QList<QJsonObject> bothBound{consumer(QStringLiteral("$MQTT_rmsgs_a"), QStringLiteral("$MQTT.sub.a"), true),
                                           consumer(QStringLiteral("$MQTT_rmsgs_b"), QStringLiteral("$MQTT.sub.b"), true)};
        // As many bound consumers as managers: nothing to resolve, nothing missing.
        QVERIFY(!a.needsResolving(bothBound));
        QVERIFY(a.withoutConsumer(bothBound).isEmpty());
        // One of them stale (nobody listens): which manager lacks one is only known once resolved.
        const QList<QJsonObject> oneStale{bothBound.first(),
                                          consumer(QStringLiteral("$MQTT_rmsgs_old"), QStringLiteral("$MQTT.sub.old"), false)};
        QVERIFY(a.needsResolving(oneStale));
        QCOMPARE(a.withoutConsumer(oneStale).size(), 2);
        a.managers[0].retainedSubject = QStringLiteral("$MQTT.sub.a");
        a.managers[1].retainedSubject = QStringLiteral("$MQTT.sub.c");
        QVERIFY(!a.needsResolving(oneStale));
        const QList<MqttManager> lacking = a.withoutConsumer(oneStale);
        QCOMPARE(lacking.size(), 1);
        QCOMPARE(lacking.first().server, QStringLiteral("s2"));
        // A consumer whose server did not answer (a node down) may be the one: no finding for as many as there are of those.
        const QJsonObject unknown{{QStringLiteral("name"), QStringLiteral("$MQTT_rmsgs_far")},
                                  {QStringLiteral("config"), QJsonObject()},
                                  {QStringLiteral("unavailable"), QStringLiteral("no answer")}};
        QVERIFY(AccountManagers::unavailable(unknown));
        QCOMPARE(AccountManagers::retainedConsumers({unknown}).size(), 1);
        QVERIFY(a.withoutConsumer({bothBound.first(), unknown}).isEmpty());
        QCOMPARE(a.withoutConsumer({unknown}).size(), 2);
        // Only consumers delivering to $MQTT.sub.* are a server's retained consumers.
        QCOMPARE(
            AccountManagers::retainedConsumers({consumer(QStringLiteral("backup"), QStringLiteral("_INBOX.x"), true), bothBound.first()})
                .size(),
            1);
    }

    void checkNamesTheServers_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("severity");
        QTest::newRow("2.15.1: retained delivery is dead") << QStringLiteral("2.15.1") << QStringLiteral("error");
        QTest::newRow("2.12.3: the first that delivers only through it") << QStringLiteral("2.12.3") << QStringLiteral("error");
        QTest::newRow("2.12.2: its own clients' still") << QStringLiteral("2.12.2") << QStringLiteral("warning");
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27") << QStringLiteral("warning");
        QTest::newRow("2.9.10") << QStringLiteral("2.9.10") << QStringLiteral("warning");
    }
    void checkNamesTheServers()
    {
        QFETCH(QString, version);
        QFETCH(QString, severity);
        AccountCheckInput in = input({}, {}, version);
        AccountManagers a;
        a.managers = {manager(QStringLiteral("s1"), version, QStringLiteral("$MQTT.sub.x"))};
        in.managers = a;
        const QList<Finding> found = missing(in);
        QCOMPARE(found.size(), 1);
        const Finding &f = found.first();
        QCOMPARE(Finding::severityName(f.severity), severity);
        QCOMPARE(f.repair, RepairActions::restoreRetainedConsumer());
        QVERIFY2(f.title.toString().contains(QStringLiteral("s1 (%1)").arg(version)), qPrintable(f.title.toString()));
        QCOMPARE(f.actual.toObject().value(QLatin1String("servers_without_consumer")).toArray().size(), 1);

        // A replica of $MQTT_rmsgs offline: a consumer placed there may be missing from the listing, nothing is judged.
        in.account.streams[1].cluster =
            QJsonObject{{QStringLiteral("leader"), QStringLiteral("n1")},
                        {QStringLiteral("replicas"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("n3")}, {QStringLiteral("offline"), true}}}}};
        QVERIFY(missing(in).isEmpty());
        in.account.streams[1].cluster = QJsonObject{};

        // Its consumer back: nothing to say.
        in.account.streams[1].consumers = {consumer(QStringLiteral("$MQTT_rmsgs_x"), QStringLiteral("$MQTT.sub.x"), true)};
        QVERIFY(missing(in).isEmpty());
        // No server set MQTT up since it started: no consumer is expected.
        in.account.streams[1].consumers.clear();
        in.managers = AccountManagers{};
        QVERIFY(missing(in).isEmpty());
    }

    void unresolvedSubjectHasNoRepair()
    {
        AccountCheckInput in = input({});
        AccountManagers a;
        a.managers = {manager(QStringLiteral("s1"), QStringLiteral("2.15.1"))};
        a.unresolvedWhy = QStringLiteral("SUBSZ timed out");
        in.managers = a;
        const QList<Finding> found = missing(in);
        QCOMPARE(found.size(), 1);
        QVERIFY(found.first().repair.isEmpty());
        QVERIFY2(found.first().detail.toString().contains(QStringLiteral("SUBSZ timed out")), qPrintable(found.first().detail.toString()));
        QVERIFY2(found.first().detail.toString().contains(QStringLiteral("restart")), qPrintable(found.first().detail.toString()));
    }

    void withoutSystemConnection()
    {
        // Nothing is known of the servers: no finding from an empty $MQTT_rmsgs alone (a restart looks the same)...
        QVERIFY(missing(input({})).isEmpty());
        // ...but a connected client's durable proves a server set MQTT up, and none has its retained consumer.
        const QList<QJsonObject> clientBound{consumer(QStringLiteral("MynGTXiX_x"), QStringLiteral("$MQTT.sub.client"), true)};
        const QList<Finding> found =
            missing(input({consumer(QStringLiteral("$MQTT_rmsgs_old"), QStringLiteral("$MQTT.sub.old"), false)}, clientBound));
        QCOMPARE(found.size(), 1);
        QVERIFY(found.first().repair.isEmpty()); // where to make it again is unknown without SUBSZ
        QVERIFY(missing(input({consumer(QStringLiteral("$MQTT_rmsgs_a"), QStringLiteral("$MQTT.sub.a"), true)}, clientBound)).isEmpty());
    }

    // Without a system connection: a note that holds the verdict open only when $MQTT_rmsgs has no retained consumer
    // at all and was not made with the servers' own set-up.
    void unknownSetUpIsANoteWhenItMatters()
    {
        AccountInfo a = input({}).account;
        StreamInfo sess;
        sess.name = QStringLiteral("$MQTT_sess");
        sess.created = QStringLiteral("2026-12-07T10:00:00.100Z");
        a.streams.append(sess);
        a.streams[1].created = QStringLiteral("2026-12-07T10:00:00.400Z"); // $MQTT_rmsgs, same set-up
        QVERIFY(!AccountSnapshotLoader::managersUnknown(a));
        a.streams[1].created = QStringLiteral("2026-12-07T10:20:00Z"); // made again later
        const auto gap = AccountSnapshotLoader::managersUnknown(a);
        QVERIFY(gap);
        QCOMPARE(gap->level, CoverageGap::Level::ServerState);
        QVERIFY(gap->leavesVerdictOpen());
        QCOMPARE(CoverageGap::levelName(gap->level), QStringLiteral("server_state"));
        // Any retained consumer left behind, bound or not, says the servers' own consumers were not wiped.
        a.streams[1].consumers = {consumer(QStringLiteral("$MQTT_rmsgs_old"), QStringLiteral("$MQTT.sub.old"), false)};
        QVERIFY(!AccountSnapshotLoader::managersUnknown(a));
    }

    void profileProbeEntry()
    {
        const QJsonObject json{{QStringLiteral("mqtt_probe"),
                                QJsonObject{{QStringLiteral("ACME"),
                                             QJsonObject{{QStringLiteral("listener"), QStringLiteral("mqtts://mqtt.example.com:8883")},
                                                         {QStringLiteral("user"), QStringLiteral("probe")},
                                                         {QStringLiteral("password"), QStringLiteral("s3cret")}}}}}};
        auto p = Profile::fromJson(json);
        QVERIFY2(p, p ? "" : qPrintable(p.error().toString()));
        QCOMPARE(p->mqttProbe.value(QStringLiteral("ACME")).user, QStringLiteral("probe"));
        QVERIFY(p->validate());
        // The password is a secret: only in the form with secrets.
        QVERIFY(!QJsonDocument(p->toJson(false)).toJson().contains("s3cret"));
        QVERIFY(QJsonDocument(p->toJson(true)).toJson().contains("s3cret"));
        auto back = Profile::fromJson(p->toJson(true));
        QVERIFY(back);
        QCOMPARE(back->mqttProbe, p->mqttProbe);

        auto request = MqttProbe::requestFor(*p, QStringLiteral("ACME"), {});
        QVERIFY(request);
        QCOMPARE(request->host, QStringLiteral("mqtt.example.com"));
        QCOMPARE(request->port, 8883);
        QVERIFY(request->tls);
        // An account without an entry: NotFound, naming what to add.
        auto none = MqttProbe::requestFor(*p, QStringLiteral("OTHER"), {});
        QVERIFY(!none);
        QCOMPARE(none.error().kind(), Error::Kind::NotFound);
        QVERIFY(none.error().toString().contains(QStringLiteral("mqtt_probe")));

        // Without a listener: the servers' own, a wildcard host replaced by the profile's server host.
        Profile q;
        q.servers = {QStringLiteral("nats://10.1.2.3:4222")};
        q.mqttProbe.insert(Profile::kAnyAccount, MqttProbeSettings{{}, QStringLiteral("u"), QStringLiteral("p")});
        ServerInfo s;
        s.mqttHost = QStringLiteral("0.0.0.0");
        s.mqttPort = 1883;
        auto derived = MqttProbe::requestFor(q, QStringLiteral("ANY"), {s});
        QVERIFY(derived);
        QCOMPARE(derived->host, QStringLiteral("10.1.2.3"));
        QCOMPARE(derived->port, 1883);
        auto noListener = MqttProbe::requestFor(q, QStringLiteral("ANY"), {});
        QVERIFY(!noListener);
        QCOMPARE(noListener.error().kind(), Error::Kind::InvalidInput);
    }

    void profileProbeErrors_data()
    {
        QTest::addColumn<QJsonValue>("entry");
        QTest::addColumn<QString>("message");
        QTest::newRow("not host:port") << QJsonValue(QJsonObject{{QStringLiteral("listener"), QStringLiteral("mqtt://nohost")}})
                                       << QStringLiteral("must be host:port");
        QTest::newRow("port out of range") << QJsonValue(QJsonObject{{QStringLiteral("listener"), QStringLiteral("h:70000")}})
                                           << QStringLiteral("must be host:port");
        QTest::newRow("unknown key") << QJsonValue(QJsonObject{{QStringLiteral("pasword"), QStringLiteral("x")}})
                                     << QStringLiteral("pasword");
        QTest::newRow("not an object") << QJsonValue(QStringLiteral("mqtt://h:1883")) << QStringLiteral("must be an object");
    }
    void profileProbeErrors()
    {
        QFETCH(QJsonValue, entry);
        QFETCH(QString, message);
        auto p = Profile::fromJson(QJsonObject{{QStringLiteral("mqtt_probe"), QJsonObject{{QStringLiteral("ACME"), entry}}}});
        Result<void> valid = p ? p->validate() : Result<void>(p.error());
        QVERIFY(!valid);
        QVERIFY2(valid.error().toString().contains(message), qPrintable(valid.error().toString()));
    }

    void probeResultJson()
    {
        MqttProbeResult r;
        r.verdict = MqttProbeResult::Verdict::Failed;
        r.account = QStringLiteral("ACME");
        r.listener = QStringLiteral("127.0.0.1:1883");
        r.why = QStringLiteral("retained: not delivered");
        r.steps = {MqttProbeStep{QStringLiteral("connect"), true, QStringLiteral("ok"), 3}};
        const QJsonObject o = r.toJson();
        QCOMPARE(o.value(QLatin1String("verdict")).toString(), QStringLiteral("failed"));
        QCOMPARE(o.value(QLatin1String("steps")).toArray().size(), 1);
        QVERIFY(!o.contains(QLatin1String("left_behind")));
        QVERIFY(r.summary().contains(QStringLiteral("NOT working")));
        QVERIFY(
            MqttProbeResult::notRun(QStringLiteral("ACME"), QStringLiteral("no user")).summary().contains(QStringLiteral("not verified")));
    }
};

QTEST_GUILESS_MAIN(TestRetainedConsumers)
#include "tst_retainedconsumers.moc"
