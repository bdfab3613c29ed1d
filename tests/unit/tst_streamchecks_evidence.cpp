// The stream-level checks in detail: the evidence (expected, actual, explained log lines, repair) of each finding,
// a given layout, cluster-level findings, diagnosing every account, and exit codes. The scenarios themselves:
// tst_streamchecks.cpp.
#include <QJsonArray>
#include <QTest>

#include "diagnosis/findingcatalogue.h"
#include "streamcheckscenario.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;
using namespace MqttDoctor::Test::StreamCheckScenario;

class TestStreamChecksEvidence : public QObject
{
    Q_OBJECT

private slots:
    void evidenceOfMissingStream()
    {
        const auto findings = Checks::checkAccount(scenario(single210(), QStringLiteral("sess deleted")));
        const Finding *f = first(findings, FindingCodes::streamMissing());
        QVERIFY(f);
        QCOMPARE(f->repair, QStringLiteral("create_stream"));
        QCOMPARE(f->expected.toObject(), MqttLayout(MqttLayout::Kind::V2_10).stream(QStringLiteral("$MQTT_sess"))->createConfig());
        QVERIFY(f->actual.isNull());
        QVERIFY(f->explains.contains(QStringLiteral("loading session record: stream not found (10059) for account %q, session %q")));
        QVERIFY(f->explains.contains(QStringLiteral("loading session record for account %q, session %q: stream not found (10059)")));
        QCOMPARE(f->title, QStringLiteral("$MQTT_sess is missing in account ACME"));
    }

