// `check` against real servers of every version: a healthy account with real MQTT traffic, the sessions
// stream deleted after MQTT set-up, and a sessions stream with the wrong max_msgs_per_subject or subjects.
// Each broken state is made the way it happens in the field, the MQTT client's failure and the server's log
// line are captured, and `explain` of that line must name the finding `check` reports.
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

const QString kSess = QStringLiteral("$MQTT_sess");

// Real MQTT state in ACME: a persistent QoS1 session, a retained QoS1 message and a QoS1 message queued for
// the offline session.
void makeMqttState(quint16 mqttPort)
{
    MqttClient acme(mqttPort, QStringLiteral("acme"), QStringLiteral("acmepass"));
    const MqttResult session =
        acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    const MqttResult retained = acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true, QStringLiteral("pub-1"));
    QVERIFY2(retained.acknowledged, qPrintable(retained.describe()));
    const MqttResult queued = acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-3"));
    QVERIFY2(queued.acknowledged, qPrintable(queued.describe()));
}

bool connectAdmin(JetStreamAdmin &admin, const NatsServerFixture &server)
{
    return admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass"));
}

} // namespace

class TestCheckStreams : public QObject
{
    Q_OBJECT

private slots:
    // Case 1: nothing above info on a healthy account, through the account's API and through JSZ.
    void healthyAccount_data() { addServerVersionRows(); }
    void healthyAccount()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort());
        if (QTest::currentTestFailed())
            return;

        const CliRunner::Run own = check(acmeArgs(server.url()));
        QVERIFY2(own.jsonValid, qPrintable(own.describe()));
        QVERIFY2(findingsAbove(own, QStringLiteral("info")).isEmpty(), qPrintable(describe(own)));
        QVERIFY2(own.exitCode() == 0, qPrintable(describe(own)));
        QCOMPARE(own.json.value(QLatin1String("accounts")).toArray(), QJsonArray{acme()});

        QCOMPARE(own.json.value(QLatin1String("coverage_complete")).toBool(), true);
        QCOMPARE(own.json.value(QLatin1String("coverage")).toArray(),
                 (QJsonArray{QJsonObject{{QStringLiteral("account"), acme()},
                                         {QStringLiteral("connections"), QStringLiteral("not_checked")},
                                         {QStringLiteral("records"), QStringLiteral("checked")},
                                         {QStringLiteral("streams"), QStringLiteral("checked")}}}));

        // Through the system account only: the streams are checked from its view, the session records cannot
        // be read without the account's credentials. Nothing wrong was seen, but that is not "no problem":
        // exit 3, and the result says what was not checked and why, first.
        const CliRunner::Run viaJsz = check(systemArgs(server.url()), {QStringLiteral("--account"), acme()});
        QVERIFY2(viaJsz.jsonValid, qPrintable(viaJsz.describe()));
        QVERIFY2(findingsAbove(viaJsz, QStringLiteral("info")).isEmpty(), qPrintable(describe(viaJsz)));
        QVERIFY2(viaJsz.exitCode() == 3, qPrintable(describe(viaJsz)));
        QCOMPARE(viaJsz.json.value(QLatin1String("coverage_complete")).toBool(true), false);
        QCOMPARE(viaJsz.json.value(QLatin1String("coverage")).toArray().first().toObject().value(QLatin1String("records")).toString(),
                 QStringLiteral("not_checked"));
        const QJsonObject gap = viaJsz.json.value(QLatin1String("not_checked")).toArray().first().toObject();
        QCOMPARE(gap.value(QLatin1String("cause")).toString(), QStringLiteral("no_credentials"));
        QCOMPARE(gap.value(QLatin1String("level")).toString(), QStringLiteral("records"));
        const CliRunner::Run viaJszText =
            CliRunner::run(systemArgs(server.url()) + QStringList{QStringLiteral("check"), QStringLiteral("--account"), acme()});
        QCOMPARE(viaJszText.exitCode(), 3);
        QVERIFY2(viaJszText.out().startsWith(QStringLiteral("Not checked")), qPrintable(viaJszText.describe()));
        QVERIFY2(!viaJszText.out().contains(QStringLiteral("No problem found.")), qPrintable(viaJszText.describe()));
        // Left out on request, the records do not hold the verdict open.
        const CliRunner::Run streamsOnly =
            check(systemArgs(server.url()), {QStringLiteral("--account"), acme(), QStringLiteral("--no-records")});
        QVERIFY2(streamsOnly.exitCode() == 0, qPrintable(describe(streamsOnly)));

        // The persistent session still works after the checks (read-only: nothing was changed).
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult resumed = client.subscribeAndCollect(
            QStringLiteral("sensor-sub-1"), {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#")}, 1, 3, 5, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
    }

    // Case 2: $MQTT_sess deleted while the server runs, after MQTT was set up for the account. The server
    // never recreates it: every new MQTT connect fails loading the session record (10059).
    void sessionsStreamDeleted_data() { addServerVersionRows(); }
    void sessionsStreamDeleted()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort());
        if (QTest::currentTestFailed())
            return;

        JetStreamAdmin admin;
        QVERIFY2(connectAdmin(admin, server), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));

        const qsizetype from = server.logSize();
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult fresh = client.connectOnce(QStringLiteral("fresh1"));
        QVERIFY2(!fresh.connected() && fresh.connackCode == -1, qPrintable(fresh.describe()));
        const QRegularExpression pattern(QStringLiteral("unable to connect: loading session record.*stream not found \\(10059\\)"));
        QVERIFY2(server.waitForLog(pattern, 5000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);

        // A client whose persistent session the server still holds in memory fails differently: saving the
        // session record times out (nothing captures $MQTT.sess.<hash> any more).
        const qsizetype cachedFrom = server.logSize();
        const MqttResult cached = client.connectOnce(QStringLiteral("sensor-sub-1"), false);
        QVERIFY2(!cached.connected() && cached.connectionLost(), qPrintable(cached.describe()));
        const QRegularExpression persist(
            QStringLiteral("\"sensor-sub-1\" - unable to connect: unable to persist session \"sensor-sub-1\".*timeout"));
        QVERIFY2(server.waitForLog(persist, 8000, cachedFrom), qPrintable(server.logTail()));
        const LogLineMatch persistMatch = explain(logLine(server, persist, cachedFrom));
        QVERIFY2(persistMatch.matched && persistMatch.codes.contains(QStringLiteral("STREAM_MISSING")),
                 qPrintable(describeMatch(persistMatch)));

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("STREAM_MISSING"), kSess);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("critical"));
        QCOMPARE(str(f, "account"), acme());
        QCOMPARE(str(f, "repair"), QStringLiteral("create_stream"));
        const QJsonObject expected = expectedOf(f).toObject();
        QCOMPARE(expected.value(QLatin1String("name")).toString(), kSess);
        QCOMPARE(expected.value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.>")});
        QCOMPARE(expected.value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        QVERIFY2(actualOf(f).isNull(), qPrintable(compact(actualOf(f))));
        QCOMPARE(run.exitCode(), 2);
        // Only $MQTT_sess is missing: the other streams are fine.
        QCOMPARE(findingsWith(run, QStringLiteral("STREAM_MISSING")).size(), 1);

        // The same through the system account's JSZ view.
        const CliRunner::Run viaJsz = check(systemArgs(server.url()), {QStringLiteral("--account"), acme()});
        const QJsonObject fj = findingWith(viaJsz, QStringLiteral("STREAM_MISSING"), kSess);
        QVERIFY2(!fj.isEmpty() && str(fj, "severity") == QStringLiteral("critical"), qPrintable(describe(viaJsz)));
        QCOMPARE(viaJsz.exitCode(), 2);

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("STREAM_MISSING")), qPrintable(describeMatch(m)));
        QCOMPARE(m.account, acme());
        QCOMPARE(m.clientId, QStringLiteral("fresh1"));
        QCOMPARE(m.errorCode, 10059);
        // The CLI's explain says the same.
        const QJsonObject cli = explainCli(line);
        QVERIFY2(cli.value(QLatin1String("codes")).toArray().contains(QStringLiteral("STREAM_MISSING")), qPrintable(compact(cli)));
    }

    // Case 6a: someone "tuned" $MQTT_sess after set-up (max_msgs_per_subject -1). MQTT keeps working but a
    // session saved again leaves its older record behind.
    void sessionsPerSubjectLimitChanged_data() { addServerVersionRows(); }
    void sessionsPerSubjectLimitChanged()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort());
        if (QTest::currentTestFailed())
            return;

        JetStreamAdmin admin;
        QVERIFY2(connectAdmin(admin, server), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kSess, {{QStringLiteral("max_msgs_per_subject"), -1}}), qPrintable(admin.error()));
        // The session is saved again (new subscription): now its old record stays.
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult again = client.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("doors/#")}, 1);
        QVERIFY2(again.subscribed(), qPrintable(again.describe()));

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("STREAM_CONFIG_WRONG"), kSess);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("error"));
        QCOMPARE(str(f, "repair"), QStringLiteral("update_stream"));
        QCOMPARE(expectedOf(f).toObject().value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("max_msgs_per_subject")).toInt(), -1);
        QVERIFY2(actualOf(f).toObject().value(QLatin1String("messages")).toInt()
                     > actualOf(f).toObject().value(QLatin1String("num_subjects")).toInt(),
                 qPrintable(compact(actualOf(f))));
        QCOMPARE(findingsWith(run, QStringLiteral("STREAM_SUBJECTS_WRONG")).size(), 0);
        QCOMPARE(run.exitCode(), 2);
    }

    // Case 6b: $MQTT_sess made by hand with the wrong subjects before the first MQTT client. The server takes
    // the existing stream as it is; no stream captures $MQTT.sess.<hash>, so saving a session times out and
    // the connect fails.
    void sessionsSubjectsWrong_data() { addServerVersionRows(); }
    void sessionsSubjectsWrong()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(connectAdmin(admin, server), qPrintable(admin.error()));
        QVERIFY2(admin.createStream({{QStringLiteral("name"), kSess},
                                     {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.foo.>")}},
                                     {QStringLiteral("retention"), QStringLiteral("limits")},
                                     {QStringLiteral("storage"), QStringLiteral("file")},
                                     {QStringLiteral("max_msgs_per_subject"), 1}}),
                 qPrintable(admin.error()));

        const qsizetype from = server.logSize();
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult c1 = client.connectOnce(QStringLiteral("c1"), false);
        QVERIFY2(!c1.connected() && c1.connectionLost(), qPrintable(c1.describe()));
        const QRegularExpression pattern(QStringLiteral("\"c1\" - unable to connect: unable to persist session \"c1\".*timeout"));
        QVERIFY2(server.waitForLog(pattern, 8000, from), qPrintable(server.logTail()));
        const QString line = logLine(server, pattern, from);

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("STREAM_SUBJECTS_WRONG"), kSess);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("critical"));
        QCOMPARE(expectedOf(f).toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.>")});
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.foo.>")});
        QCOMPARE(run.exitCode(), 2);

        const LogLineMatch m = explain(line);
        QVERIFY2(m.matched && m.codes.contains(QStringLiteral("STREAM_SUBJECTS_WRONG")), qPrintable(describeMatch(m)));
        QCOMPARE(m.clientId, QStringLiteral("c1"));
    }
};

QTEST_GUILESS_MAIN(TestCheckStreams)
#include "tst_checkstreams.moc"
