// What is in flight, against real servers of every version with real MQTT clients:
// queued QoS 1 messages of an offline persistent subscriber, a QoS 2 PUBLISH whose client leaves
// after PUBREC (a few lines of raw MQTT 3.1.1 over a socket), the QoS 2 records a clean session
// leaves behind (QOS2_ORPHANED) and their repair; browsing changes no stream and creates no consumer.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "rawmqtt.h"
#include "natsserverbinary.h"
#include "natsserverfixture.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

// Every stream's message count, last sequence and consumer names: what browsing must not change.
QMap<QString, QString> streamsAndConsumers(const QString &url)
{
    Profile profile;
    profile.servers = {url};
    profile.auth.kind = Credentials::Kind::UserPassword;
    profile.auth.user = QStringLiteral("acme");
    profile.auth.password = QStringLiteral("acmepass");
    ConnectionSet connections(profile);
    auto conn = connections.primary();
    if (!conn)
        return {{QStringLiteral("error"), conn.error().toString()}};
    JetStreamClient js(*conn);
    auto streams = js.streamList();
    if (!streams)
        return {{QStringLiteral("error"), streams.error().toString()}};
    QMap<QString, QString> out;
    for (const QJsonObject &s : *streams) {
        const QString name = s.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString();
        QStringList consumers;
        if (auto list = js.consumerList(name))
            for (const QJsonObject &c : *list)
                consumers << c.value(QLatin1String("name")).toString();
        consumers.sort();
        const QJsonObject state = s.value(QLatin1String("state")).toObject();
        out.insert(name,
                   QStringLiteral("%1 msgs, last %2; consumers %3")
                       .arg(state.value(QLatin1String("messages")).toInteger())
                       .arg(state.value(QLatin1String("last_seq")).toInteger())
                       .arg(consumers.join(QLatin1Char(','))));
    }
    return out;
}

QJsonObject byKey(const QJsonArray &array, const char *key, const QString &value)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(QLatin1String(key)).toString() == value)
            return v.toObject();
    return {};
}

QStringList values(const QJsonArray &array, const char *key)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out << v.toObject().value(QLatin1String(key)).toVariant().toString();
    return out;
}

} // namespace

