// The server-level findings: SERVER_VERSION_ADVISORY (the advisory table, the fixed-in rule across release
// lines, the table docs/findings.md shows) and JETSTREAM_META_DEGRADED (captured JSZ meta_cluster replies).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "capturedlogs.h"
#include "diagnosis/checks.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/metagroupcheck.h"
#include "diagnosis/versionadvisories.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

ServerInfo server(const QString &name, const QString &version, const QString &cluster = {}, bool jetstream = true)
{
    ServerInfo s;
    s.name = name;
    s.id = u"ID_"_s + name;
    s.version = version;
    s.cluster = cluster;
    s.jetstream = jetstream;
    s.mqttKnown = true;
    s.mqttPort = 1883;
    return s;
}

ServerVersion v(const QString &text)
{
    return *ServerVersion::parse(text);
}

QStringList advisoryIds(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings) {
        if (f.code != FindingCodes::serverVersionAdvisory())
            continue;
        for (const VersionAdvisories::Advisory &a : VersionAdvisories::all())
            if (f.title.toString().startsWith(a.id + u':'))
                out << a.id;
    }
    return out;
}

// The meta_cluster object of a JSZ reply, as 2.10.27 sends it (captured from a 3-node cluster whose third
// server runs without JetStream: the leader lists only the one other JetStream server).
const char *kLeaderMeta =
    R"({"name":"C","leader":"n1","peer":"fjFyEjc1","replicas":[{"name":"n2","current":true,"active":50635657,"peer":"44jzkV9D"}],"cluster_size":2,"pending":0})";
const char *kFollowerMeta = R"({"name":"C","leader":"n1","peer":"fjFyEjc1","cluster_size":2,"pending":0})";

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}

ServerInfo withMeta(ServerInfo s, const char *meta)
{
    s.metaCluster = json(meta);
    s.metaClusterKnown = true;
    return s;
}

} // namespace

class TestServerFindings : public QObject
{
    Q_OBJECT

private slots:
    void fixedAcrossLines_data()
    {
        QTest::addColumn<QString>("running");
        QTest::addColumn<QStringList>("fixedIn");
        QTest::addColumn<bool>("fixed");
        const QStringList three{u"2.11.12"_s, u"2.12.3"_s, u"2.14.0"_s};
        QTest::newRow("own line, before") << u"2.11.11"_s << three << false;
        QTest::newRow("own line, the fix") << u"2.11.12"_s << three << true;
        QTest::newRow("own line, later") << u"2.12.15"_s << three << true;
        QTest::newRow("first release of a fixed line") << u"2.14.0"_s << three << true;
        QTest::newRow("older line without a fix") << u"2.10.27"_s << three << false;
        QTest::newRow("2.9") << u"2.9.10"_s << three << false;
        QTest::newRow("newer line than every fix") << u"2.15.1"_s << three << true;
        const QStringList two{u"2.11.12"_s, u"2.12.3"_s};
        QTest::newRow("2.14 has what 2.12.3 fixed (no 2.13)") << u"2.14.2"_s << two << true;
        const QStringList security{u"2.12.14"_s, u"2.14.4"_s};
        QTest::newRow("line between fixes, no fix of its own") << u"2.11.17"_s << security << false;
        QTest::newRow("2.14 before its fix") << u"2.14.3"_s << security << false;
        QTest::newRow("pre-release of the fix") << u"2.14.4-RC.1"_s << security << false;
        QTest::newRow("2.10.17 fixed on its line") << u"2.10.17"_s << QStringList{u"2.10.17"_s, u"2.11.0"_s} << true;
        QTest::newRow("2.11.0-RC.2 is before 2.11.0") << u"2.11.0-RC.2"_s << QStringList{u"2.10.17"_s, u"2.11.0"_s} << false;
    }
    void fixedAcrossLines()
    {
        QFETCH(QString, running);
        QFETCH(QStringList, fixedIn);
        QFETCH(bool, fixed);
        QCOMPARE(VersionAdvisories::isFixed(v(running), fixedIn), fixed);
    }

