// The stream-level repairs that change a stream in place against real servers of every version: a missing
// $MQTT_sess created, a wrong per-subject limit or subject list updated. Real MQTT state made by mosquitto
// clients, the streams broken the way operators break them, then gather → check → RepairPlanner::plan →
// RepairExecutor::run. Each case asserts: a dry run and a read-only profile change nothing, the repair
// completes, a fresh check no longer reports the finding, MQTT clients connect again (a persistent session
// gets the QoS1 message queued for it while offline, where the state survived), every other message of the
// account is intact, the backups hold what was removed, and rerunning the same plan finds everything done.
// The repairs that replace a stream (recreate_stream, resolve_overlap): tst_repairstreams_replace.cpp.
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "streamrepaircase.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace MqttDoctor::Test::StreamRepair;

class TestRepairStreams : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase() { prepareRepairTests(m_data); }

    // $MQTT_sess deleted while the server runs: create_stream with the exact config; MQTT connects again and
    // the queued and retained messages of the other streams are untouched.
    void createMissingSessions_data() { addVersionRows(); }
    void createMissingSessions()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("fresh-before")).connected(),
                 "connect must fail while $MQTT_sess is missing");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const QStringList others0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        RepairPlan plan;
        repairAndCheck(r, QStringLiteral("STREAM_MISSING"), kSess, {QStringLiteral("STREAM_MISSING")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        QCOMPARE(plan.steps.first().action, QStringLiteral("create_stream"));
        QCOMPARE(plan.steps.first().description,
                 QStringLiteral("Create $MQTT_sess (subjects $MQTT.sess.>, limits, file, max_msgs_per_subject 1, R1)"));
        QCOMPARE(plan.steps.first().requests.first().subject, QStringLiteral("$JS.API.STREAM.CREATE.$MQTT_sess"));
        QVERIFY(!plan.steps.first().destructive);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), others0);
        verifyMqttWorks(server);
    }

    // $MQTT_sess "tuned" to max_msgs_per_subject -1, a session saved again: STREAM_CONFIG_WRONG and
    // DUPLICATE_SESSION_RECORDS. update_stream sets 1 (purging the older records, backed up first).
    void perSubjectLimit_data() { addVersionRows(); }
    void perSubjectLimit()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kSess, {{QStringLiteral("max_msgs_per_subject"), -1}}), qPrintable(admin.error()));
        const MqttResult again = acmeMqtt(server).createPersistentSession(QStringLiteral("sensor-sub-2"), {QStringLiteral("doors/#")}, 1);
        QVERIFY2(again.subscribed(), qPrintable(again.describe()));
        const MqttResult third = acmeMqtt(server).createPersistentSession(QStringLiteral("sensor-sub-2"), {QStringLiteral("windows/#")}, 1);
        QVERIFY2(third.subscribed(), qPrintable(third.describe()));
        QVERIFY2(acmeMqtt(server).publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-3")).acknowledged,
                 "queued");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const QStringList sess0 = contentOf(r.connection(), kSess);
        const QStringList others0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        QVERIFY2(has(r.check(), QStringLiteral("DUPLICATE_SESSION_RECORDS"), kSess), "duplicates expected");
        RepairPlan plan;
        const RepairExecutor::Report report =
            repairAndCheck(r, QStringLiteral("STREAM_CONFIG_WRONG"), kSess,
                           {QStringLiteral("STREAM_CONFIG_WRONG"), QStringLiteral("DUPLICATE_SESSION_RECORDS")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        const RepairStep &step = plan.steps.first();
        QCOMPARE(step.action, QStringLiteral("update_stream"));
        QVERIFY(step.destructive);
        QCOMPARE(step.diff, QStringLiteral("-max_msgs_per_subject: -1\n+max_msgs_per_subject: 1"));
        QCOMPARE(step.requests.first().body.value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        QCOMPARE(step.requests.first().body.value(QLatin1String("duplicate_window")).toInteger(), qint64(120000000000));

        // Only the newest record per subject is left; the backup holds every record the update purged.
        const QStringList sess1 = contentOf(r.connection(), kSess);
        QVERIFY2(sess1.size() < sess0.size(), qPrintable(sess1.join(u'\n')));
        for (const QString &m : sess1)
            QVERIFY2(sess0.contains(m), qPrintable(m));
        QCOMPARE(report.backups.size(), 1);
        QCOMPARE(backupContent(report.backups.first()), sess0);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), others0);
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }

    // $MQTT_sess narrowed to a wrong subject after set-up: every save times out. update_stream puts the
    // subjects back; the records stayed in the stream, so the session resumes with its queued message.
    void subjectsWrong_data() { addVersionRows(); }
    void subjectsWrong()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kSess, {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.foo.>")}}}),
                 qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("c1"), false).connected(), "saving a session must fail");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        // (A consumer does not see the records outside the narrowed subjects: compare the record count instead.)
        const auto sessMessages = [&admin] {
            QJsonObject info;
            return admin.call(QStringLiteral("STREAM.INFO.$MQTT_sess"), {}, &info)
                ? info.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger()
                : -1;
        };
        const qint64 records0 = sessMessages();
        QVERIFY(records0 > 0);
        const QStringList content0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        RepairPlan plan;
        repairAndCheck(r, QStringLiteral("STREAM_SUBJECTS_WRONG"), kSess, {QStringLiteral("STREAM_SUBJECTS_WRONG")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.first().diff, QStringLiteral("-subjects: [$MQTT.sess.foo.>]\n+subjects: [$MQTT.sess.>]"));
        QVERIFY(!plan.steps.first().destructive);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), content0);
        QCOMPARE(sessMessages(), records0);
        QCOMPARE(contentOf(r.connection(), kSess).size(), records0);
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }
};

QTEST_GUILESS_MAIN(TestRepairStreams)
#include "tst_repairstreams.moc"
