// The stream-level checks (Checks::checkAccount) over scenarios built from real servers' replies: which findings
// each broken or upgraded layout gives, with evidence, sorted by severity. The evidence of each finding, cluster
// checks and exit codes: tst_streamchecks_evidence.cpp.
#include <QJsonArray>
#include <QTest>

#include "streamcheckscenario.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::StreamCheckScenario;

class TestStreamChecks : public QObject
{
    Q_OBJECT

private slots:
    void scenarios_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QStringList>("expected");

        const auto row = [](const char *name, const QString &capture, const char *change, QStringList expected) {
            expected.sort();
            QTest::newRow(name) << capture << QString::fromLatin1(change) << expected;
        };
        const auto s = [](const char *line) { return QString::fromLatin1(line); };

        // Healthy accounts: nothing at all.
        row("healthy 2.9.10 cluster", cluster29(), "none", {});
        row("healthy 2.9.10 single", single29(), "none", {});
        row("healthy 2.10.27 single", single210(), "none", {});
        row("healthy 2.15.1 single", single215(), "none", {});
        row("healthy 2.10.27 domain hub", domainHub(), "none", {});
        row("healthy after 2.9 -> 2.10 upgrade", upgradeAfter(), "none", {});
        row("healthy with unrelated streams", single210(), "unrelated streams", {});
        row("healthy, no limits", single210(), "max_streams -1", {});
        row("healthy 2.9 with room for 2.10", single29(), "max_streams 5", {});
        row("follower-only lag is not reported", cluster29(), "follower view", {});
        row("no orphans on $MQTT.rmsgs", single210(), "no orphans", {});
        row("streams unknown: nothing to say", single210(), "streams unknown", {});