    void tableIsWellFormed()
    {
        QSet<QString> ids;
        for (const VersionAdvisories::Advisory &a : VersionAdvisories::all()) {
            QVERIFY2(!ids.contains(a.id), qPrintable(a.id));
            ids.insert(a.id);
            QVERIFY(!a.symptom.isEmpty() && !a.symptom.endsWith(u'.'));
            QVERIFY2(a.source.startsWith(u"nats-server "_s), qPrintable(a.source));
            QVERIFY(!a.fixedIn.isEmpty());
            for (const QString &f : a.fixedIn)
                QVERIFY2(ServerVersion::parse(f) && ServerVersion::parse(f)->minorVersion() != 13, qPrintable(f));
            if (!a.affectedFrom.isEmpty())
                QVERIFY(ServerVersion::parse(a.affectedFrom));
            // A fixed release is never affected.
            for (const QString &f : a.fixedIn)
                QVERIFY2(!VersionAdvisories::affects(a, f), qPrintable(a.id + u' ' + f));
        }
        QVERIFY(ids.size() >= 5);
    }

    // Captured VARZ servers: what each version is told.
    void findingsPerVersion()
    {
        QCOMPARE(advisoryIds(VersionAdvisories::findings({server(u"n1"_s, u"2.15.1"_s)})), QStringList());
        const QStringList old = advisoryIds(VersionAdvisories::findings({server(u"n1"_s, u"2.10.27"_s)}));
        QVERIFY2(old.contains(u"qos2-silent-after-restart"_s) && old.contains(u"hash-collision-takeover"_s)
                     && !old.contains(u"consumer-churn-memory"_s) && !old.contains(u"retained-migration-spin"_s),
                 qPrintable(old.join(u", "_s)));
        // 2.9.10 has no QoS 2 and no per-subject retained migration: those do not concern it.
        const QStringList v29 = advisoryIds(VersionAdvisories::findings({server(u"n1"_s, u"2.9.10"_s)}));
        QVERIFY2(!v29.contains(u"qos2-silent-after-restart"_s) && !v29.contains(u"retained-migration-spin"_s)
                     && v29.contains(u"consumer-churn-memory"_s),
                 qPrintable(v29.join(u", "_s)));
        // One finding per advisory, naming every affected server; a server without MQTT is left out.
        ServerInfo noMqtt = server(u"n3"_s, u"2.10.27"_s);
        noMqtt.mqttPort = 0;
        const QList<Finding> fs = VersionAdvisories::findings({server(u"n1"_s, u"2.10.27"_s), server(u"n2"_s, u"2.10.14"_s), noMqtt});
        for (const Finding &f : fs) {
            QCOMPARE(f.severity, Finding::Severity::Info);
            QVERIFY(f.account.isEmpty());
            QVERIFY(!f.actual.toObject().value(u"servers"_s).toArray().isEmpty());
            QVERIFY2(!f.title.toString().contains(u"n3"_s), qPrintable(f.title.toString()));
            QVERIFY(f.detail.toString().contains(u"Fixed in "_s));
        }
        QVERIFY(advisoryIds(fs).contains(u"consumer-churn-memory"_s)); // 2.10.14 only
        // Unparseable versions are not guessed at.
        QVERIFY(VersionAdvisories::findings({server(u"n1"_s, u"unknown"_s)}).isEmpty());
    }

    // docs/findings.md shows the table as the code has it.
    void docsRenderTheTable()
    {
        QFile f(Test::CapturedLogs::sourceDir() + u"/docs/findings.md"_s);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QString doc = QString::fromUtf8(f.readAll());
        QVERIFY2(doc.contains(VersionAdvisories::markdownTable()), qPrintable(VersionAdvisories::markdownTable()));
    }