    void evidenceOfOverlap()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("fresh + msgs.foo.* stream")));
        const Finding *f = first(findings, FindingCodes::subjectsOverlap());
        QVERIFY(f);
        QCOMPARE(f->stream, QStringLiteral("ORDERS"));
        QCOMPARE(f->subject, QStringLiteral("$MQTT.msgs.>"));
        QCOMPARE(f->repair, QStringLiteral("resolve_overlap"));
        QCOMPARE(f->expected.toObject().value(QLatin1String("mqtt_streams")).toArray(),
                 (QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("$MQTT_msgs")},
                                         {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.msgs.>")}}}}));
        QCOMPARE(f->actual.toObject().value(QLatin1String("overlapping")).toArray(), QJsonArray{QStringLiteral("$MQTT.msgs.foo.*")});
        QCOMPARE(f->explains,
                 QStringList{QStringLiteral("create messages stream for account %q: subjects overlap with an existing stream (10065)")});
        QVERIFY2(f->detail.contains(QStringLiteral("refuses to create $MQTT_msgs")), qPrintable(f->detail));
        // The blocked stream is part of this finding, not a STREAM_MISSING of its own.
        QVERIFY(!first(findings, FindingCodes::streamMissing(), "$MQTT_msgs"));
    }

    // One stream that blocks every MQTT stream: one finding naming them all, with every refusal line.
    void overlapOfEveryStreamIsOneFinding()
    {
        const auto findings = Checks::checkAccount(scenario(single210(), QStringLiteral("fresh + $MQTT.> stream")));
        QCOMPARE(findings.size(), 1);
        const Finding &f = findings.first();
        QCOMPARE(f.code, FindingCodes::subjectsOverlap());
        QCOMPARE(f.severity, Finding::Severity::Critical);
        QStringList harmed;
        for (const QJsonValue &v : f.expected.toObject().value(QLatin1String("mqtt_streams")).toArray())
            harmed << v.toObject().value(QLatin1String("stream")).toString();
        harmed.sort();
        QCOMPARE(harmed, (QStringList{u"$MQTT_msgs"_s, u"$MQTT_out"_s, u"$MQTT_qos2in"_s, u"$MQTT_rmsgs"_s, u"$MQTT_sess"_s}));
        QCOMPARE(f.explains.size(), 5);
        QVERIFY2(f.title.contains(QStringLiteral("5 MQTT streams")), qPrintable(f.title));
    }

    void evidenceOfConfig()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("sess max per subject -1 + duplicates")));
        const Finding *f = first(findings, FindingCodes::streamConfigWrong());
        QVERIFY(f);
        QCOMPARE(f->repair, QStringLiteral("update_stream"));
        QCOMPARE(f->expected.toObject().value(QLatin1String("max_msgs_per_subject")).toInteger(), 1);
        QCOMPARE(f->actual.toObject().value(QLatin1String("max_msgs_per_subject")).toInteger(), -1);
        QCOMPARE(f->actual.toObject().value(QLatin1String("messages")).toInteger(), 5);
        QVERIFY(f->detail.contains(QStringLiteral("duplicates")));
        QCOMPARE(f->title, QStringLiteral("$MQTT_sess has the wrong configuration (max_msgs_per_subject)"));

        const auto memory = Checks::checkAccount(scenario(single210(), QStringLiteral("sess memory")));
        QCOMPARE(first(memory, FindingCodes::streamConfigWrong())->repair, QStringLiteral("recreate_stream"));
    }

    void evidenceOfSubjects()
    {
        const auto findings = Checks::checkAccount(scenario(domainHub(), QStringLiteral("domain option empty")));
        const Finding *f = first(findings, FindingCodes::streamSubjectsWrong());
        QVERIFY(f);
        QCOMPARE(f->expected.toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.>")});
        QCOMPARE(f->actual.toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.hub.>")});
        QCOMPARE(f->repair, QStringLiteral("update_stream"));
        QVERIFY(f->explains.contains(QStringLiteral("unable to persist session %q (seq=%v): timeout")));
    }

    void evidenceOfHeadroom()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("max_streams 3")));
        const Finding *f = first(findings, FindingCodes::streamLimitHeadroom());
        QVERIFY(f);
        QCOMPARE(f->expected.toObject().value(QLatin1String("max_streams")).toInteger(), 5);
        QCOMPARE(f->actual.toObject().value(QLatin1String("max_streams")).toInteger(), 3);
        QCOMPARE(f->actual.toObject().value(QLatin1String("streams")).toInteger(), 3);
        QVERIFY(f->explains.contains(
            QStringLiteral("create QoS2 incoming messages stream for account %q: maximum number of streams reached (10027)")));
        QVERIFY(f->repair.isEmpty());

        const auto blocked = Checks::checkAccount(scenario(single29(), QStringLiteral("max_streams 2, fresh")));
        QVERIFY(first(blocked, FindingCodes::streamLimitHeadroom())
                    ->explains.contains(
                        QStringLiteral("create retained messages stream for account %q: maximum number of streams reached (10027)")));
    }

    void evidenceOfReplicas()
    {
        const auto standalone = Checks::checkAccount(scenario(single29(), QStringLiteral("stream_replicas 3, fresh")));
        const Finding *f = first(standalone, FindingCodes::replicasMismatch());
        QVERIFY(f);
        QVERIFY(f->explains.contains(
            QStringLiteral("create sessions stream for account %q: replicas > 1 not supported in non-clustered mode (10074)")));
        const auto cluster = Checks::checkAccount(scenario(cluster29(), QStringLiteral("stream_replicas 5")));
        QVERIFY(first(cluster, FindingCodes::replicasMismatch())->detail.contains(QStringLiteral("10005")));

        const auto r1 = Checks::checkAccount(scenario(cluster29(), QStringLiteral("msgs R1")));
        const Finding *m = first(r1, FindingCodes::replicasMismatch());
        QCOMPARE(m->title, QStringLiteral("$MQTT_msgs has 1 replicas, expected 3"));
        QCOMPARE(m->repair, QStringLiteral("update_stream"));
        QCOMPARE(m->expected.toObject().value(QLatin1String("num_replicas")).toInt(), 3);
    }

    void evidenceOfRetained()
    {
        const auto orphans = Checks::checkAccount(scenario(single210(), QStringLiteral("orphans on $MQTT.rmsgs")));
        const Finding *o = first(orphans, FindingCodes::retainedOrphaned());
        QVERIFY(o);
        QCOMPARE(o->subject, QStringLiteral("$MQTT.rmsgs"));
        QCOMPARE(o->actual.toObject().value(QLatin1String("$MQTT.rmsgs")).toInteger(), 3);
        QCOMPARE(o->repair, QStringLiteral("republish"));
        QCOMPARE(o->title, QStringLiteral("3 retained message(s) orphaned on $MQTT.rmsgs"));

        const auto down = Checks::checkAccount(scenario(downgrade(), QStringLiteral("none")));
        const Finding *d = first(down, FindingCodes::retainedDowngrade());
        QVERIFY(d);
        QCOMPARE(
            d->explains,
            QStringList{QStringLiteral(
                "create retained messages consumer for account %q: consumer filter subject is not a valid subset of the interest subjects (10093)")});
        QCOMPARE(d->repair, QStringLiteral("revert_retained"));
        QVERIFY(d->detail.contains(QStringLiteral("x1")));

        const auto legacy = Checks::checkAccount(scenario(upgradeBefore(), QStringLiteral("none")));
        const Finding *l = first(legacy, FindingCodes::retainedLegacyLayout());
        QVERIFY(l);
        QCOMPARE(l->repair, QStringLiteral("migrate_retained"));
        QCOMPARE(l->actual.toObject().value(QLatin1String("messages")).toInteger(), 2);
        QVERIFY(l->detail.contains(QStringLiteral("10 s")));
    }

    void layoutGiven()
    {
        // A precomputed layout wins over the servers.
        AccountCheckInput in = scenario(single29(), QStringLiteral("none"));
        in.layout = Layouts::choose({server("x1", "2.10.27", "")}, {}, in.account.streams);
        QCOMPARE(summary(Checks::checkAccount(in)),
                 (QStringList{QStringLiteral("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info"), QStringLiteral("STREAM_MISSING $MQTT_out info"),
                              QStringLiteral("STREAM_MISSING $MQTT_qos2in info")}));
    }

    // Settings of $MQTT_rmsgs operators choose on purpose (captured 2.10.27 account, the stream edited): info with
    // the reason, never STREAM_CONFIG_WRONG; only memory storage has a repair, and only when selected.
    void retainedDeviations()
    {
        AccountCheckInput in = scenario(single210(), QStringLiteral("none"));
        setConfig(
            in.account, "$MQTT_rmsgs", "sources",
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("$MQTT_rmsgs")},
                                   {QStringLiteral("external"), QJsonObject{{QStringLiteral("api"), QStringLiteral("$JS.PLANT.API")}}},
                                   {QStringLiteral("subject_transforms"),
                                    QJsonArray{QJsonObject{{QStringLiteral("src"), QStringLiteral("$MQTT.rmsgs.>")},
                                                           {QStringLiteral("dest"), QStringLiteral("$MQTT.rmsgs.plant.>")}}}}}});
        setConfig(in.account, "$MQTT_rmsgs", "subject_transform",
                  QJsonObject{{QStringLiteral("src"), QStringLiteral("$MQTT.rmsgs.>")},
                              {QStringLiteral("dest"), QStringLiteral("$MQTT.rmsgs.>")}});
        const QList<Finding> findings = Checks::checkAccount(in);
        const Finding *f = first(findings, QStringLiteral("DELIBERATE_DEVIATION"), "$MQTT_rmsgs");
        QVERIFY2(f, qPrintable(dump(findings)));
        QCOMPARE(f->severity, Finding::Severity::Info);
        QVERIFY(f->repair.isEmpty()); // nothing to recreate
        QVERIFY2(f->detail.toString().contains(QStringLiteral("sourced from $MQTT_rmsgs via $JS.PLANT.API with subject transforms")),
                 qPrintable(f->detail.toString()));
        QVERIFY(f->detail.toString().contains(QStringLiteral("subject transform $MQTT.rmsgs.> -> $MQTT.rmsgs.>")));
        QVERIFY(!first(findings, QStringLiteral("STREAM_CONFIG_WRONG"), "$MQTT_rmsgs"));

        setConfig(in.account, "$MQTT_rmsgs", "storage", QStringLiteral("memory"));
        const QList<Finding> memory = Checks::checkAccount(in);
        f = first(memory, QStringLiteral("DELIBERATE_DEVIATION"), "$MQTT_rmsgs");
        QVERIFY2(f && f->repair == QLatin1String("recreate_stream"), qPrintable(dump(memory)));
        QVERIFY(FindingCatalogue::repairOnlyWhenSelected(f->code));
        QVERIFY(!first(memory, QStringLiteral("STREAM_CONFIG_WRONG"), "$MQTT_rmsgs"));
        // Memory storage of another MQTT stream stays a configuration error.
        setConfig(in.account, "$MQTT_sess", "storage", QStringLiteral("memory"));
        QVERIFY(first(Checks::checkAccount(in), QStringLiteral("STREAM_CONFIG_WRONG"), "$MQTT_sess"));
    }

    // A target version of 2.10+ for 2.9 servers: the retained migration is reported, with what a downgrade breaks.
    void upgradeTargetNamesTheDowngrade()
    {
        AccountCheckInput in = scenario(single29(), QStringLiteral("none"));
        in.options.targetVersion = *ServerVersion::parse(QStringLiteral("2.14.5"));
        in.options.upgradePlanned = true;
        const QList<Finding> findings = Checks::checkAccount(in);
        const Finding *f = first(findings, QStringLiteral("RETAINED_LEGACY_LAYOUT"), "$MQTT_rmsgs");
        QVERIFY2(f, qPrintable(dump(findings)));
        QVERIFY2(f->detail.toString().contains(QStringLiteral("going back to 2.9 breaks every MQTT connect")),
                 qPrintable(f->detail.toString()));
        in.options.targetVersion.reset();
        const QList<Finding> withoutTarget = Checks::checkAccount(in);
        const Finding *plain = first(withoutTarget, QStringLiteral("RETAINED_LEGACY_LAYOUT"), "$MQTT_rmsgs");
        QVERIFY(plain && !plain->detail.toString().contains(QStringLiteral("going back")));
    }

    void clusterLevel()
    {
        const QList<ServerInfo> mixed{server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c")};
        // The versions' known defects come along (info, one finding per advisory); the layouts are what this is about.
        const auto withoutAdvisories = [](QList<Finding> all) {
            all.removeIf([](const Finding &f) { return f.code == QLatin1String("SERVER_VERSION_ADVISORY"); });
            return all;
        };
        const QList<Finding> all = Checks::checkCluster(mixed);
        QVERIFY(all.size() > 1 && all.first().code == QLatin1String("MIXED_SERVER_VERSIONS"));
        const auto findings = withoutAdvisories(all);
        QCOMPARE(summary(findings), QStringList{QStringLiteral("MIXED_SERVER_VERSIONS - warning")});
        const Finding &f = findings.first();
        QVERIFY(f.account.isEmpty());
        QVERIFY(f.title.contains(QStringLiteral("2.9.10, 2.10.27")));
        QCOMPARE(f.actual.toObject().value(QLatin1String("2.9")).toArray(), QJsonArray{QStringLiteral("n1 (2.9.10)")});
        QVERIFY(withoutAdvisories(Checks::checkCluster({server("a", "2.10.27", "c"), server("b", "2.15.1", "c")})).isEmpty());
        QVERIFY(withoutAdvisories(Checks::checkCluster(loadCapture(cluster29()).servers)).isEmpty());
        QVERIFY(Checks::checkCluster({server("a", "2.15.1", "c"), server("b", "2.15.1", "c")}).isEmpty());
    }

    void diagnoseAll()
    {
        Capture c = loadCapture(single210());
        AccountInfo sys;
        sys.name = QStringLiteral("SYS");
        sys.isSystem = true;
        sys.jetstream = false;
        AccountInfo plain; // JetStream off, never used for MQTT
        plain.name = QStringLiteral("PLAIN");
        plain.jetstream = false;
        AccountInfo broken = c.account; // ACME without its sessions stream
        removeStream(broken, "$MQTT_sess");
        broken.name = QStringLiteral("BROKEN");
        AccountInfo unused = c.account;
        makeFresh(unused);
        unused.name = QStringLiteral("UNUSED");

        DiagnosisInput in;
        in.servers = {server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c")};
        in.accounts = {sys, plain, c.account, broken, unused};
        const QList<Finding> findings = Checks::diagnose(in);
        QStringList lines;
        for (const Finding &f : findings)
            lines << QStringLiteral("%1 %2 %3 %4")
                         .arg(f.account.isEmpty() ? QStringLiteral("-") : f.account, f.code, f.stream, Finding::severityName(f.severity));
        QCOMPARE(lines.first(), QStringLiteral("ACME RETAINED_DOWNGRADE $MQTT_rmsgs critical"));
        QVERIFY(lines.contains(QStringLiteral("BROKEN STREAM_MISSING $MQTT_sess critical")));
        QVERIFY(lines.contains(QStringLiteral("- MIXED_SERVER_VERSIONS  warning")));
        QVERIFY(lines.contains(QStringLiteral("PLAIN JETSTREAM_DISABLED  info")));
        QVERIFY(lines.contains(QStringLiteral("UNUSED STREAM_MISSING $MQTT_sess info")));
        for (const Finding &f : findings)
            QVERIFY(f.account != QLatin1String("SYS"));
        QCOMPARE(Checks::exitCodeFor(findings), 2);

        // Checked alone (as `check --account PLAIN` does): the same state, the same severity. Nothing shows
        // that PLAIN serves MQTT, so JetStream being off is information, whichever way it is checked.
        in.accounts = {plain};
        QList<Finding> alone = Checks::diagnose(in);
        alone.removeIf([](const Finding &f) { return f.code == QLatin1String("SERVER_VERSION_ADVISORY"); }); // the versions' known defects
        QCOMPARE(summary(alone),
                 (QStringList{QStringLiteral("JETSTREAM_DISABLED - info"), QStringLiteral("MIXED_SERVER_VERSIONS - warning")}));
    }

    void exitCodes()
    {
        QCOMPARE(Checks::exitCodeFor({}), 0);
        QVERIFY(!Checks::highestSeverity({}).has_value());
        Finding info;
        info.severity = Finding::Severity::Info;
        Finding warning;
        warning.severity = Finding::Severity::Warning;
        Finding critical;
        critical.severity = Finding::Severity::Critical;
        QCOMPARE(Checks::exitCodeFor({info}), 0);
        QCOMPARE(Checks::exitCodeFor({info, warning}), 1);
        QCOMPARE(Checks::exitCodeFor({warning, critical, info}), 2);
        QCOMPARE(*Checks::highestSeverity({info, critical, warning}), Finding::Severity::Critical);
    }
};

QTEST_GUILESS_MAIN(TestStreamChecksEvidence)
#include "tst_streamchecks_evidence.moc"