class TestInflight : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void inflight_data() { addServerVersionRows(); }

    // A PUBREL the server sent to a persistent QoS 2 subscriber that left before its PUBCOMP: the
    // session shows it in pubrel_pending with the packet ID the server used (2.10+: $MQTT_out).
    void pubrelAwaitingPubcomp_data() { inflight_data(); }
    void pubrelAwaitingPubcomp()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient acme(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const QString outcome = receiveQos2AndLeave(
            server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"), QStringLiteral("q2-subscriber"),
            QStringLiteral("alarm/#"), [&acme] { QVERIFY(acme.publish(QStringLiteral("alarm/fire"), "evacuate", 2).acknowledged); });
        if (NatsServerBinary::locate(version).versionNumber() < QVersionNumber(2, 10)) {
            // 2.9 grants a subscription QoS 1 at most: no PUBREL to keep (and no $MQTT_out).
            QVERIFY2(outcome.startsWith(QStringLiteral("QoS 2 not granted")), qPrintable(outcome));
            return;
        }
        QVERIFY2(outcome.startsWith(QStringLiteral("PUBREL ")), qPrintable(outcome));
        const int packetId = outcome.mid(7).toInt();
        QTest::qWait(300);
        const auto session =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(server.url())
                           + QStringList{QStringLiteral("session"), QStringLiteral("q2-subscriber"), QStringLiteral("--json")});
        QVERIFY2(session.exitCode() == 0 && session.jsonValid, qPrintable(session.describe()));
        const QJsonObject s = session.json.value(QLatin1String("session")).toObject();
        const QJsonArray pubrels = s.value(QLatin1String("pubrel_pending")).toArray();
        QVERIFY2(pubrels.size() == 1, qPrintable(session.describe()));
        QCOMPARE(pubrels.at(0).toObject().value(QLatin1String("packet_id")).toInt(), packetId);
        QCOMPARE(s.value(QLatin1String("pubrel_pending_total")).toInteger(), 1);
        const auto account =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(server.url()) + QStringList{QStringLiteral("inflight"), QStringLiteral("--json")});
        QVERIFY2(account.exitCode() == 0 && account.jsonValid, qPrintable(account.describe()));
        const QJsonObject row =
            byKey(account.json.value(QLatin1String("sessions")).toArray(), "client_id", QStringLiteral("q2-subscriber"));
        QCOMPARE(row.value(QLatin1String("pubrel_pending_total")).toInt(), 1);
        QCOMPARE(row.value(QLatin1String("pubrel_packet_ids")).toArray(), QJsonArray{packetId});
    }

    // $MQTT_msgs deleted: session, inflight and pinned name the missing stream instead of showing an empty
    // queue as if nothing were queued (a persistent session with no subscription has no durable to tell).
    void messagesStreamMissing()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest"), ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient acme(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(acme.createPersistentSession(QStringLiteral("idle-device"), {QStringLiteral("cmd/idle")}, 1).subscribed());
        LiveCheck::JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(QStringLiteral("$MQTT_msgs")), qPrintable(admin.error()));

        const QStringList base = LiveCheck::acmeWithSystemArgs(server.url());
        const auto sessionText = CliRunner::run(base + QStringList{QStringLiteral("session"), QStringLiteral("idle-device")});
        QVERIFY2(sessionText.exitCode() == 0, qPrintable(sessionText.describe()));
        QVERIFY2(sessionText.out().contains(QStringLiteral("($MQTT_msgs does not exist, see the note)")),
                 qPrintable(sessionText.describe()));
        // One note for the stream, not one per durable.
        QVERIFY2(!sessionText.out().contains(QStringLiteral("nothing is queued for its subscription")), qPrintable(sessionText.describe()));
        const auto sessionJson =
            CliRunner::run(base + QStringList{QStringLiteral("session"), QStringLiteral("idle-device"), QStringLiteral("--json")});
        QVERIFY2(sessionJson.jsonValid, qPrintable(sessionJson.describe()));
        const QJsonArray notes =
            sessionJson.json.value(QLatin1String("session")).toObject().value(QLatin1String("inflight_notes")).toArray();
        QVERIFY2(!notes.isEmpty() && notes.at(0).toString().startsWith(QStringLiteral("$MQTT_msgs does not exist")),
                 qPrintable(sessionJson.describe()));

        const auto account = CliRunner::run(base + QStringList{QStringLiteral("inflight"), QStringLiteral("--json")});
        QVERIFY2(account.jsonValid, qPrintable(account.describe()));
        QVERIFY2(QJsonDocument(account.json.value(QLatin1String("notes")).toArray()).toJson().contains("$MQTT_msgs does not exist"),
                 qPrintable(account.describe()));

        const auto pinned = CliRunner::run(base + QStringList{QStringLiteral("pinned"), QStringLiteral("--json")});
        QVERIFY2(pinned.jsonValid, qPrintable(pinned.describe()));
        const QJsonObject missing = pinned.json.value(QLatin1String("stream_missing")).toObject();
        QCOMPARE(missing.value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_msgs"));
        QVERIFY2(pinned.exitCode() != 0, qPrintable(pinned.describe())); // as check: the missing stream is a finding
        const auto pinnedText = CliRunner::run(base + QStringList{QStringLiteral("pinned")});
        QVERIFY2(pinnedText.out().contains(QStringLiteral("$MQTT_msgs")) && !pinnedText.out().contains(QStringLiteral("nothing is pinned")),
                 qPrintable(pinnedText.describe()));
    }

    void inflight()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        const bool qos2Streams = NatsServerBinary::locate(version).versionNumber() >= QVersionNumber(2, 10);
        const QString url = server.url();
        MqttClient acme(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        acme.setTimeoutMs(30000);

        // A device with a persistent session, offline while three commands are published for it.
        MqttResult sub;
        for (int attempt = 0; attempt < 3 && !sub.subscribed(); ++attempt)
            sub = acme.createPersistentSession(QStringLiteral("device-1"), {QStringLiteral("cmd/device-1/#")}, 1);
        QVERIFY2(sub.subscribed(), qPrintable(sub.describe()));
        const QStringList topics{QStringLiteral("cmd/device-1/reboot"), QStringLiteral("cmd/device-1/update"),
                                 QStringLiteral("cmd/device-1/led")};
        for (const QString &t : topics)
            QVERIFY2(acme.publish(t, "payload of " + t.toUtf8(), 1).acknowledged, qPrintable(t));

        // QoS 2 PUBLISHes whose clients leave after PUBREC: one with a persistent session, one clean.
        const QString kept = publishQos2AndLeave(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"),
                                                 QStringLiteral("q2-publisher"), false, QStringLiteral("cmd/device-1/q2"), "staged", 77);
        const QString orphan = publishQos2AndLeave(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"),
                                                   QStringLiteral("gone-q2"), true, QStringLiteral("telemetry/x"), "left behind", 5);
        if (qos2Streams) {
            QCOMPARE(kept, QStringLiteral("PUBREC"));
            QCOMPARE(orphan, QStringLiteral("PUBREC"));
        } else {
            QVERIFY2(kept != QStringLiteral("PUBREC"), "2.9 refuses QoS 2 PUBLISH");
        }
        QTest::qWait(300);

        const QMap<QString, QString> before = streamsAndConsumers(url);
        QVERIFY2(!before.contains(QStringLiteral("error")), qPrintable(before.value(QStringLiteral("error"))));

        // The device's queued commands, in order, with their topics; nothing delivered yet.
        const auto device = CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                                           + QStringList{QStringLiteral("session"), QStringLiteral("device-1"), QStringLiteral("--json")});
        QVERIFY2(device.exitCode() == 0 && device.jsonValid, qPrintable(device.describe()));
        const QJsonObject session = device.json.value(QLatin1String("session")).toObject();
        const QJsonArray queued = session.value(QLatin1String("queued")).toArray();
        QCOMPARE(values(queued, "topic"), topics);
        QCOMPARE(session.value(QLatin1String("queued_total")).toInteger(), 3);
        for (const QJsonValue &v : queued) {
            const QJsonObject q = v.toObject();
            QCOMPARE(q.value(QLatin1String("qos")).toInt(), 1);
            QCOMPARE(q.value(QLatin1String("delivered")).toInt(), 0);
            QVERIFY(q.value(QLatin1String("consumer")).toString().startsWith(ClientIdHash::hash(QStringLiteral("device-1")) + u'_'));
            QVERIFY(q.value(QLatin1String("payload_preview")).toString().startsWith(QStringLiteral("payload of cmd/device-1/")));
            QVERIFY(q.value(QLatin1String("size")).toInt() > 0);
            QVERIFY(!q.value(QLatin1String("time")).toString().isEmpty());
        }
        QVERIFY(values(queued, "seq").at(0).toLongLong() < values(queued, "seq").at(2).toLongLong());
        QCOMPARE(session.value(QLatin1String("qos2_streams")).toBool(), qos2Streams);
        if (!qos2Streams) {
            // 2.9.10 keeps no QoS 2 streams, and says so.
            const QString notes = session.value(QLatin1String("inflight_notes")).toVariant().toStringList().join(u'\n');
            QVERIFY2(notes.contains(QStringLiteral("nats-server 2.9")), qPrintable(notes));
            const auto text =
                CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("session"), QStringLiteral("device-1")});
            QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("nats-server 2.9, which keeps no $MQTT_qos2in")),
                     qPrintable(text.describe()));
        }

        // --limit bounds each kind; the totals stay.
        const auto limited = CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                                            + QStringList{QStringLiteral("session"), QStringLiteral("device-1"), QStringLiteral("--limit"),
                                                          QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(limited.exitCode() == 0, qPrintable(limited.describe()));
        const QJsonObject limitedSession = limited.json.value(QLatin1String("session")).toObject();
        QCOMPARE(values(limitedSession.value(QLatin1String("queued")).toArray(), "topic"), topics.mid(0, 2));
        QCOMPARE(limitedSession.value(QLatin1String("queued_total")).toInteger(), 3);

        // Bad input: a clear usage error, nothing read.
        const auto badLimit = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("session"), QStringLiteral("device-1"), QStringLiteral("--limit"), QStringLiteral("many")});
        QCOMPARE(badLimit.exitCode(), 64);
        QVERIFY2(badLimit.err().contains(QStringLiteral("--limit must be a number")), qPrintable(badLimit.describe()));
        const auto badAge =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                           + QStringList{QStringLiteral("inflight"), QStringLiteral("--older-than"), QStringLiteral("soon")});
        QCOMPARE(badAge.exitCode(), 64);
        QVERIFY2(badAge.err().contains(QStringLiteral("--older-than must be a duration")), qPrintable(badAge.describe()));

        // The account view: the device with its oldest queued command; the QoS 2 publisher; the orphan.
        const auto account =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("inflight"), QStringLiteral("--json")});
        QVERIFY2(account.exitCode() == 0 && account.jsonValid, qPrintable(account.describe()));
        const QJsonArray sessions = account.json.value(QLatin1String("sessions")).toArray();
        const QJsonObject deviceRow = byKey(sessions, "client_id", QStringLiteral("device-1"));
        QCOMPARE(deviceRow.value(QLatin1String("queued_total")).toInteger(), 3);
        QCOMPARE(deviceRow.value(QLatin1String("oldest_queued")).toObject().value(QLatin1String("topic")).toString(), topics.first());
        QCOMPARE(account.json.value(QLatin1String("qos2_streams")).toBool(), qos2Streams);
        const QJsonArray orphans = account.json.value(QLatin1String("orphans")).toArray();
        if (qos2Streams) {
            // The QoS 2 message waiting for its PUBREL, with packet ID and topic.
            const auto publisher =
                CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                               + QStringList{QStringLiteral("session"), QStringLiteral("q2-publisher"), QStringLiteral("--json")});
            QVERIFY2(publisher.exitCode() == 0 && publisher.jsonValid, qPrintable(publisher.describe()));
            const QJsonObject p = publisher.json.value(QLatin1String("session")).toObject();
            const QJsonArray incoming = p.value(QLatin1String("qos2_incoming")).toArray();
            QCOMPARE(incoming.size(), 1);
            QCOMPARE(incoming.at(0).toObject().value(QLatin1String("packet_id")).toInt(), 77);
            QCOMPARE(incoming.at(0).toObject().value(QLatin1String("topic")).toString(), QStringLiteral("cmd/device-1/q2"));
            QCOMPARE(incoming.at(0).toObject().value(QLatin1String("size")).toInt(), 6);
            QCOMPARE(p.value(QLatin1String("qos2_incoming_total")).toInteger(), 1);
            const QJsonObject row = byKey(sessions, "client_id", QStringLiteral("q2-publisher"));
            QCOMPARE(row.value(QLatin1String("qos2_incoming_total")).toInt(), 1);
            QCOMPARE(row.value(QLatin1String("qos2_incoming_packet_ids")).toArray(), QJsonArray{77});
            // The clean session is gone; its record is not.
            QCOMPARE(orphans.size(), 1);
            QCOMPARE(orphans.at(0).toObject().value(QLatin1String("client_id")).toString(), QStringLiteral("gone-q2"));
            QCOMPARE(orphans.at(0).toObject().value(QLatin1String("packet_ids")).toArray(), QJsonArray{5});
        } else {
            QVERIFY(orphans.isEmpty());
            QVERIFY2(account.json.value(QLatin1String("notes"))
                         .toVariant()
                         .toStringList()
                         .join(u' ')
                         .contains(QStringLiteral("nats-server 2.9")),
                     qPrintable(account.describe()));
        }
        // Everything is younger than an hour.
        const auto older = CliRunner::run(
            LiveCheck::acmeWithSystemArgs(url)
            + QStringList{QStringLiteral("inflight"), QStringLiteral("--older-than"), QStringLiteral("1h"), QStringLiteral("--json")});
        QVERIFY2(older.exitCode() == 0, qPrintable(older.describe()));
        QCOMPARE(older.json.value(QLatin1String("sessions")).toArray().size(), 0);
        QCOMPARE(older.json.value(QLatin1String("orphans")).toArray().size(), 0);
        const auto text = CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("inflight")});
        QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("device-1")), qPrintable(text.describe()));

        // Browsing changed no stream and created no consumer.
        QCOMPARE(streamsAndConsumers(url), before);
        if (!qos2Streams)
            return;

        // QOS2_ORPHANED: found, repaired with a backup, gone, and the check is clean of it.
        const auto check =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("check"), QStringLiteral("--json")});
        QVERIFY2(check.jsonValid, qPrintable(check.describe()));
        const QJsonObject finding = byKey(check.json.value(QLatin1String("findings")).toArray(), "code", QStringLiteral("QOS2_ORPHANED"));
        QVERIFY2(!finding.isEmpty(), qPrintable(check.describe()));
        QCOMPARE(finding.value(QLatin1String("severity")).toString(), QStringLiteral("error"));
        QCOMPARE(finding.value(QLatin1String("client_id")).toString(), QStringLiteral("gone-q2"));
        QCOMPARE(finding.value(QLatin1String("repair")).toString(), QStringLiteral("delete_qos2_records"));

        QTemporaryDir dir;
        qputenv("XDG_DATA_HOME", QFile::encodeName(dir.path()));
        const auto repair =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                               + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                                             QStringLiteral("--finding"), QStringLiteral("QOS2_ORPHANED"), QStringLiteral("--backup-dir"),
                                             dir.filePath(QStringLiteral("backups")), QStringLiteral("--json")},
                           180000);
        QVERIFY2(repair.jsonValid, qPrintable(repair.describe()));
        QVERIFY2(repair.exitCode() == 0, qPrintable(repair.describe()));
        const QStringList backups = repair.json.value(QLatin1String("backups")).toVariant().toStringList();
        QCOMPARE(backups.size(), 1);
        QFile backup(backups.first());
        QVERIFY2(backup.open(QIODevice::ReadOnly), qPrintable(backups.first()));
        const QByteArray content = backup.readAll();
        QVERIFY2(content.contains("\"stream\":\"$MQTT_qos2in\"") && content.contains("$MQTT.qos2.in.gone-q2.5"), content.constData());
        const QJsonObject end = QJsonDocument::fromJson(content.trimmed().split('\n').last()).object();
        QCOMPARE(end.value(QLatin1String("end")).toBool(), true);
        QCOMPARE(end.value(QLatin1String("messages")).toInt(), 1);
        QCOMPARE(byKey(repair.json.value(QLatin1String("remaining")).toArray(), "code", QStringLiteral("QOS2_ORPHANED")), QJsonObject());

        const auto after =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("inflight"), QStringLiteral("--json")});
        QVERIFY2(after.exitCode() == 0, qPrintable(after.describe()));
        QCOMPARE(after.json.value(QLatin1String("orphans")).toArray().size(), 0);
        // The live session's QoS 2 message is untouched.
        QCOMPARE(byKey(after.json.value(QLatin1String("sessions")).toArray(), "client_id", QStringLiteral("q2-publisher"))
                     .value(QLatin1String("qos2_incoming_total"))
                     .toInt(),
                 1);
        const auto recheck =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url) + QStringList{QStringLiteral("check"), QStringLiteral("--json")});
        QVERIFY2(recheck.jsonValid, qPrintable(recheck.describe()));
        QCOMPARE(byKey(recheck.json.value(QLatin1String("findings")).toArray(), "code", QStringLiteral("QOS2_ORPHANED")), QJsonObject());
        // A rerun finds nothing to do.
        const auto rerun =
            CliRunner::run(LiveCheck::acmeWithSystemArgs(url)
                               + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes"),
                                             QStringLiteral("--finding"), QStringLiteral("QOS2_ORPHANED"), QStringLiteral("--backup-dir"),
                                             dir.filePath(QStringLiteral("backups")), QStringLiteral("--json")},
                           180000);
        QVERIFY2(rerun.exitCode() == 0, qPrintable(rerun.describe()));
        QCOMPARE(rerun.json.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestInflight)
#include "tst_inflight.moc"