        // No MQTT client yet: info only.
        row("fresh 2.10 account", single210(), "fresh",
            {s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"), s("STREAM_MISSING $MQTT_qos2in info"),
             s("STREAM_MISSING $MQTT_out info"), s("STREAM_MISSING $MQTT_rmsgs info")});
        row("fresh 2.9 account", single29(), "fresh",
            {s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"), s("STREAM_MISSING $MQTT_rmsgs info")});
        row("upgraded, not connected yet", upgradeBefore(), "none",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});

        // JETSTREAM_DISABLED
        row("jetstream off", single210(), "jetstream off", {s("JETSTREAM_DISABLED - critical")});
        row("jetstream off, not an mqtt account", single210(), "jetstream off, not for mqtt", {s("JETSTREAM_DISABLED - info")});

        // STREAM_MISSING after the servers set up MQTT
        row("sess deleted", single210(), "sess deleted", {s("STREAM_MISSING $MQTT_sess critical")});
        row("msgs deleted", single29(), "msgs deleted", {s("STREAM_MISSING $MQTT_msgs error")});
        row("rmsgs deleted", cluster29(), "rmsgs deleted", {s("STREAM_MISSING $MQTT_rmsgs error")});
        row("out deleted", single215(), "out deleted", {s("STREAM_MISSING $MQTT_out error")});

        // SUBJECTS_OVERLAP
        // One cause, one finding: the stream that blocks every MQTT stream is one SUBJECTS_OVERLAP naming them
        // all (its repair creates them), not one per MQTT stream plus a STREAM_MISSING each.
        row("$MQTT.> blocks a fresh 2.10 account", single210(), "fresh + $MQTT.> stream", {s("SUBJECTS_OVERLAP CATCHALL critical")});
        row("$MQTT.> in a 2.9 account also blocks the upgrade", single29(), "fresh + $MQTT.> stream",
            {s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL warning")});
        row("$MQTT.> in an account not meant for MQTT", single210(), "fresh + $MQTT.> stream, not for mqtt",
            {s("SUBJECTS_OVERLAP CATCHALL warning")});
        row("$MQTT.msgs.foo.* blocks the messages stream", single29(), "fresh + msgs.foo.* stream",
            {s("SUBJECTS_OVERLAP ORDERS critical"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_rmsgs info")});
        row("> blocks everything", single215(), "fresh + > stream", {s("SUBJECTS_OVERLAP EVERYTHING critical")});
        row("$MQTT.qos2.> breaks the upgrade of a 2.9 account", single29(), "qos2 capture stream", {s("SUBJECTS_OVERLAP QOS2TAP warning")});
        row("$MQTT.rmsgs.foo breaks the retained migration", single29(), "rmsgs.foo stream", {s("SUBJECTS_OVERLAP RETAP warning")});
        row("$MQTT.rmsgs.foo blocks a pending migration", upgradeBefore(), "rmsgs.foo stream",
            {s("SUBJECTS_OVERLAP RETAP critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"),
             s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});

        // STREAM_SUBJECTS_WRONG
        row("sess with another domain token", single210(), "sess subjects other token", {s("STREAM_SUBJECTS_WRONG $MQTT_sess critical")});
        row("domain hub expected, stream without token", single210(), "domain option hub", {s("STREAM_SUBJECTS_WRONG $MQTT_sess warning")});
        row("no domain expected, stream with token", domainHub(), "domain option empty", {s("STREAM_SUBJECTS_WRONG $MQTT_sess critical")});
        row("msgs too narrow", single29(), "msgs subjects narrow", {s("STREAM_SUBJECTS_WRONG $MQTT_msgs error")});
        row("msgs with extra subjects", single210(), "msgs subjects extra", {s("STREAM_SUBJECTS_WRONG $MQTT_msgs warning")});
        row("same subjects", single210(), "sess subjects reordered", {});

        // STREAM_CONFIG_WRONG
        row("sess keeps duplicates", single29(), "sess max per subject -1 + duplicates", {s("STREAM_CONFIG_WRONG $MQTT_sess error")});
        row("sess in memory", single210(), "sess memory", {s("STREAM_CONFIG_WRONG $MQTT_sess warning")});
        row("qos2in discards old", single215(), "qos2 discard old", {s("STREAM_CONFIG_WRONG $MQTT_qos2in error")});
        row("msgs with limits retention", cluster29(), "msgs limits retention", {s("STREAM_CONFIG_WRONG $MQTT_msgs error")});

        // STREAM_LIMIT_HEADROOM
        row("max_streams 2 blocks the retained stream", single29(), "max_streams 2, fresh",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info")});
        row("max_streams 3: no room to upgrade", single29(), "max_streams 3", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_streams 4: no room to upgrade", single29(), "max_streams 4", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_streams 4 after the upgrade", upgradeBefore(), "max_streams 4",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("limits from the account", upgradeBefore(), "account limits max_streams 4",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("storage full", single210(), "storage full", {s("STREAM_LIMIT_HEADROOM - critical")});
        row("storage 95%", single210(), "storage 95%", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_bytes_required blocks creation", single210(), "max_bytes_required, fresh", {s("STREAM_LIMIT_HEADROOM - critical")});
        row("max_bytes_required, streams exist", single210(), "max_bytes_required", {});

        // REPLICAS_MISMATCH
        row("msgs R1 in a 3-node cluster", cluster29(), "msgs R1", {s("REPLICAS_MISMATCH $MQTT_msgs warning")});
        row("R3 streams, stream_replicas 1", cluster29(), "stream_replicas 1",
            {s("REPLICAS_MISMATCH $MQTT_sess info"), s("REPLICAS_MISMATCH $MQTT_msgs info"), s("REPLICAS_MISMATCH $MQTT_rmsgs info")});
        row("stream_replicas 5 in a 3-node cluster", cluster29(), "stream_replicas 5", {s("REPLICAS_MISMATCH - warning")});
        row("stream_replicas 3 standalone blocks creation", single29(), "stream_replicas 3, fresh", {s("REPLICAS_MISMATCH - critical")});
        row("R3 on a single server", single210(), "sess R3 on one server", {s("REPLICAS_MISMATCH $MQTT_sess error")});
        row("R1 streams in a 3-node cluster", single210(), "servers: 3-node cluster",
            {s("REPLICAS_MISMATCH $MQTT_sess warning"), s("REPLICAS_MISMATCH $MQTT_msgs warning"),
             s("REPLICAS_MISMATCH $MQTT_qos2in warning"), s("REPLICAS_MISMATCH $MQTT_out warning"),
             s("REPLICAS_MISMATCH $MQTT_rmsgs warning")});

        // STREAM_UNHEALTHY
        row("sess without leader", cluster29(), "sess no leader", {s("STREAM_UNHEALTHY $MQTT_sess critical")});
        row("msgs without leader", cluster29(), "msgs no leader", {s("STREAM_UNHEALTHY $MQTT_msgs error")});
        row("rmsgs replica offline", cluster29(), "rmsgs replica offline", {s("STREAM_UNHEALTHY $MQTT_rmsgs warning")});
        row("sess replica lagging", cluster29(), "sess replica lagging", {s("STREAM_UNHEALTHY $MQTT_sess warning")});

        // Retained layout
        row("orphans on $MQTT.rmsgs", single210(), "orphans on $MQTT.rmsgs", {s("RETAINED_ORPHANED $MQTT_rmsgs error")});
        row("many retained messages to migrate", upgradeBefore(), "retained 5000",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs warning")});
        row("2.10.0-2.10.5 spin on corrupt records", upgradeBefore(), "servers: 2.10.4",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs warning")});
        row("half-migrated retained stream", single29(), "retained half migrated", {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("half-migrated, all 2.10", upgradeBefore(), "retained half migrated",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("retained with unknown subjects", single210(), "retained odd subjects", {s("STREAM_SUBJECTS_WRONG $MQTT_rmsgs error")});
        row("upgrade planned", single29(), "upgrade planned", {s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("2.9.10 on a migrated store", downgrade(), "none", {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("mixed cluster, 2.10 retained", single210(), "servers: mixed", {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("mixed cluster, 2.9 account", single29(), "servers: mixed",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info")});
        row("mixed 3-node cluster, R1 streams", single29(), "servers: mixed, derived replicas",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("REPLICAS_MISMATCH $MQTT_sess warning"),
             s("REPLICAS_MISMATCH $MQTT_msgs warning"), s("REPLICAS_MISMATCH $MQTT_rmsgs warning")});

        // LEGACY_SESSION_STREAMS
        row("empty legacy session stream", single210(), "legacy empty", {s("LEGACY_SESSION_STREAMS $MQTT_sess_ivan warning")});
        row("stranded legacy session", single29(), "legacy with record", {s("LEGACY_SESSION_STREAMS $MQTT_sess_UH4PAlxE warning")});
        row("legacy session migrated on first connect", single210(), "fresh + legacy with record",
            {s("LEGACY_SESSION_STREAMS $MQTT_sess_UH4PAlxE info"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"),
             s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("STREAM_MISSING $MQTT_rmsgs info")});
    }

    void scenarios()
    {
        QFETCH(QString, capture);
        QFETCH(QString, change);
        QFETCH(QStringList, expected);
        const AccountCheckInput in = scenario(capture, change);
        const QList<Finding> findings = Checks::checkAccount(in);
        const QStringList actual = summary(findings);
        if (actual != expected || qEnvironmentVariableIsSet("MQTTDOCTOR_DUMP_FINDINGS"))
            qWarning().noquote() << dump(findings);
        QCOMPARE(actual, expected);
        for (const Finding &f : findings) {
            QCOMPARE(f.account, QStringLiteral("ACME"));
            QVERIFY2(!f.title.isEmpty() && !f.title.contains(QLatin1Char('{')), qPrintable(f.title));
            QVERIFY2(!f.detail.isEmpty(), qPrintable(f.code));
            QVERIFY2(!f.expected.isUndefined() && !f.actual.isUndefined(), qPrintable(f.code));
        }
        // Sorted: most severe first.
        for (qsizetype i = 1; i < findings.size(); ++i)
            QVERIFY(int(findings.at(i - 1).severity) >= int(findings.at(i).severity));
    }
};

QTEST_GUILESS_MAIN(TestStreamChecks)
#include "tst_streamchecks.moc"
