// `check` against real servers of every version for what keeps the servers from setting up MQTT for an
// account: a stream capturing $MQTT.> made before the first MQTT client (10065), an account max_streams too
// low for the MQTT streams (10027), and an empty legacy per-session stream that makes the session-stream
// migration loop. The MQTT client's failure and the server's log line are captured, and `explain` of that
// line must name the finding `check` reports.
#include <QJsonArray>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

// The MQTT streams a SUBJECTS_OVERLAP finding harms, with the subjects each needs (its `expected`).
QHash<QString, QJsonArray> harmedStreams(const QJsonObject &finding)
{
    QHash<QString, QJsonArray> out;
    for (const QJsonValue &v : expectedOf(finding).toObject().value(QLatin1String("mqtt_streams")).toArray())
        out.insert(v.toObject().value(QLatin1String("stream")).toString(), v.toObject().value(QLatin1String("subjects")).toArray());
    return out;
}

QStringList names(const QJsonArray &array)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out << v.toString();
    return out;
}

} // namespace

class TestCheckBlockers : public QObject
{
    Q_OBJECT

private slots:
    // Case 3: a stream capturing MQTT subjects exists before the first MQTT client: an operator's "capture
    // everything" stream on $MQTT.>, or narrower ones on one MQTT stream's subjects. The servers create the MQTT
    // streams in order and fail at the first one JetStream refuses (10065).
    void overlap_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("other"); // the operator's stream
        QTest::addColumn<QString>("subject"); // its subject
        QTest::addColumn<QString>("failing"); // the MQTT stream the server cannot create
        QTest::addColumn<QString>("label"); // its label in "create <label> stream for account"
        QTest::addColumn<QString>("expected"); // the subject of the failing stream
        for (const QString &version : NatsServerBinary::testVersionLabels())
            QTest::addRow("%s CATCHALL", qPrintable(version))
                << version << QStringLiteral("CATCHALL") << QStringLiteral("$MQTT.>") << QStringLiteral("$MQTT_sess")
                << QStringLiteral("sessions") << QStringLiteral("$MQTT.sess.>");
        QTest::newRow("2.9 msgs wildcard") << QStringLiteral("2.9") << QStringLiteral("CONFLICT2") << QStringLiteral("$MQTT.msgs.foo.*")
                                           << QStringLiteral("$MQTT_msgs") << QStringLiteral("messages") << QStringLiteral("$MQTT.msgs.>");
        QTest::newRow("2.9 retained") << QStringLiteral("2.9") << QStringLiteral("OTHERRET") << QStringLiteral("$MQTT.rmsgs")
                                      << QStringLiteral("$MQTT_rmsgs") << QStringLiteral("retained messages")
                                      << QStringLiteral("$MQTT.rmsgs");
        QTest::newRow("2.10 qos2in") << QStringLiteral("2.10") << QStringLiteral("QOS2") << QStringLiteral("$MQTT.qos2.*.x")
                                     << QStringLiteral("$MQTT_qos2in") << QStringLiteral("QoS2 incoming messages")
                                     << QStringLiteral("$MQTT.qos2.in.>");
        QTest::newRow("newest retained") << QStringLiteral("newest") << QStringLiteral("OTHERRET")
                                         << QStringLiteral("$MQTT.rmsgs.sensors.>") << QStringLiteral("$MQTT_rmsgs")
                                         << QStringLiteral("retained messages") << QStringLiteral("$MQTT.rmsgs.>");
    }
    void overlap()
    {
        QFETCH(QString, version);
        QFETCH(QString, other);
        QFETCH(QString, subject);
        QFETCH(QString, failing);
        QFETCH(QString, label);
        QFETCH(QString, expected);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.createStream({{QStringLiteral("name"), other},
                                     {QStringLiteral("subjects"), QJsonArray{subject}},
                                     {QStringLiteral("storage"), QStringLiteral("file")}}),
                 qPrintable(admin.error()));

        const qsizetype from = server.logSize();
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult c1 = client.connectOnce(QStringLiteral("c1"));
        QVERIFY2(!c1.connected() && c1.connectionLost(), qPrintable(c1.describe()));
        const QRegularExpression pattern(QStringLiteral("unable to connect: create %1 stream for account \"ACME\": subjects overlap with "
                                                        "an existing stream \\(10065\\)")
                                             .arg(QRegularExpression::escape(label)));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);

        for (const QStringList &connection :
             {acmeArgs(server.url()), systemArgs(server.url()) + QStringList{QStringLiteral("--account"), acme()}}) {
            const CliRunner::Run run = check(connection);
            QVERIFY2(run.jsonValid, qPrintable(run.describe()));
            QJsonObject blocking;
            for (const QJsonObject &f : findingsWith(run, QStringLiteral("SUBJECTS_OVERLAP"), other))
                if (harmedStreams(f).contains(failing))
                    blocking = f;
            QVERIFY2(!blocking.isEmpty(), qPrintable(describe(run)));
            QCOMPARE(str(blocking, "severity"), QStringLiteral("critical"));
            QCOMPARE(str(blocking, "account"), acme());
            QCOMPARE(str(blocking, "repair"), QStringLiteral("resolve_overlap"));
            QCOMPARE(harmedStreams(blocking).value(failing), QJsonArray{expected});
            const QJsonObject actual = actualOf(blocking).toObject();
            QCOMPARE(actual.value(QLatin1String("stream")).toString(), other);
            QCOMPARE(actual.value(QLatin1String("subjects")).toArray(), QJsonArray{subject});
            QCOMPARE(actual.value(QLatin1String("overlapping")).toArray(), QJsonArray{subject});
            // The failing stream is missing and cannot be created: part of the blocker's finding (one cause, one
            // finding), not a STREAM_MISSING of its own.
            QVERIFY2(findingWith(run, QStringLiteral("STREAM_MISSING"), failing).isEmpty(), qPrintable(describe(run)));
            QVERIFY2(str(blocking, "detail").contains(QStringLiteral("refuses to create")), qPrintable(describe(run)));
            QCOMPARE(run.exitCode(), 2);
        }

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("SUBJECTS_OVERLAP")), qPrintable(describeMatch(m)));
        QCOMPARE(m.account, acme());
        QCOMPARE(m.errorCode, 10065);
        QCOMPARE(m.stream, failing);
    }

    // The 2.10+ servers need two more streams: a stream on their subjects is harmless on 2.9 and breaks MQTT
    // after the upgrade. check warns before and reports the blocker after (same store, newer binary).
    void overlapBreaksUpgrade()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.createStream({{QStringLiteral("name"), QStringLiteral("AUDIT")},
                                     {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.qos2.>")}},
                                     {QStringLiteral("storage"), QStringLiteral("file")}}),
                 qPrintable(admin.error()));
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult before = client.connectOnce(QStringLiteral("c1"), false);
        QVERIFY2(before.connected(), qPrintable(before.describe()));

        const CliRunner::Run warned = check(acmeArgs(server.url()));
        QVERIFY2(warned.jsonValid, qPrintable(warned.describe()));
        const QJsonObject hazard = findingWith(warned, QStringLiteral("SUBJECTS_OVERLAP"), QStringLiteral("AUDIT"));
        QVERIFY2(str(hazard, "severity") == QStringLiteral("warning"), qPrintable(describe(warned)));
        QVERIFY2(harmedStreams(hazard).contains(QStringLiteral("$MQTT_qos2in")), qPrintable(describe(warned)));
        QVERIFY2(findingsAbove(warned, QStringLiteral("warning")).isEmpty(), qPrintable(describe(warned)));
        QCOMPARE(warned.exitCode(), 1);

        QVERIFY2(switchBinary(server, QStringLiteral("2.10")), qPrintable(server.errorString()));
        const qsizetype from = server.logSize();
        const MqttResult after = client.connectOnce(QStringLiteral("c1"), false);
        QVERIFY2(!after.connected() && after.connectionLost(), qPrintable(after.describe()));
        const QRegularExpression pattern(QStringLiteral("unable to connect: create QoS2 incoming messages stream for account \"ACME\": "
                                                        "subjects overlap with an existing stream \\(10065\\)"));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject blocking = findingWith(run, QStringLiteral("SUBJECTS_OVERLAP"), QStringLiteral("AUDIT"));
        QVERIFY2(str(blocking, "severity") == QStringLiteral("critical"), qPrintable(describe(run)));
        QVERIFY2(harmedStreams(blocking).contains(QStringLiteral("$MQTT_qos2in")), qPrintable(describe(run)));
        QVERIFY2(findingWith(run, QStringLiteral("STREAM_MISSING"), QStringLiteral("$MQTT_qos2in")).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 2);
        const LogLineMatch m = explain(logLine(server, pattern, from));
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("SUBJECTS_OVERLAP")), qPrintable(describeMatch(m)));
    }

    // Case 4: the account may hold fewer streams than MQTT needs. The servers create the streams in the order
    // sessions, messages, (2.10+: QoS2 incoming, QoS2 outgoing), retained, and fail at the first one over.
    void maxStreams_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<int>("maxStreams");
        QTest::addColumn<QString>("failing"); // the stream the server cannot create
        QTest::addColumn<QString>("label"); // its label in "create <label> stream for account"
        QTest::newRow("2.9 max 1") << QStringLiteral("2.9") << 1 << QStringLiteral("$MQTT_msgs") << QStringLiteral("messages");
        QTest::newRow("2.9 max 2") << QStringLiteral("2.9") << 2 << QStringLiteral("$MQTT_rmsgs") << QStringLiteral("retained messages");
        QTest::newRow("2.10 max 2") << QStringLiteral("2.10") << 2 << QStringLiteral("$MQTT_qos2in")
                                    << QStringLiteral("QoS2 incoming messages");
        QTest::newRow("newest max 3") << QStringLiteral("newest") << 3 << QStringLiteral("$MQTT_out")
                                      << QStringLiteral("QoS2 outgoing PUBREL");
    }
    void maxStreams()
    {
        QFETCH(QString, version);
        QFETCH(int, maxStreams);
        QFETCH(QString, failing);
        QFETCH(QString, label);
        ServerConfig config = ServerConfig::standard();
        config.addAccount(ServerConfig::limitedAccount(QStringLiteral("LIMITED"), QStringLiteral("limited"), QStringLiteral("limitedpass"),
                                                       {64ll << 20, 512ll << 20, maxStreams, 100}));
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));

        const qsizetype from = server.logSize();
        MqttClient client(server.mqttPort(), QStringLiteral("limited"), QStringLiteral("limitedpass"));
        const MqttResult w1 = client.connectOnce(QStringLiteral("w1"));
        QVERIFY2(!w1.connected() && w1.connectionLost(), qPrintable(w1.describe()));
        const QRegularExpression pattern(QStringLiteral("unable to connect: create %1 stream for account \"LIMITED\": maximum number of "
                                                        "streams reached \\(10027\\)")
                                             .arg(QRegularExpression::escape(label)));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);

        // With the account's own user: the account's limits are known.
        const CliRunner::Run run = check(userArgs(server.url(), QStringLiteral("limited"), QStringLiteral("limitedpass")));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("STREAM_LIMIT_HEADROOM"));
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("critical"));
        QCOMPARE(str(f, "account"), QStringLiteral("LIMITED"));
        const int needed = version == QStringLiteral("2.9") ? 3 : 5;
        QCOMPARE(expectedOf(f).toObject().value(QLatin1String("max_streams")).toInt(), needed);
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("max_streams")).toInt(), maxStreams);
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("streams")).toInt(), maxStreams);
        // The streams the limit keeps from being created are named by that one finding, not STREAM_MISSING each.
        QVERIFY2(str(f, "detail").contains(failing), qPrintable(describe(run)));
        QVERIFY2(findingsWith(run, QStringLiteral("STREAM_MISSING")).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 2);

        // With only the system account (JSZ) the streams the servers could not create are still reported.
        const CliRunner::Run viaJsz = check(systemArgs(server.url()), {QStringLiteral("--account"), QStringLiteral("LIMITED")});
        QVERIFY2(viaJsz.jsonValid, qPrintable(viaJsz.describe()));
        const QJsonObject missingJsz = findingWith(viaJsz, QStringLiteral("STREAM_MISSING"), failing);
        QVERIFY2(severityRank(str(missingJsz, "severity")) >= severityRank(QStringLiteral("error")), qPrintable(describe(viaJsz)));
        QCOMPARE(viaJsz.exitCode(), 2);

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("STREAM_LIMIT_HEADROOM")), qPrintable(describeMatch(m)));
        QCOMPARE(m.account, QStringLiteral("LIMITED"));
        QCOMPARE(m.errorCode, 10027);
        QCOMPARE(m.stream, failing);
    }

    // max_streams 3 is enough for the 2.9 layout, not for 2.10+ ($MQTT_qos2in, $MQTT_out): check warns before
    // the upgrade and reports the blocker after it (same store, newer binary).
    void maxStreamsBreaksUpgrade()
    {
        ServerConfig config = ServerConfig::standard();
        config.addAccount(ServerConfig::limitedAccount(QStringLiteral("LIMITED"), QStringLiteral("limited"), QStringLiteral("limitedpass"),
                                                       {64ll << 20, 512ll << 20, 3, 100}));
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), config), qPrintable(server.errorString()));
        MqttClient client(server.mqttPort(), QStringLiteral("limited"), QStringLiteral("limitedpass"));
        const MqttResult before = client.connectOnce(QStringLiteral("w1"), false);
        QVERIFY2(before.connected(), qPrintable(before.describe()));
        const QStringList limited = userArgs(server.url(), QStringLiteral("limited"), QStringLiteral("limitedpass"));

        const CliRunner::Run warned = check(limited);
        QVERIFY2(warned.jsonValid, qPrintable(warned.describe()));
        const QJsonObject hazard = findingWith(warned, QStringLiteral("STREAM_LIMIT_HEADROOM"));
        QVERIFY2(str(hazard, "severity") == QStringLiteral("warning"), qPrintable(describe(warned)));
        QCOMPARE(expectedOf(hazard).toObject().value(QLatin1String("max_streams")).toInt(), 5);
        QCOMPARE(actualOf(hazard).toObject().value(QLatin1String("max_streams")).toInt(), 3);
        QVERIFY2(findingsAbove(warned, QStringLiteral("warning")).isEmpty(), qPrintable(describe(warned)));
        QCOMPARE(warned.exitCode(), 1);

        QVERIFY2(switchBinary(server, QStringLiteral("2.10")), qPrintable(server.errorString()));
        const qsizetype from = server.logSize();
        const MqttResult after = client.connectOnce(QStringLiteral("w1"), false);
        QVERIFY2(!after.connected() && after.connectionLost(), qPrintable(after.describe()));
        const QRegularExpression pattern(QStringLiteral("unable to connect: create QoS2 incoming messages stream for account \"LIMITED\": "
                                                        "maximum number of streams reached \\(10027\\)"));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));

        const CliRunner::Run run = check(limited);
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject blocking = findingWith(run, QStringLiteral("STREAM_LIMIT_HEADROOM"));
        QVERIFY2(str(blocking, "severity") == QStringLiteral("critical"), qPrintable(describe(run)));
        QCOMPARE(expectedOf(blocking).toObject().value(QLatin1String("max_streams")).toInt(), 5);
        QCOMPARE(run.exitCode(), 2);
        const LogLineMatch m = explain(logLine(server, pattern, from));
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("STREAM_LIMIT_HEADROOM")), qPrintable(describeMatch(m)));
    }

    // Case 7: an empty legacy per-session stream (as servers up to 2.4 made them: subjects = its own name,
    // max_msgs 1) exists when the first MQTT client connects. The server creates $MQTT_sess, tries to move the
    // legacy stream into it, cannot load its record, and retries every 5 s forever; MQTT itself works.
    void emptyLegacySessionStream_data() { addServerVersionRows(); }
    void emptyLegacySessionStream()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const QString legacy = QStringLiteral("$MQTT_sess_kBmSuDPK"); // the hash of "sensor-sub-1"
        QVERIFY2(admin.createStream({{QStringLiteral("name"), legacy},
                                     {QStringLiteral("subjects"), QJsonArray{legacy}},
                                     {QStringLiteral("storage"), QStringLiteral("file")},
                                     {QStringLiteral("max_msgs"), 1}}),
                 qPrintable(admin.error()));

        const qsizetype from = server.logSize();
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult session = client.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/#")}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));
        const QRegularExpression pattern(QStringLiteral("Unable to load session record: no message found \\(10037\\)"));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);
        const QString retryLine = logLine(server, QRegularExpression(QStringLiteral("Failed to transfer all MQTT session streams")), from);

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("LEGACY_SESSION_STREAMS"), legacy);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("warning"));
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("messages")).toInt(), 0);
        QCOMPARE(names(actualOf(f).toObject().value(QLatin1String("subjects")).toArray()), QStringList{legacy});
        QCOMPARE(expectedOf(f).toObject().value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_sess"));
        QVERIFY2(findingsAbove(run, QStringLiteral("warning")).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 1);

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("LEGACY_SESSION_STREAMS")), qPrintable(describeMatch(m)));
        QVERIFY2(!retryLine.isEmpty(), qPrintable(server.logTail()));
        const LogLineMatch r = explain(retryLine);
        QVERIFY2(r.matched && r.codes.contains(QStringLiteral("LEGACY_SESSION_STREAMS")), qPrintable(describeMatch(r)));
    }
};

QTEST_GUILESS_MAIN(TestCheckBlockers)
#include "tst_checkblockers.moc"
