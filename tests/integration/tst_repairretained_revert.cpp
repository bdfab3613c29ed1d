// `repair` of RETAINED_DOWNGRADE (revert_retained) against real servers, with real mosquitto clients; the
// reproduction and the refusal on a misread store are described in tst_repairretained.cpp's file comment.
#include "retainedrepaircase.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace MqttDoctor::Test::RetainedRepairCase;

class TestRepairRetainedRevert : public Base
{
    Q_OBJECT

private:
    // The faithful reproduction (file comment): `version`'s own $MQTT_rmsgs put into the store of a 2.9.10 server
    // (`server`, started here, with MQTT state of its own), which then refuses MQTT connects with 10093. The retained
    // messages ("topic|qos|payload", sorted).
    void reproduceDowngrade(const QString &version, NatsServerFixture &server, QStringList &retained)
    {
        // 1. The newer server's own $MQTT_rmsgs: it migrates three 2.9 retained messages, then stores one in its own
        //    encoding (2.10: JSON on $MQTT.rmsgs.<subject>; newest: the 2.11+ header encoding).
        QJsonObject writtenConfig;
        QList<StreamMessage> written;
        {
            NatsServerFixture writer;
            QVERIFY2(writer.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(writer.errorString()));
            makeState(writer);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(switchBinary(writer, version), qPrintable(writer.errorString()));
            QCOMPARE(subscriberSees(writer, kFilters, 3, 3, QStringLiteral("reader-0")).size(), 3);
            QVERIFY(acmeMqtt(writer).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
            const auto conn = acmeConnection(writer);
            writtenConfig = config(conn);
            QCOMPARE(subjectsOf(writtenConfig), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
            QVERIFY(StreamContent::read(conn, {}, kRetained, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                                        [&written](QList<StreamMessage> &&batch, const ReadProgress &) {
                                            written.append(batch);
                                            return true;
                                        }));
            retained = retainedSet(conn);
            QCOMPARE(retained,
                     (QStringList{QStringLiteral("sensors/garage/temp|0|9.0"), QStringLiteral("sensors/kitchen/temp|1|21.5"),
                                  QStringLiteral("status/door|1|open"), QStringLiteral("status/window|1|ajar")}));
            QCOMPARE(written.size(), 4);
            if (version == QLatin1String("newest")) // the window record is in the newer server's header encoding
                QVERIFY2(written.last().headers.contains("Nmqtt-RTopic"), written.last().headers.constData());
        }

        // 2. A 2.9.10 server with its own store and MQTT state; its $MQTT_rmsgs replaced by exactly what the newer
        //    server wrote (same config, same subjects, headers and bodies), then restarted.
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        {
            JetStreamAdmin admin;
            QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
            QVERIFY2(admin.deleteStream(kRetained), qPrintable(admin.error()));
            QVERIFY2(admin.createStream(writtenConfig), qPrintable(admin.error()));
            const auto conn = acmeConnection(server);
            quint64 stored = 0;
            JetStreamPublisher p(
                conn, kRetained, [&stored](quint64, const Result<quint64> &r) { stored += r ? 1 : 0; }, 1);
            for (qsizetype i = 0; i < written.size(); ++i) {
                const StreamMessage &m = written.at(i);
                auto headers = m.headers.isEmpty() ? Result<NatsHeaders>(NatsHeaders()) : NatsHeaders::parse(m.headers);
                QVERIFY(headers);
                QVERIFY(p.publish(quint64(i), m.subject, *headers, m.data));
            }
            QVERIFY(p.finish());
            QCOMPARE(stored, quint64(written.size()));
        }
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        const qsizetype logFrom = server.logLinesMatching(QStringLiteral("")).size();
        const MqttResult refused = acmeMqtt(server).connectOnce(QStringLiteral("c1"));
        QVERIFY2(!refused.connected(), qPrintable(refused.describe()));
        QTRY_VERIFY_WITH_TIMEOUT(
            !server.logLinesMatching(QStringLiteral("not a valid subset of the interest subjects (10093)"), logFrom).isEmpty(), 5000);
        QVERIFY2(server.logLinesMatching(QStringLiteral("create retained messages consumer for account \"ACME\""), logFrom).size() >= 1,
                 qPrintable(server.logTail()));
    }

private slots:
    void initTestCase()
    {
        if (!MqttClient::missingTools().isEmpty())
            QFAIL(qPrintable(MqttClient::missingTools()));
        QVERIFY(m_dir.isValid());
    }

    // revert_retained on the faithful reproduction (file comment): the finding fires, read-only and dry runs change
    // nothing, `repair --yes` reverts, check is clean, 2.9.10 clients connect again and get every retained message
    // with its payload and QoS, the persistent session resumes with its queued QoS1 message, the backup holds every
    // original record.
    void revertDowngrade_data() { versions_data(); }
    void revertDowngrade()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QStringList retained;
        reproduceDowngrade(version, server, retained);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject finding = findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_DOWNGRADE"));
        QVERIFY(!finding.isEmpty());
        QCOMPARE(str(finding, "repair"), QStringLiteral("revert_retained"));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 4);
        QCOMPARE(retainedSet(conn), retained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);
        const QStringList msgs = content(conn, QStringLiteral("$MQTT_msgs"));

        // In-process, on the same gathered state: the core refuses the step on a read-only target (docs/safety.md, "It changes nothing unless told to"),
        // and nothing is planned while a 2.10+ server also serves the account (its per-subject store would break).
        {
            ConnectionSet connections(acmeProfile(server.url(), false));
            DiagnosisGatherer::Request request;
            request.account = QStringLiteral("ACME");
            auto input = DiagnosisGatherer::gather(connections, request);
            QVERIFY2(input, qPrintable(input ? QString() : input.error().toString()));
            RepairPlanner::Options po;
            po.account = QStringLiteral("ACME");
            const RepairPlan plan = RepairPlanner::plan(*input, Checks::diagnose(*input), po);
            QCOMPARE(plan.steps.size(), 1);
            QCOMPARE(plan.steps.first().action, QStringLiteral("revert_retained"));
            auto readOnly = RepairTarget::resolve(connections, QStringLiteral("ACME"));
            QVERIFY(readOnly);
            ExecContext roCtx;
            roCtx.target = *readOnly;
            auto applied = RepairActionRegistry::find(QStringLiteral("revert_retained"))->apply(plan.steps.first(), roCtx);
            QVERIFY(!applied && applied.error().kind() == Error::Kind::ReadOnly);

            DiagnosisInput mixed = *input;
            QVERIFY(!mixed.servers.isEmpty());
            ServerInfo newer = mixed.servers.first();
            newer.name = QStringLiteral("upgraded-node");
            newer.id = QStringLiteral("NUPGRADED");
            newer.version = QStringLiteral("2.10.27");
            mixed.servers.append(newer);
            const QList<Finding> findings = Checks::diagnose(mixed);
            QVERIFY(std::any_of(findings.begin(), findings.end(),
                                [](const Finding &f) { return f.code == QLatin1String("RETAINED_DOWNGRADE"); }));
            const RepairPlan mixedPlan = RepairPlanner::plan(mixed, findings, po);
            QVERIFY(std::none_of(mixedPlan.steps.begin(), mixedPlan.steps.end(),
                                 [](const RepairStep &st) { return st.action == QLatin1String("revert_retained"); }));
            QVERIFY2(mixedPlan.notes.join(u'\n').contains(QLatin1String("2.10+ servers also serve account \"ACME\"")),
                     qPrintable(mixedPlan.notes.join(u'\n')));
        }
        QCOMPARE(content(conn, kRetained), before);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        const QJsonObject cfg = config(conn);
        QCOMPARE(subjectsOf(cfg), QStringList{QStringLiteral("$MQTT.rmsgs")});
        QCOMPARE(cfg.value(QLatin1String("max_msgs_per_subject")).toInteger(), -1);
        const QStringList after = content(conn, kRetained);
        QCOMPARE(after.size(), 4);
        for (const QString &line : after)
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs | ")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        QCOMPARE(content(conn, QStringLiteral("$MQTT_msgs")), msgs);

        // MQTT works again on 2.9.10 without a restart: connect, every retained message, the queued QoS1 message.
        const MqttResult c2 = acmeMqtt(server).connectOnce(QStringLiteral("c2"));
        QVERIFY2(c2.connected(), qPrintable(c2.describe() + u'\n' + server.logTail()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-1")), retained);
        const MqttResult resumed =
            acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
        // And after a restart (the retained messages are read from the stream, not from the server's memory).
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-2")), retained);

        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
        // What the repair promises a client: retained messages published now reach new subscribers.
        const MqttProbeResult seen = probeAcme(server);
        QVERIFY2(seen.verified(), qPrintable(seen.summary()));
    }

    // A revert that stopped right after its STREAM.UPDATE (a crash, a lost connection): the 2.9 shape is back, MQTT
    // connects work, but the records are still on $MQTT.rmsgs.<subject> where 2.9 does not read them. check reports
    // it, and a rerun of repair finishes the revert.
    void revertInterrupted()
    {
        NatsServerFixture server;
        QStringList retained;
        reproduceDowngrade(QStringLiteral("newest"), server, retained);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kRetained,
                                    {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs")}},
                                     {QStringLiteral("max_msgs_per_subject"), -1}}),
                 qPrintable(admin.error()));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 4);
        const MqttResult c1 = acmeMqtt(server).connectOnce(QStringLiteral("c1"));
        QVERIFY2(c1.connected(), qPrintable(c1.describe()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 0, QStringLiteral("reader-0")), QStringList());

