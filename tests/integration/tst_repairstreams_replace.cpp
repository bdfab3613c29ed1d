// The stream-level repairs that replace a stream against real servers of every version: recreate_stream (an MQTT
// stream made with memory storage is backed up, recreated on file and restored) and resolve_overlap (a stream
// capturing MQTT subjects is deleted or narrowed so the MQTT streams can be created). Same checks as
// tst_repairstreams.cpp (repairAndCheck in streamrepaircase.h): dry run and read-only change nothing, the repair
// completes and is verified, MQTT works again, nothing is lost, the backups hold what was removed, a rerun
// finds everything done.
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "streamrepaircase.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace MqttDoctor::Test::StreamRepair;

class TestRepairStreamsReplace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase() { prepareRepairTests(m_data); }

    // An MQTT stream created by hand with memory storage before the first MQTT client: the servers use it
    // as is and lose the state on restart. recreate_stream backs it up, recreates it on file and restores
    // consumers then messages; the session resumes with its queued message.
    void recreateStorage_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("stream");
        for (const QString &label : NatsServerBinary::testVersionLabels()) {
            QTest::addRow("%s sess", qPrintable(label)) << label << kSess;
            QTest::addRow("%s msgs", qPrintable(label)) << label << kMsgs;
            if (label != QLatin1String("2.9")) // $MQTT_out (PUBREL records) exists from 2.10
                QTest::addRow("%s out", qPrintable(label)) << label << kOut;
        }
    }
    void recreateStorage()
    {
        QFETCH(QString, version);
        QFETCH(QString, stream);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const bool sess = stream == kSess;
        const QString subjects = sess ? QStringLiteral("$MQTT.sess.>")
            : stream == kOut          ? QStringLiteral("$MQTT.out.>")
                                      : QStringLiteral("$MQTT.msgs.>");
        QJsonObject config{{QStringLiteral("name"), stream},
                           {QStringLiteral("subjects"), QJsonArray{subjects}},
                           {QStringLiteral("retention"), sess ? QStringLiteral("limits") : QStringLiteral("interest")},
                           {QStringLiteral("storage"), QStringLiteral("memory")}};
        if (sess)
            config.insert(QStringLiteral("max_msgs_per_subject"), 1);
        QVERIFY2(admin.createStream(config), qPrintable(admin.error()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const auto allContent = [&r, &stream] {
            QStringList c = contentOf(r.connection(), kSess) + contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
            if (stream == kOut) // PUBREL records are rare and short-lived: the stream's consumers are what must survive
                c += consumerNamesOf(r.connection(), kOut);
            return c;
        };
        if (stream == kOut) { // a QoS 2 session owns a PUBREL durable on $MQTT_out
            const MqttResult qos2 = acmeMqtt(server).createPersistentSession(QStringLiteral("qos2-sub-3"), {QStringLiteral("cmd/#")}, 2);
            QVERIFY2(qos2.subscribed(), qPrintable(qos2.describe()));
            QVERIFY2(consumerNamesOf(r.connection(), kOut).size() == 1, qPrintable(consumerNamesOf(r.connection(), kOut).join(u',')));
        } else {
            QVERIFY2(!contentOf(r.connection(), stream).isEmpty(), "the stream must hold MQTT state");
        }
        const QStringList content0 = allContent();
        RepairPlan plan;
        const RepairExecutor::Report report =
            repairAndCheck(r, QStringLiteral("STREAM_CONFIG_WRONG"), stream, {QStringLiteral("STREAM_CONFIG_WRONG")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        QCOMPARE(plan.steps.first().action, QStringLiteral("recreate_stream"));
        QVERIFY(plan.steps.first().destructive);
        QCOMPARE(plan.steps.first().diff, QStringLiteral("-storage: memory\n+storage: file"));
        QCOMPARE(admin.streamConfig(stream)->value(QLatin1String("storage")).toString(), QStringLiteral("file"));
        // Everything is back, and the working backup (named in the step's replies) holds it too.
        QCOMPARE(allContent(), content0);
        QString backup;
        for (const QJsonValue &v : report.outcomes.first().responses)
            if (v.toObject().contains(QLatin1String("backup")))
                backup = v.toObject().value(QLatin1String("backup")).toString();
        QVERIFY2(!backup.isEmpty(), qPrintable(compact(report.outcomes.first().responses)));
        QCOMPARE(backupContent(backup), contentOf(r.connection(), stream));
        verifySessionResumes(server, stream == kSess ? 2 : 1);
        verifyMqttWorks(server);
    }

    // A stream capturing MQTT subjects made before the first MQTT client (10065): resolve_overlap backs it up
    // and deletes it (all its subjects are MQTT ones) or narrows it (it has others), then the MQTT streams
    // are created with the exact configs and MQTT works.
    void overlap_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("narrow");
        for (const QString &label : NatsServerBinary::testVersionLabels()) {
            QTest::addRow("%s delete", qPrintable(label)) << label << false;
            QTest::addRow("%s narrow", qPrintable(label)) << label << true;
        }
    }
    void overlap()
    {
        QFETCH(QString, version);
        QFETCH(bool, narrow);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const QString other = narrow ? QStringLiteral("OPS") : QStringLiteral("CATCHALL");
        const QJsonArray subjects =
            narrow ? QJsonArray{QStringLiteral("ops.>"), QStringLiteral("$MQTT.msgs.foo.*")} : QJsonArray{QStringLiteral("$MQTT.>")};
        QVERIFY2(admin.createStream({{QStringLiteral("name"), other},
                                     {QStringLiteral("subjects"), subjects},
                                     {QStringLiteral("storage"), QStringLiteral("file")}}),
                 qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected(), "connect must fail (10065)");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        { // The operator's own messages in the other stream.
            quint64 acked = 0;
            JetStreamPublisher publisher(r.connection(), other, [&acked](quint64, const Result<quint64> &res) { acked += res ? 1 : 0; });
            for (int i = 0; i < 4; ++i)
                QVERIFY(publisher.publish(quint64(i), narrow ? QStringLiteral("ops.%1").arg(i) : QStringLiteral("$MQTT.ops.%1").arg(i), {},
                                          QByteArray("operator message ") + QByteArray::number(i)));
            (void)publisher.finish();
            QCOMPARE(acked, quint64(4));
        }
        const QStringList other0 = contentOf(r.connection(), other);
        RepairPlan plan;
        const RepairExecutor::Report report = repairAndCheck(r, QStringLiteral("SUBJECTS_OVERLAP"), other,
                                                             {QStringLiteral("SUBJECTS_OVERLAP"), QStringLiteral("STREAM_MISSING")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.first().action, QStringLiteral("resolve_overlap"));
        QVERIFY(plan.steps.first().destructive);
        for (int i = 1; i < plan.steps.size(); ++i)
            QCOMPARE(plan.steps.at(i).action, QStringLiteral("create_stream"));
        QCOMPARE(plan.steps.size(), 1 + (version == QStringLiteral("2.9") ? 3 : 5) - (narrow ? 1 : 0)); // narrow: $MQTT_sess was created
        QCOMPARE(report.backups.size(), 1);
        QCOMPARE(backupContent(report.backups.first()), other0);
        if (narrow) {
            QCOMPARE(admin.streamConfig(other)->value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("ops.>")});
            QCOMPARE(contentOf(r.connection(), other), other0);
        } else {
            QVERIFY(!admin.streamConfig(other));
            // The backup restores it (checked without changing anything: the MQTT streams now hold its subjects).
            RestoreOptions ro;
            ro.dryRun = true;
            ConnectionSet connections(acmeProfile(server.url(), true));
            auto target = RepairTarget::resolve(connections, acme());
            QVERIFY(target);
            auto restored = StreamRestore::run(*target, report.backups.first(), ro);
            QVERIFY2(restored && restored->streamCreated && restored->restored == quint64(other0.size()),
                     restored ? "restore dry run" : qPrintable(restored.error().toString()));
        }
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }
};

QTEST_GUILESS_MAIN(TestRepairStreamsReplace)
#include "tst_repairstreams_replace.moc"
