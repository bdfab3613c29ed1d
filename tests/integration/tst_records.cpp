// sessions, session and retained against real servers of every version, with sessions and retained
// messages made by real MQTT clients (mosquitto), through the CLI as an operator runs it.
#include <QJsonArray>
#include <QProcess>
#include <QTest>

#include "clirunner.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

QJsonObject byKey(const QJsonArray &array, const char *key, const QString &value)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(QLatin1String(key)).toString() == value)
            return v.toObject();
    return {};
}

// Every stream's message count and consumer names: what browsing must not change.
// A connection as the acme account's user (shared: it outlives the ConnectionSet it came from).
Result<std::shared_ptr<NatsConnection>> acmeConnection(const QString &url)
{
    Profile profile;
    profile.servers = {url};
    profile.auth.kind = Credentials::Kind::UserPassword;
    profile.auth.user = QStringLiteral("acme");
    profile.auth.password = QStringLiteral("acmepass");
    ConnectionSet connections(profile);
    return connections.primary();
}

QMap<QString, QString> snapshot(const QString &url)
{
    auto conn = acmeConnection(url);
    if (!conn)
        return {{QStringLiteral("error"), conn.error().toString()}};
    JetStreamClient js(*conn);
    QMap<QString, QString> out;
    auto streams = js.streamList();
    if (!streams)
        return {{QStringLiteral("error"), streams.error().toString()}};
    for (const QJsonObject &s : *streams) {
        const QString name = s.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString();
        QStringList consumers;
        if (auto list = js.consumerList(name))
            for (const QJsonObject &c : *list)
                consumers << c.value(QLatin1String("name")).toString();
        consumers.sort();
        out.insert(name,
                   QStringLiteral("%1 msgs, last %2; consumers %3")
                       .arg(s.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger())
                       .arg(s.value(QLatin1String("state")).toObject().value(QLatin1String("last_seq")).toInteger())
                       .arg(consumers.join(QLatin1Char(','))));
    }
    return out;
}

QStringList stringsOf(const QJsonArray &subs, const char *key)
{
    QStringList out;
    for (const QJsonValue &v : subs)
        out << v.toObject().value(QLatin1String(key)).toString();
    out.sort();
    return out;
}

// A legacy per-session stream as servers up to 2.4 made them (subjects = its own name, one message),
// holding `record` (none: empty). Returns the error text, empty on success.
QString makeLegacyStream(const QString &url, const QString &name, const QByteArray &record)
{
    auto conn = acmeConnection(url);
    if (!conn)
        return conn.error().toString();
    JetStreamClient js(*conn);
    auto created = js.call(QStringLiteral("STREAM.CREATE.") + name,
                           QJsonObject{{QStringLiteral("name"), name},
                                       {QStringLiteral("subjects"), QJsonArray{name}},
                                       {QStringLiteral("storage"), QStringLiteral("file")},
                                       {QStringLiteral("max_msgs"), 1}});
    if (!created)
        return created.error().toString();
    if (record.isEmpty())
        return {};
    auto ack = (*conn)->request(name, record, 5000);
    if (!ack)
        return ack.error().toString();
    return ack->data.contains("\"seq\"") ? QString() : QString::fromUtf8(ack->data);
}

QString legacyName(const QString &clientId)
{
    return QStringLiteral("$MQTT_sess_") + ClientIdHash::hash(clientId);
}

} // namespace

