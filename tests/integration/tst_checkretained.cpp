// `check` against real servers for the retained-messages layouts of 2.9 (one subject $MQTT.rmsgs) and 2.10+
// ($MQTT.rmsgs.<subject>, max_msgs_per_subject 1): a 2.10+ layout in front of a 2.9.10 server (10093), and a
// 2.9 store read by a newer server before its first MQTT client (the migration it will run).
#include <QJsonArray>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

const QString kRetained = QStringLiteral("$MQTT_rmsgs");

MqttClient acmeClient(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

// MQTT state as a 2.9 server leaves it: a persistent QoS1 session, two retained messages (QoS1, QoS0) and a
// QoS1 message queued for the offline session.
void makeMqttState(const NatsServerFixture &server)
{
    const MqttClient acme = acmeClient(server);
    const MqttResult session =
        acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    const MqttResult kitchen = acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true, QStringLiteral("pub-1"));
    QVERIFY2(kitchen.acknowledged, qPrintable(kitchen.describe()));
    const MqttResult garage = acme.publish(QStringLiteral("sensors/garage/temp"), "9.0", 0, true, QStringLiteral("pub-1"));
    QVERIFY2(garage.exitCode == 0, qPrintable(garage.describe()));
    const MqttResult queued = acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-3"));
    QVERIFY2(queued.acknowledged, qPrintable(queued.describe()));
}

QStringList strings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

} // namespace

class TestCheckRetained : public QObject
{
    Q_OBJECT

private:
    // What a 2.9.10 server says about a $MQTT_rmsgs in the 2.10+ layout, and what check and explain make of it.
    void verifyDowngrade(NatsServerFixture &server)
    {
        const qsizetype from = server.logSize();
        const MqttResult c1 = acmeClient(server).connectOnce(QStringLiteral("c1"));
        QVERIFY2(!c1.connected() && c1.connectionLost(), qPrintable(c1.describe()));
        const QRegularExpression pattern(
            QStringLiteral("\"c1\" - unable to connect: create retained messages consumer for account \"ACME\": "
                           "consumer filter subject is not a valid subset of the interest subjects \\(10093\\)"));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);

        QStringList reported;
        for (const QStringList &connection :
             {acmeArgs(server.url()), systemArgs(server.url()) + QStringList{QStringLiteral("--account"), acme()}}) {
            const CliRunner::Run run = check(connection);
            QVERIFY2(run.jsonValid, qPrintable(run.describe()));
            const QJsonObject f = findingWith(run, QStringLiteral("RETAINED_DOWNGRADE"), kRetained);
            QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
            QCOMPARE(str(f, "severity"), QStringLiteral("critical"));
            QCOMPARE(str(f, "repair"), QStringLiteral("revert_retained"));
            QCOMPARE(strings(expectedOf(f).toObject().value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.rmsgs")});
            QCOMPARE(strings(actualOf(f).toObject().value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
            QCOMPARE(actualOf(f).toObject().value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
            // The 2.9 shape is not reported a second time as wrong subjects or config.
            QVERIFY2(findingsWith(run, QStringLiteral("STREAM_SUBJECTS_WRONG"), kRetained).isEmpty(), qPrintable(describe(run)));
            QVERIFY2(findingsWith(run, QStringLiteral("STREAM_CONFIG_WRONG"), kRetained).isEmpty(), qPrintable(describe(run)));
            QCOMPARE(run.exitCode(), 2);
            // The session records are left alone: a consumer on this store can hang 2.9.10's JetStream API.
            const QString note =
                connection.contains(QStringLiteral("--user")) ? QStringLiteral("downgrade") : QStringLiteral("credentials");
            bool said = false;
            for (const QJsonValue &n : run.json.value(QLatin1String("notes")).toArray())
                said = said || n.toString().contains(note);
            QVERIFY2(said, qPrintable(run.out()));
            for (const QJsonObject &g : findingsAbove(run, QStringLiteral("info")))
                reported << str(g, "code");
        }

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("RETAINED_DOWNGRADE")), qPrintable(describeMatch(m)));
        QCOMPARE(m.account, acme());
        QCOMPARE(m.errorCode, 10093);
        for (const QString &code : m.codes)
            QVERIFY2(code == QStringLiteral("RETAINED_DOWNGRADE") || code == QStringLiteral("STREAM_SUBJECTS_WRONG")
                         || reported.contains(code),
                     qPrintable(describeMatch(m)));
    }

private slots:
    // Case 5: a 2.10+-shaped $MQTT_rmsgs (made by hand, or by a 2.10 server the account was served by) exists
    // before the first MQTT client of a 2.9.10 server.
    void modernLayoutOn29()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.createStream({{QStringLiteral("name"), kRetained},
                                     {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs.>")}},
                                     {QStringLiteral("retention"), QStringLiteral("limits")},
                                     {QStringLiteral("storage"), QStringLiteral("file")},
                                     {QStringLiteral("max_msgs_per_subject"), 1}}),
                 qPrintable(admin.error()));
        verifyDowngrade(server);
    }

    // Case 5, as it happens in the field: the account ran on 2.10 (which migrated $MQTT_rmsgs), then the server
    // was downgraded to 2.9.10 on the same store.
    void downgradeTo29()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.10"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(switchBinary(server, QStringLiteral("2.9")), qPrintable(server.errorString()));
        verifyDowngrade(server);
    }