        const CliRunner::Run checked = check(acmeArgs(server.url()));
        const QJsonObject f = findingWith(checked, QStringLiteral("RETAINED_DOWNGRADE"));
        QVERIFY2(!f.isEmpty(), qPrintable(describe(checked)));
        QCOMPARE(str(f, "severity"), QStringLiteral("error"));
        QCOMPARE(str(f, "repair"), QStringLiteral("revert_retained"));
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("messages_outside_subjects")).toInteger(), 4);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs | ")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QVERIFY2(server.restart(), qPrintable(server.errorString())); // 2.9.10 loads retained messages when it sets MQTT up
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-1")), retained);
        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
    }

    // The real binary downgrade (2.9 → 2.10 → 2.9.10 on the same files): 2.9.10 misreads the store. check reports the
    // finding at once; repair plans nothing and says why; the backup command refuses the contradictory stream states
    // instead of reading them (one of them spans 2^62 sequences); nothing is changed and the JetStream API still answers.
    void revertRefusedOnMisreadStore()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(switchBinary(server, QStringLiteral("2.10")), qPrintable(server.errorString()));
        QCOMPARE(subscriberSees(server, kFilters, 3, 3, QStringLiteral("reader-0")).size(), 3);
        QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
        QVERIFY2(switchBinary(server, QStringLiteral("2.9")), qPrintable(server.errorString()));

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QJsonObject info;
        QVERIFY2(admin.call(QStringLiteral("STREAM.INFO.") + kRetained, {}, &info), qPrintable(admin.error()));
        const QJsonObject state = info.value(QLatin1String("state")).toObject();
        // What 2.9.10 reports here (lab): 10 messages in sequences 1 to 7 for 4 retained messages.
        QVERIFY2(state.value(QLatin1String("messages")).toInteger()
                     > state.value(QLatin1String("last_seq")).toInteger() - state.value(QLatin1String("first_seq")).toInteger() + 1,
                 qPrintable(QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact))));

        QElapsedTimer timer;
        timer.start();
        const CliRunner::Run checked = check(acmeArgs(server.url()));
        QVERIFY(!findingWith(checked, QStringLiteral("RETAINED_DOWNGRADE")).isEmpty());
        QCOMPARE(checked.exitCode(), 2);
        const CliRunner::Run run =
            repair(server, {QStringLiteral("--yes"), QStringLiteral("--backup-dir"), m_dir.filePath(QStringLiteral("misread"))});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(stepsOf(run, QStringLiteral("revert_retained")).isEmpty(), qPrintable(run.out()));
        const QString notes = QString::fromUtf8(
            QJsonDocument(run.json.value(QLatin1String("plan")).toObject().value(QLatin1String("notes")).toArray()).toJson());
        QVERIFY2(notes.contains(QLatin1String("misreads $MQTT_rmsgs")), qPrintable(run.out()));
        QVERIFY2(notes.contains(QLatin1String("Nothing was changed")), qPrintable(run.out()));
        QStringList remaining;
        for (const QJsonValue &v : run.json.value(QLatin1String("remaining")).toArray())
            remaining << v.toObject().value(QLatin1String("code")).toString();
        QVERIFY2(remaining.contains(QStringLiteral("RETAINED_DOWNGRADE")), qPrintable(run.out()));
        QCOMPARE(run.exitCode(), 2); // nothing applied, and the error still stands

        // The backup command refuses both contradictory states rather than reading them: $MQTT_rmsgs (more messages
        // than sequences; a read by sequence would have returned the resurrected originals and missed the rest) and
        // $MQTT_sess (its last record is a tombstone: a range of 2^62 sequences).
        const QList<std::pair<QString, QString>> refusals{{kRetained, QStringLiteral("inconsistent")},
                                                          {QStringLiteral("$MQTT_sess"), QStringLiteral("too sparse")}};
        for (const auto &[stream, why] : refusals) {
            const CliRunner::Run backup =
                CliRunner::run(acmeArgs(server.url())
                               + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), stream, QStringLiteral("--out"),
                                             m_dir.filePath(QStringLiteral("misread-") + stream), QStringLiteral("--json")});
            QVERIFY2(backup.exitCode() == 3 && backup.describe().contains(why), qPrintable(backup.describe()));
        }
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));

        QJsonObject again;
        QVERIFY2(admin.call(QStringLiteral("STREAM.INFO.") + kRetained, {}, &again), qPrintable(admin.error()));
        QCOMPARE(again.value(QLatin1String("config")).toObject(), info.value(QLatin1String("config")).toObject());
        QCOMPARE(again.value(QLatin1String("state")).toObject().value(QLatin1String("messages")), state.value(QLatin1String("messages")));
        QCOMPARE(again.value(QLatin1String("state")).toObject().value(QLatin1String("last_seq")), state.value(QLatin1String("last_seq")));
        QVERIFY(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected());
    }

    // The real binary downgrade of an account a 2.10+ server set up from scratch: its $MQTT_rmsgs never had a delete
    // (no 2.9 message to migrate, none replaced), so 2.9.10 reads it consistently even though the store's other
    // streams carry the newer server's tombstones. The revert is planned and works; the retained message is delivered.
    void revertOnNewerStoreWithoutDeletes()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.10"), ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
        QVERIFY2(switchBinary(server, QStringLiteral("2.9")), qPrintable(server.errorString()));
        QVERIFY(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected());
        QVERIFY(!findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_DOWNGRADE")).isEmpty());
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 1);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        QCOMPARE(retainedSet(conn), QStringList{QStringLiteral("status/window|1|ajar")});
        const MqttResult c2 = acmeMqtt(server).connectOnce(QStringLiteral("c2"));
        QVERIFY2(c2.connected(), qPrintable(c2.describe() + u'\n' + server.logTail()));
        QCOMPARE(subscriberSees(server, kFilters, 1, 1, QStringLiteral("reader-1")), QStringList{QStringLiteral("status/window|1|ajar")});
        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
    }
};

QTEST_GUILESS_MAIN(TestRepairRetainedRevert)
#include "tst_repairretained_revert.moc"