class TestRecords : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    // The pure parts (no server): filters, decoding failures, CONNZ parsing, the consumer join.
    void pureFunctions()
    {
        QVERIFY(RetainedLoader::topicMatches(QStringLiteral("sensors/#"), QStringLiteral("sensors/kitchen/temp")));
        QVERIFY(RetainedLoader::topicMatches(QStringLiteral("sensors/#"), QStringLiteral("sensors")));
        QVERIFY(RetainedLoader::topicMatches(QStringLiteral("+/door"), QStringLiteral("status/door")));
        QVERIFY(!RetainedLoader::topicMatches(QStringLiteral("+/door"), QStringLiteral("a/status/door")));
        QVERIFY(!RetainedLoader::topicMatches(QStringLiteral("sensors/+"), QStringLiteral("sensors/kitchen/temp")));
        QVERIFY(RetainedLoader::topicMatches(QStringLiteral("#"), QStringLiteral("anything/at/all")));

        StreamMessage garbage;
        garbage.subject = QStringLiteral("$MQTT.sess.kBmSuDPK");
        garbage.sequence = 7;
        garbage.data = "not json";
        const SessionEntry bad = SessionLoader::fromMessage(garbage, TopicMapping::Dialect::V2_10);
        QVERIFY(!bad.record);
        QCOMPARE(bad.hash, QStringLiteral("kBmSuDPK"));
        QVERIFY(bad.problems().value(0).startsWith(QStringLiteral("undecodable: ")));
        QCOMPARE(SessionLoader::toJson(bad).value(QLatin1String("client_id")), QJsonValue(QJsonValue::Null));

        StreamMessage good;
        good.subject = QStringLiteral("$MQTT.sess.wrongHsh");
        good.sequence = 8;
        good.data = R"({"origin":"abc","id":"sensor-sub-1","clean":false,"subs":{"a.>":1},"cons":{"a.>":{"durable_name":"kBmSuDPK_x"}}})";
        SessionEntry e = SessionLoader::fromMessage(good, TopicMapping::Dialect::V2_10);
        QVERIFY(e.record);
        QVERIFY(e.problems().value(0).startsWith(QStringLiteral("id does not hash to the subject")));
        QCOMPARE(e.subscriptions().value(0).mqttFilter, QStringLiteral("a/#"));
        SessionLoader::joinConsumers(e, {});
        QVERIFY(e.problems().contains(QStringLiteral("consumer kBmSuDPK_x missing")));
        QVERIFY(SessionLoader::matches(e, QStringLiteral("SENSOR")));
        QVERIFY(SessionLoader::matches(e, QStringLiteral("a/#")));
        QVERIFY(!SessionLoader::matches(e, QStringLiteral("nothing")));

        SystemClient::Reply reply;
        reply.server = QJsonObject{{QStringLiteral("name"), QStringLiteral("n1")}};
        reply.data = QJsonObject{{QStringLiteral("connections"),
                                  QJsonArray{QJsonObject{{QStringLiteral("mqtt_client"), QStringLiteral("sensor-sub-1")},
                                                         {QStringLiteral("jwt"), QStringLiteral("secret")}},
                                             QJsonObject{{QStringLiteral("name"), QStringLiteral("plain nats")}}}}};
        const SessionLoader::ConnectedClients connected = SessionLoader::connectedFromConnz({reply});
        QCOMPARE(connected.size(), 1);
        QCOMPARE(connected.value(QStringLiteral("sensor-sub-1")), QStringLiteral("n1"));
        SessionLoader::joinConnected(e, connected);
        QCOMPARE(e.connected, std::optional<bool>(true));
        QCOMPARE(e.server, QStringLiteral("n1"));
        SessionLoader::joinConnected(e, std::nullopt);
        QVERIFY(!e.connected.has_value());
    }

    void records_data() { addServerVersionRows(); }

    void records()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient acme(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        acme.setTimeoutMs(30000);
        MqttResult s1;
        for (int attempt = 0; attempt < 3 && !s1.subscribed(); ++attempt)
            s1 = acme.createPersistentSession(QStringLiteral("sensor-sub-1"),
                                              {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1);
        QVERIFY2(s1.subscribed(), qPrintable(s1.describe()));
        const MqttResult s2 = acme.createPersistentSession(QStringLiteral("everything-2"), {QStringLiteral("#")}, 1);
        QVERIFY2(s2.subscribed(), qPrintable(s2.describe()));
        QVERIFY(acme.connectOnce(QStringLiteral("clean-client"), true).connackCode == 0);
        QVERIFY2(acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged, "retained publish");
        QVERIFY2(acme.publish(QStringLiteral("status/door"), "open", 0, true).connackCode == 0, "retained publish qos 0");
        QVERIFY2(acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1).acknowledged, "queued publish");
        QTest::qWait(300);

        const QString url = server.url();
        const QMap<QString, QString> before = snapshot(url);
        QVERIFY2(!before.contains(QStringLiteral("error")), qPrintable(before.value(QStringLiteral("error"))));

        // sessions --json: both persistent sessions, the clean one absent.
        const auto sessions =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions"), QStringLiteral("--json")});
        QVERIFY2(sessions.exitCode() == 0 && sessions.jsonValid, qPrintable(sessions.describe()));
        const QJsonArray list = sessions.json.value(QLatin1String("sessions")).toArray();
        QCOMPARE(stringsOf(list, "client_id"), (QStringList{QStringLiteral("everything-2"), QStringLiteral("sensor-sub-1")}));
        const QJsonObject one = byKey(list, "client_id", QStringLiteral("sensor-sub-1"));
        QCOMPARE(one.value(QLatin1String("hash")).toString(), ClientIdHash::hash(QStringLiteral("sensor-sub-1")));
        QCOMPARE(one.value(QLatin1String("subject")).toString(),
                 QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(QStringLiteral("sensor-sub-1")));
        QCOMPARE(one.value(QLatin1String("clean")).toBool(), false);
        QCOMPARE(one.value(QLatin1String("connected")), QJsonValue(false));
        QCOMPARE(one.value(QLatin1String("problems")).toArray().size(), 0);
        const QJsonArray subs = one.value(QLatin1String("subscriptions")).toArray();
        QVERIFY2(stringsOf(subs, "filter").contains(QStringLiteral("sensors.*.temp")), qPrintable(sessions.out()));
        QVERIFY2(stringsOf(subs, "filter").contains(QStringLiteral("alerts.>")), qPrintable(sessions.out()));
        QVERIFY2(stringsOf(subs, "topic").contains(QStringLiteral("sensors/+/temp")), qPrintable(sessions.out()));
        QVERIFY2(stringsOf(subs, "topic").contains(QStringLiteral("alerts/#")), qPrintable(sessions.out()));
        for (const QJsonValue &v : subs)
            QCOMPARE(v.toObject().value(QLatin1String("qos")).toInt(), 1);
        const QJsonArray cons = one.value(QLatin1String("consumers")).toArray();
        QVERIFY2(cons.size() >= 3, qPrintable(sessions.out())); // sensors.*.temp, alerts.>, "alerts fwc"
        qint64 pending = 0;
        for (const QJsonValue &v : cons) {
            QVERIFY2(v.toObject().value(QLatin1String("exists")).toBool(), qPrintable(sessions.out()));
            pending += v.toObject().value(QLatin1String("pending")).toInteger();
        }
        QVERIFY2(pending >= 1, qPrintable(sessions.out())); // the queued alerts/smoke
        const QJsonObject all = byKey(list, "client_id", QStringLiteral("everything-2"));
        QCOMPARE(stringsOf(all.value(QLatin1String("subscriptions")).toArray(), "topic"), QStringList{QStringLiteral("#")});
        QCOMPARE(stringsOf(all.value(QLatin1String("subscriptions")).toArray(), "filter"), QStringList{QStringLiteral(">")});

        // --filter and --limit.
        const auto filtered = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("sessions"), QStringLiteral("--filter"), QStringLiteral("alerts/"), QStringLiteral("--json")});
        QVERIFY2(filtered.exitCode() == 0 && filtered.jsonValid, qPrintable(filtered.describe()));
        QCOMPARE(stringsOf(filtered.json.value(QLatin1String("sessions")).toArray(), "client_id"),
                 QStringList{QStringLiteral("sensor-sub-1")});
        const auto limited = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(limited.exitCode() == 0 && limited.jsonValid, qPrintable(limited.describe()));
        QCOMPARE(limited.json.value(QLatin1String("sessions")).toArray().size(), 1);
        QCOMPARE(limited.json.value(QLatin1String("truncated")).toBool(), true);
        const auto text = CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions")});
        QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("sensor-sub-1")), qPrintable(text.describe()));

        // session CLIENT_ID.
        const auto single =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                           + QStringList{QStringLiteral("session"), QStringLiteral("sensor-sub-1"), QStringLiteral("--json")});
        QVERIFY2(single.exitCode() == 0 && single.jsonValid, qPrintable(single.describe()));
        const QJsonObject session = single.json.value(QLatin1String("session")).toObject();
        QCOMPARE(session.value(QLatin1String("client_id")).toString(), QStringLiteral("sensor-sub-1"));
        QCOMPARE(session.value(QLatin1String("connected")), QJsonValue(false));
        QVERIFY(session.value(QLatin1String("consumers")).toArray().first().toObject().value(QLatin1String("config")).isObject());
        QVERIFY(!single.out().contains(QStringLiteral("jwt")));
        const auto singleText =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("sensor-sub-1")});
        QVERIFY2(singleText.exitCode() == 0 && singleText.out().contains(QStringLiteral("alerts/#")), qPrintable(singleText.describe()));
        const auto unknown =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("nobody-here")});
        QVERIFY2(unknown.exitCode() == 3 && unknown.err().contains(QStringLiteral("no session for client ID")),
                 qPrintable(unknown.describe()));
        const auto clean =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("clean-client")});
        QCOMPARE(clean.exitCode(), 3);

        // Only a system connection: records need the account's credentials.
        const auto sysOnly = CliRunner::run({QStringLiteral("--server"), url, QStringLiteral("--system-user"), QStringLiteral("sys"),
                                             QStringLiteral("--system-password"), QStringLiteral("syspass"), QStringLiteral("sessions"),
                                             QStringLiteral("--account"), QStringLiteral("ACME")});
        QVERIFY2(sysOnly.exitCode() == 3 && sysOnly.err().contains(QStringLiteral("credentials")), qPrintable(sysOnly.describe()));

        // retained --json, and --filter.
        const auto retained =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("retained"), QStringLiteral("--json")});
        QVERIFY2(retained.exitCode() == 0 && retained.jsonValid, qPrintable(retained.describe()));
        const QJsonArray rlist = retained.json.value(QLatin1String("retained")).toArray();
        QCOMPARE(stringsOf(rlist, "topic"), (QStringList{QStringLiteral("sensors/kitchen/temp"), QStringLiteral("status/door")}));
        const QJsonObject kitchen = byKey(rlist, "topic", QStringLiteral("sensors/kitchen/temp"));
        QCOMPARE(kitchen.value(QLatin1String("qos")).toInt(), 1);
        QCOMPARE(kitchen.value(QLatin1String("payload_preview")).toString(), QStringLiteral("21.5"));
        QCOMPARE(kitchen.value(QLatin1String("size")).toInt(), 4);
        QCOMPARE(kitchen.value(QLatin1String("subject")).toString(), QStringLiteral("sensors.kitchen.temp"));
        const QJsonObject door = byKey(rlist, "topic", QStringLiteral("status/door"));
        QCOMPARE(door.value(QLatin1String("qos")).toInt(), 0);
        QCOMPARE(door.value(QLatin1String("payload_preview")).toString(), QStringLiteral("open"));
        const auto rfiltered = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("retained"), QStringLiteral("--filter"), QStringLiteral("sensors/#"), QStringLiteral("--json")});
        QVERIFY2(rfiltered.exitCode() == 0 && rfiltered.jsonValid, qPrintable(rfiltered.describe()));
        QCOMPARE(stringsOf(rfiltered.json.value(QLatin1String("retained")).toArray(), "topic"),
                 QStringList{QStringLiteral("sensors/kitchen/temp")});
        const auto rtext = CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("retained")});
        QVERIFY2(rtext.exitCode() == 0 && rtext.out().contains(QStringLiteral("21.5")), qPrintable(rtext.describe()));

        // Browsing changed nothing.
        QCOMPARE(snapshot(url), before);

        // While the client is connected: connected true, on this server (CONNZ mqtt_client).
        QProcess sub;
        sub.start(QStringLiteral("mosquitto_sub"),
                  {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(server.mqttPort()),
                   QStringLiteral("-u"), QStringLiteral("acme"), QStringLiteral("-P"), QStringLiteral("acmepass"), QStringLiteral("-i"),
                   QStringLiteral("sensor-sub-1"), QStringLiteral("-c"), QStringLiteral("-q"), QStringLiteral("1"), QStringLiteral("-t"),
                   QStringLiteral("sensors/+/temp")});
        QVERIFY(sub.waitForStarted(5000));
        bool connectedNow = false;
        for (int i = 0; i < 20 && !connectedNow; ++i) {
            QTest::qWait(250);
            const auto live =
                CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                               + QStringList{QStringLiteral("session"), QStringLiteral("sensor-sub-1"), QStringLiteral("--json")});
            QVERIFY2(live.exitCode() == 0 && live.jsonValid, qPrintable(live.describe()));
            QVERIFY(!live.out().contains(QStringLiteral("jwt")));
            const QJsonObject s = live.json.value(QLatin1String("session")).toObject();
            connectedNow = s.value(QLatin1String("connected")).toBool();
            if (connectedNow)
                QCOMPARE(s.value(QLatin1String("server")).toString(), server.serverName());
        }
        QVERIFY(connectedNow);
        const auto liveList =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions"), QStringLiteral("--json")});
        QVERIFY2(liveList.exitCode() == 0 && liveList.jsonValid, qPrintable(liveList.describe()));
        const QJsonArray liveSessions = liveList.json.value(QLatin1String("sessions")).toArray();
        QCOMPARE(byKey(liveSessions, "client_id", QStringLiteral("sensor-sub-1")).value(QLatin1String("connected")), QJsonValue(true));
        QCOMPARE(byKey(liveSessions, "client_id", QStringLiteral("everything-2")).value(QLatin1String("connected")), QJsonValue(false));
        sub.kill();
        sub.waitForFinished(5000);
    }

    // Records left in legacy per-session streams `$MQTT_sess_<hash>` (servers up to 2.4): listed after
    // $MQTT_sess's, marked with their stream, also when the account has no $MQTT_sess; a server that
    // creates $MQTT_sess moves the decodable ones, after which they list as ordinary
    // sessions; a leftover made later is never moved and stays listed as legacy.
    void legacySessions_data() { records_data(); }
    void legacySessions()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const QString url = server.url();
        const QString old = legacyName(QStringLiteral("old-3"));
        const QString junk = legacyName(QStringLiteral("junk-10"));
        const QString empty = legacyName(QStringLiteral("empty-9"));
        QString why = makeLegacyStream(url, old, R"({"origin":"0ld5rvr1","id":"old-3","clean":false,"subs":{"legacy.a":1}})");
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY2((why = makeLegacyStream(url, junk, "not a session")).isEmpty(), qPrintable(why));
        QVERIFY2((why = makeLegacyStream(url, empty, {})).isEmpty(), qPrintable(why));
        const QMap<QString, QString> before = snapshot(url);
        QVERIFY(!before.contains(QStringLiteral("$MQTT_sess")));

        // No $MQTT_sess yet (no MQTT client has connected): the legacy records are the list.
        const auto first =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions"), QStringLiteral("--json")});
        QVERIFY2(first.exitCode() == 0 && first.jsonValid, qPrintable(first.describe()));
        QJsonArray list = first.json.value(QLatin1String("sessions")).toArray();
        QStringList legacyStreams{old, junk};
        legacyStreams.sort();
        QCOMPARE(stringsOf(list, "stream"), legacyStreams); // the empty stream holds no session
        const QJsonObject oldEntry = byKey(list, "client_id", QStringLiteral("old-3"));
        QCOMPARE(oldEntry.value(QLatin1String("stream")).toString(), old);
        QCOMPARE(oldEntry.value(QLatin1String("subject")).toString(), old);
        QCOMPARE(oldEntry.value(QLatin1String("hash")).toString(), ClientIdHash::hash(QStringLiteral("old-3")));
        QCOMPARE(stringsOf(oldEntry.value(QLatin1String("subscriptions")).toArray(), "topic"), QStringList{QStringLiteral("legacy/a")});
        const QJsonArray oldProblems = oldEntry.value(QLatin1String("problems")).toArray();
        QCOMPARE(oldProblems.size(), 1);
        QVERIFY2(oldProblems.first().toString().contains(QStringLiteral("LEGACY_SESSION_STREAMS")), qPrintable(first.out()));
        const QJsonObject junkEntry = byKey(list, "stream", junk);
        QCOMPARE(junkEntry.value(QLatin1String("client_id")), QJsonValue(QJsonValue::Null));
        QVERIFY2(junkEntry.value(QLatin1String("problems")).toArray().at(1).toString().startsWith(QStringLiteral("undecodable: ")),
                 qPrintable(first.out()));
        const auto text = CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions")});
        QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("old-3"))
                     && text.out().contains(QStringLiteral("legacy stream ") + old),
                 qPrintable(text.describe()));
        const auto filtered = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("sessions"), QStringLiteral("--filter"), QStringLiteral("legacy/"), QStringLiteral("--json")});
        QVERIFY2(filtered.exitCode() == 0 && filtered.jsonValid, qPrintable(filtered.describe()));
        QCOMPARE(stringsOf(filtered.json.value(QLatin1String("sessions")).toArray(), "client_id"), QStringList{QStringLiteral("old-3")});
        const auto limited = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(limited.exitCode() == 0 && limited.jsonValid, qPrintable(limited.describe()));
        QCOMPARE(limited.json.value(QLatin1String("sessions")).toArray().size(), 1);
        QCOMPARE(limited.json.value(QLatin1String("truncated")).toBool(), true);
        const auto single = CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                                           + QStringList{QStringLiteral("session"), QStringLiteral("old-3"), QStringLiteral("--json")});
        QVERIFY2(single.exitCode() == 0 && single.jsonValid, qPrintable(single.describe()));
        QCOMPARE(single.json.value(QLatin1String("session")).toObject().value(QLatin1String("stream")).toString(), old);
        const auto singleText =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("old-3")});
        QVERIFY2(singleText.exitCode() == 0 && singleText.out().contains(QStringLiteral("Stream:     ") + old),
                 qPrintable(singleText.describe()));
        const auto none =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("empty-9")});
        QVERIFY2(none.exitCode() == 3 && none.err().contains(QStringLiteral("no session for client ID")), qPrintable(none.describe()));
        QCOMPARE(snapshot(url), before); // browsing changed nothing

        // The first MQTT client makes the server create $MQTT_sess and move the decodable legacy record; the
        // junk one is skipped and kept. (The empty one would stop the move in a retry loop: removed first.)
        {
            auto conn = acmeConnection(url);
            QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
            auto deleted = JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.") + empty);
            QVERIFY2(deleted, qPrintable(deleted ? QString() : deleted.error().toString()));
        }
        MqttClient acme(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        acme.setTimeoutMs(30000);
        MqttResult s1;
        for (int attempt = 0; attempt < 3 && !s1.subscribed(); ++attempt)
            s1 = acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/#")}, 1);
        QVERIFY2(s1.subscribed(), qPrintable(s1.describe()));
        QVERIFY2((why = makeLegacyStream(url, legacyName(QStringLiteral("late-4")),
                                         R"({"origin":"0ld5rvr1","id":"late-4","subs":{"late.b":0}})"))
                     .isEmpty(),
                 qPrintable(why));
        QJsonArray after;
        for (int i = 0; i < 20; ++i) { // the move runs right after $MQTT_sess is created; give it a moment
            const auto run =
                CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("sessions"), QStringLiteral("--json")});
            QVERIFY2(run.exitCode() == 0 && run.jsonValid, qPrintable(run.describe()));
            after = run.json.value(QLatin1String("sessions")).toArray();
            if (byKey(after, "client_id", QStringLiteral("old-3")).value(QLatin1String("stream")).toString()
                == QStringLiteral("$MQTT_sess"))
                break;
            QTest::qWait(250);
        }
        const QJsonObject moved = byKey(after, "client_id", QStringLiteral("old-3"));
        QCOMPARE(moved.value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_sess"));
        QCOMPARE(moved.value(QLatin1String("subject")).toString(),
                 QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(QStringLiteral("old-3")));
        QCOMPARE(moved.value(QLatin1String("problems")).toArray().size(), 0);
        QCOMPARE(byKey(after, "client_id", QStringLiteral("sensor-sub-1")).value(QLatin1String("stream")).toString(),
                 QStringLiteral("$MQTT_sess"));
        QCOMPARE(byKey(after, "client_id", QStringLiteral("late-4")).value(QLatin1String("stream")).toString(),
                 legacyName(QStringLiteral("late-4")));
        QCOMPARE(byKey(after, "stream", junk).value(QLatin1String("client_id")), QJsonValue(QJsonValue::Null));
        QCOMPARE(after.size(), 4);
        // $MQTT_sess's records first, then the legacy ones.
        QCOMPARE(after.at(2).toObject().value(QLatin1String("stream")).toString().startsWith(QStringLiteral("$MQTT_sess_")), true);
        QCOMPARE(after.at(3).toObject().value(QLatin1String("stream")).toString().startsWith(QStringLiteral("$MQTT_sess_")), true);
        // The record-level checks leave legacy records to LEGACY_SESSION_STREAMS (no SESSION_UNDECODABLE for the junk one).
        const auto check =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("check"), QStringLiteral("--json")});
        QVERIFY2(check.jsonValid, qPrintable(check.describe()));
        QVERIFY2(!check.out().contains(QStringLiteral("SESSION_UNDECODABLE")), qPrintable(check.out()));
        QVERIFY2(check.out().contains(QStringLiteral("LEGACY_SESSION_STREAMS")), qPrintable(check.out()));
    }
};

QTEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