    // Case 9: a 2.9.10 store read by a newer server before any MQTT client: the checks hold it to the 2.10+
    // layout, which the server reaches by itself at the first MQTT connect (info, not a problem). After that
    // connect the account is clean and the retained messages survived.
    void legacyLayoutOnNewer_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2.10") << QStringLiteral("2.10");
        QTest::newRow("newest") << QStringLiteral("newest");
    }
    void legacyLayoutOnNewer()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(switchBinary(server, version), qPrintable(server.errorString()));
        QVERIFY(server.binary().versionNumber() >= QVersionNumber(2, 10));

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject legacy = findingWith(run, QStringLiteral("RETAINED_LEGACY_LAYOUT"), kRetained);
        QVERIFY2(!legacy.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(legacy, "severity"), QStringLiteral("info"));
        QCOMPARE(strings(expectedOf(legacy).toObject().value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
        QCOMPARE(expectedOf(legacy).toObject().value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        const QJsonObject actual = actualOf(legacy).toObject();
        QCOMPARE(strings(actual.value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.rmsgs")});
        QCOMPARE(actual.value(QLatin1String("max_msgs_per_subject")).toInt(), -1);
        QCOMPARE(actual.value(QLatin1String("messages")).toInt(), 2);
        const QStringList legacyExplains = strings(legacy.value(QLatin1String("explains")));
        QVERIFY2(legacyExplains.contains(QStringLiteral("Processed %d messages from '$MQTT.rmsgs', successfully transferred %d in %v")),
                 qPrintable(legacyExplains.join(u'\n')));
        for (const QString &name : {QStringLiteral("$MQTT_qos2in"), QStringLiteral("$MQTT_out")}) {
            const QJsonObject missing = findingWith(run, QStringLiteral("STREAM_MISSING"), name);
            QVERIFY2(!missing.isEmpty() && str(missing, "severity") == QStringLiteral("info"), qPrintable(describe(run)));
        }
        QVERIFY2(findingsAbove(run, QStringLiteral("info")).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 0);

        // The same through the system account's JSZ view (stream-level checks: the records need the account's
        // credentials, and a check that leaves them out on request does not hold that against the verdict).
        const CliRunner::Run viaJsz =
            check(systemArgs(server.url()), {QStringLiteral("--account"), acme(), QStringLiteral("--no-records")});
        QVERIFY2(!findingWith(viaJsz, QStringLiteral("RETAINED_LEGACY_LAYOUT"), kRetained).isEmpty(), qPrintable(describe(viaJsz)));
        QVERIFY2(findingsAbove(viaJsz, QStringLiteral("info")).isEmpty(), qPrintable(describe(viaJsz)));
        QCOMPARE(viaJsz.exitCode(), 0);

        // The first MQTT client: the server migrates; the session, the queued and the retained messages survive.
        const qsizetype from = server.logSize();
        const MqttResult resumed = acmeClient(server).subscribeAndCollect(
            QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1, 4, 20, true);
        QVERIFY2(resumed.connected(), qPrintable(resumed.describe() + u'\n' + server.logTail()));
        QStringList payloads = resumed.receivedPayloads();
        QVERIFY2(payloads.contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
        // The retained messages reach a subscriber once the migrating server has loaded them through its retained
        // consumer: from 2.12.3 on that happens after the CONNACK, so the first subscriber may come too early. A new
        // one (at most three) must see both.
        for (int attempt = 1; attempt <= 3 && !(payloads.contains(QStringLiteral("21.5")) && payloads.contains(QStringLiteral("9.0")));
             ++attempt) {
            QThread::msleep(500);
            const MqttResult reader = acmeClient(server).subscribeAndCollect(QStringLiteral("reader-%1").arg(attempt),
                                                                             {QStringLiteral("sensors/+/temp")}, 1, 2, 10);
            payloads += reader.receivedPayloads();
        }
        for (const QString &p : {QStringLiteral("21.5"), QStringLiteral("9.0")})
            QVERIFY2(payloads.contains(p), qPrintable(resumed.describe() + u'\n' + payloads.join(u", ")));
        const QRegularExpression transferred(QStringLiteral("Processed 2 messages from '\\$MQTT.rmsgs', successfully transferred 2"));
        QVERIFY2(server.waitForLog(transferred, 2000, from), qPrintable(server.logTail()));
        const QString transferLine = logLine(server, transferred, from);

        const CliRunner::Run after = check(acmeArgs(server.url()));
        QVERIFY2(after.jsonValid, qPrintable(after.describe()));
        QVERIFY2(stateFindings(after).isEmpty(), qPrintable(describe(after)));
        QCOMPARE(after.exitCode(), 0);

        // RETAINED_LEGACY_LAYOUT lists this template among the lines it explains (finding.explains), so explain
        // of the line must lead back to it.
        const LogLineMatch m = explain(transferLine);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("RETAINED_LEGACY_LAYOUT")),
                 qPrintable(QStringLiteral("explain does not relate the migration line to RETAINED_LEGACY_LAYOUT, which lists it in "
                                           "its explains: ")
                            + describeMatch(m)));
    }
};

QTEST_GUILESS_MAIN(TestCheckRetained)
#include "tst_checkretained.moc"