    void metaGroupLacksAServerThatIsUp()
    {
        const QList<ServerInfo> servers{withMeta(server(u"n1"_s, u"2.10.27"_s, u"C"_s), kLeaderMeta),
                                        withMeta(server(u"n2"_s, u"2.10.27"_s, u"C"_s), kFollowerMeta),
                                        withMeta(server(u"n3"_s, u"2.10.27"_s, u"C"_s, false), "{}")};
        const QList<Finding> fs = MetaGroupCheck::findings(servers);
        QCOMPARE(fs.size(), 1);
        const Finding &f = fs.first();
        QCOMPARE(f.code, FindingCodes::jetStreamMetaDegraded());
        QCOMPARE(f.severity, Finding::Severity::Warning);
        QVERIFY2(f.title.toString().contains(u"n3 (JetStream disabled)"_s), qPrintable(f.title.toString()));
        QVERIFY2(f.detail.toString().contains(u"no suitable peers for placement (10005)"_s), qPrintable(f.detail.toString()));
        QCOMPARE(f.actual.toObject().value(u"peers"_s).toArray(), (QJsonArray{u"n1"_s, u"n2"_s}));
        QVERIFY(f.explains.join(u'\n').contains(u"create sessions stream for account %q: no suitable peers for placement (10005)"_s));
        // It is a cluster finding of diagnose() too.
        DiagnosisInput in;
        in.servers = servers;
        bool found = false;
        for (const Finding &g : Checks::diagnose(in))
            found = found || g.code == FindingCodes::jetStreamMetaDegraded();
        QVERIFY(found);
    }

    void metaGroupOfflineAndNotJoined()
    {
        // The leader lists n2 offline while n2 answers; n3 runs JetStream but is not listed at all.
        const char *leader = R"({"name":"C","leader":"n1","replicas":[{"name":"n2","current":false,"offline":true}],"cluster_size":3})";
        const QList<ServerInfo> servers{withMeta(server(u"n1"_s, u"2.15.1"_s, u"C"_s), leader),
                                        withMeta(server(u"n2"_s, u"2.15.1"_s, u"C"_s), kFollowerMeta),
                                        withMeta(server(u"n3"_s, u"2.15.1"_s, u"C"_s), kFollowerMeta)};
        const QList<Finding> fs = MetaGroupCheck::findings(servers);
        QCOMPARE(fs.size(), 1);
        const QString title = fs.first().title.toString();
        QVERIFY2(title.contains(u"n2 (listed offline by the meta leader)"_s) && title.contains(u"n3 (not a member)"_s), qPrintable(title));
    }

    void metaGroupHealthyOrUnknown()
    {
        const char *leader =
            R"({"name":"C","leader":"n1","replicas":[{"name":"n2","current":true},{"name":"n3","current":true}],"cluster_size":3})";
        QVERIFY(MetaGroupCheck::findings({withMeta(server(u"n1"_s, u"2.15.1"_s, u"C"_s), leader),
                                          withMeta(server(u"n2"_s, u"2.15.1"_s, u"C"_s), kFollowerMeta),
                                          withMeta(server(u"n3"_s, u"2.15.1"_s, u"C"_s), kFollowerMeta)})
                    .isEmpty());
        // Not read (no system connection), or a single server: nothing to say.
        QVERIFY(MetaGroupCheck::findings({server(u"n1"_s, u"2.15.1"_s, u"C"_s), server(u"n2"_s, u"2.15.1"_s, u"C"_s)}).isEmpty());
        QVERIFY(MetaGroupCheck::findings({withMeta(server(u"n1"_s, u"2.15.1"_s), "{}")}).isEmpty());
        // Every server reports a meta group but none leads: error.
        const QList<Finding> leaderless =
            MetaGroupCheck::findings({withMeta(server(u"n1"_s, u"2.15.1"_s, u"C"_s), R"({"name":"C","cluster_size":3})"),
                                      withMeta(server(u"n2"_s, u"2.15.1"_s, u"C"_s), R"({"name":"C","cluster_size":3})")});
        QCOMPARE(leaderless.size(), 1);
        QCOMPARE(leaderless.first().severity, Finding::Severity::Error);
        QVERIFY(leaderless.first().title.toString().contains(u"no leader"_s));
    }
};

QTEST_GUILESS_MAIN(TestServerFindings)
#include "tst_serverfindings.moc"
