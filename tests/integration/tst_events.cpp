// `events` against real servers and real MQTT clients (mosquitto): the CLI follows the system advisories
// as an operator runs it (a process, JSON Lines on standard output), while the test makes the traffic.
// Two clients with one client ID fighting are a takeover storm, with the address they come from; a
// client killed is a disconnect with its reason; 200 clients connecting at once are every one seen,
// each connect before its disconnect; a 3-node cluster's events come from every server. Without a
// system connection it says what is missing; Ctrl-C ends with the summary.
#include <csignal>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QFile>
#include <QTest>
#include <QThread>

#include "clirunner.h"
#include "commandrunner.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "natsserverfixture.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using namespace Qt::StringLiterals;

namespace {

/** A streaming CLI command (`events --json`, `check --watch --json`) in the background; its JSON Lines read as they come. */
class EventsProcess
{
public:
    EventsProcess(const QString &url, const QStringList &extra)
        : EventsProcess(systemArgs(url) + QStringList{u"events"_s, u"--json"_s} + extra)
    {}
    explicit EventsProcess(const QStringList &arguments)
    {
        m_process.setProgram(CliRunner::path());
        m_process.setArguments(arguments);
        m_process.start();
    }
    ~EventsProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    /** Waits until a line matching `pred` came (or the timeout); the lines so far are in lines(). */
    bool waitFor(const std::function<bool(const QJsonObject &)> &pred, int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            read();
            for (const QJsonObject &o : std::as_const(m_lines))
                if (pred(o))
                    return true;
            if (m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(100);
        }
        return false;
    }

    /** Ctrl-C, then the rest of the output; the exit code. */
    int interrupt()
    {
        ::kill(pid_t(m_process.processId()), SIGINT);
        return finish();
    }
    int finish(int timeoutMs = 30000)
    {
        m_process.waitForFinished(timeoutMs);
        read();
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }

    const QList<QJsonObject> &lines() const { return m_lines; }
    QList<QJsonObject> events(const QString &clientId) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &o : m_lines)
            if (o.contains(u"event"_s) && o.value(u"client_id"_s).toString() == clientId)
                out << o;
        return out;
    }
    QJsonObject summary() const
    {
        for (const QJsonObject &o : m_lines)
            if (o.contains(u"summary"_s))
                return o.value(u"summary"_s).toObject();
        return {};
    }
    QString describe() const
    {
        QStringList out{u"stderr: "_s + m_err};
        for (const QJsonObject &o : m_lines.mid(std::max<qsizetype>(0, m_lines.size() - 30)))
            out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        return out.join(u'\n');
    }

private:
    void read()
    {
        m_buffer += m_process.readAllStandardOutput();
        m_err += QString::fromUtf8(m_process.readAllStandardError());
        qsizetype nl;
        while ((nl = m_buffer.indexOf('\n')) >= 0) {
            const QByteArray line = m_buffer.left(nl);
            m_buffer.remove(0, nl + 1);
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            m_lines << (doc.isObject() ? doc.object() : QJsonObject{{u"not_json"_s, QString::fromUtf8(line)}});
        }
    }

    QProcess m_process;
    QByteArray m_buffer;
    QString m_err;
    QList<QJsonObject> m_lines;
};

/** The feed is up once a probe client's connect shows (a subscription made before the probe). */
bool waitUntilFollowing(EventsProcess &events, const NatsServerFixture &server, const QString &probe)
{
    for (int attempt = 0; attempt < 20; ++attempt) {
        (void)MqttClient(server.mqttPort(), u"acme"_s, u"acmepass"_s).connectOnce(probe);
        if (events.waitFor([&probe](const QJsonObject &o) { return o.value(u"client_id"_s).toString() == probe; }, 500))
            return true;
    }
    return false;
}

/** mosquitto_sub kept running with this client ID (it reconnects when its connection is taken). */
QProcess *subscriber(const NatsServerFixture &server, const QString &clientId, QObject *parent)
{
    auto *p = new QProcess(parent);
    p->start(u"mosquitto_sub"_s,
             {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(server.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s, u"-i"_s,
              clientId, u"-t"_s, u"fight/#"_s, u"-q"_s, u"1"_s});
    return p;
}

} // namespace

class TestEvents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void takeoverStormAndKilledClient()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s), qPrintable(server.errorString()));
        EventsProcess events(server.url(), {u"--account"_s, u"ACME"_s, u"--takeover-threshold"_s, u"2"_s});
        QVERIFY2(waitUntilFollowing(events, server, u"probe-1"_s), qPrintable(events.describe()));

        // Two devices with one client ID: each CONNECT closes the other.
        QObject owner;
        QProcess *a = subscriber(server, u"dup-device"_s, &owner);
        QThread::msleep(300);
        QProcess *b = subscriber(server, u"dup-device"_s, &owner);
        const bool storm = events.waitFor([](const QJsonObject &o) { return o.contains(u"takeover"_s); }, 20000);
        a->kill();
        b->kill();
        a->waitForFinished(5000);
        b->waitForFinished(5000);
        QVERIFY2(storm, qPrintable(events.describe()));
        QJsonObject takeover;
        for (const QJsonObject &o : events.lines())
            if (o.contains(u"takeover"_s))
                takeover = o.value(u"takeover"_s).toObject();
        QCOMPARE(takeover.value(u"client_id"_s).toString(), u"dup-device"_s);
        QCOMPARE(takeover.value(u"account"_s).toString(), u"ACME"_s);
        QVERIFY(takeover.value(u"takeovers"_s).toInt() > 2);
        QVERIFY2(takeover.value(u"addresses"_s).toArray().contains(u"127.0.0.1"_s), qPrintable(events.describe()));
        int duplicates = 0;
        for (const QJsonObject &e : events.events(u"dup-device"_s))
            duplicates += e.value(u"reason"_s).toString() == u"Duplicate Client ID"_s ? 1 : 0;
        QVERIFY2(duplicates > 2, qPrintable(events.describe()));

        // A client killed: its disconnect comes with the server's reason.
        QProcess *victim = subscriber(server, u"victim-1"_s, &owner);
        QVERIFY2(events.waitFor(
                     [](const QJsonObject &o) { return o.value(u"client_id"_s) == u"victim-1"_s && o.value(u"event"_s) == u"connect"_s; },
                     10000),
                 qPrintable(events.describe()));
        victim->kill();
        victim->waitForFinished(5000);
        QVERIFY2(
            events.waitFor(
                [](const QJsonObject &o) { return o.value(u"client_id"_s) == u"victim-1"_s && o.value(u"event"_s) == u"disconnect"_s; },
                10000),
            qPrintable(events.describe()));
        const QJsonObject gone = events.events(u"victim-1"_s).last();
        QVERIFY2(!gone.value(u"reason"_s).toString().isEmpty() && gone.value(u"server"_s).toString() == u"mqttdoctor-test"_s
                     && gone.value(u"user"_s).toString() == u"acme"_s,
                 qPrintable(QString::fromUtf8(QJsonDocument(gone).toJson(QJsonDocument::Compact))));

        // Ctrl-C: the summary, exit 1 (a takeover storm was seen).
        QCOMPARE(events.interrupt(), 1);
        const QJsonObject summary = events.summary();
        QCOMPARE(summary.value(u"ended"_s).toString(), u"interrupted"_s);
        QVERIFY(summary.value(u"takeovers"_s).toInt() >= duplicates);
        QVERIFY(summary.value(u"disconnect_reasons"_s).toObject().value(u"Duplicate Client ID"_s).toInt() >= duplicates);
        QCOMPARE(summary.value(u"takeover_storms"_s).toArray().first().toObject().value(u"client_id"_s).toString(), u"dup-device"_s);
    }

    void manyClientsAtOnce()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"2.10"_s), qPrintable(server.errorString()));
        EventsProcess events(server.url(), {u"--duration"_s, u"10m"_s});
        QVERIFY2(waitUntilFollowing(events, server, u"probe-2"_s), qPrintable(events.describe()));
        constexpr int kClients = 200;
        QList<QProcess *> processes;
        QObject owner;
        for (int i = 0; i < kClients; ++i) {
            auto *p = new QProcess(&owner);
            p->start(u"mosquitto_pub"_s,
                     {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(server.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s,
                      u"-i"_s, u"burst-%1"_s.arg(i), u"-t"_s, u"burst/x"_s, u"-n"_s});
            processes << p;
        }
        for (QProcess *p : std::as_const(processes))
            QVERIFY(p->waitForFinished(60000));
        const auto allSeen = [&events]() {
            QSet<QString> done;
            for (const QJsonObject &o : events.lines())
                if (o.value(u"event"_s) == u"disconnect"_s && o.value(u"client_id"_s).toString().startsWith(u"burst-"_s))
                    done.insert(o.value(u"client_id"_s).toString());
            return done.size() == kClients;
        };
        QVERIFY2(events.waitFor([&allSeen](const QJsonObject &) { return allSeen(); }, 60000), qPrintable(events.describe()));
        for (int i = 0; i < kClients; ++i) {
            const QList<QJsonObject> mine = events.events(u"burst-%1"_s.arg(i));
            QVERIFY2(mine.size() == 2 && mine.first().value(u"event"_s) == u"connect"_s && mine.last().value(u"event"_s) == u"disconnect"_s,
                     qPrintable(u"burst-%1: %2 events"_s.arg(i).arg(mine.size())));
        }
        QCOMPARE(events.interrupt(), 0);
        QVERIFY(events.summary().value(u"connects"_s).toInt() >= kClients);
        QCOMPARE(events.summary().value(u"dropped"_s).toInt(), 0);
    }

    void clusterEventsFromEveryServer()
    {
        NatsClusterFixture cluster(3);
        QVERIFY2(cluster.start(u"newest"_s), qPrintable(cluster.errorString()));
        EventsProcess events(cluster.node(0).url(), {u"--duration"_s, u"10m"_s});
        QVERIFY2(waitUntilFollowing(events, cluster.node(0), u"probe-3"_s), qPrintable(events.describe()));
        QSet<QString> expected;
        for (int n = 0; n < cluster.nodeCount(); ++n) {
            const QString id = u"node-client-%1"_s.arg(n);
            (void)MqttClient(cluster.node(n).mqttPort(), u"acme"_s, u"acmepass"_s).connectOnce(id);
            expected.insert(id);
        }
        QVERIFY2(events.waitFor(
                     [&](const QJsonObject &) {
                         QSet<QString> seen;
                         for (const QJsonObject &o : events.lines())
                             if (o.value(u"event"_s) == u"disconnect"_s && expected.contains(o.value(u"client_id"_s).toString()))
                                 seen.insert(o.value(u"client_id"_s).toString());
                         return seen == expected;
                     },
                     30000),
                 qPrintable(events.describe()));
        QSet<QString> servers;
        for (const QString &id : std::as_const(expected))
            servers.insert(events.events(id).first().value(u"server"_s).toString());
        QCOMPARE(servers.size(), cluster.nodeCount());
        QCOMPARE(events.interrupt(), 0);
    }

    // `check --watch`: the first check in full, then only what changed: a deleted $MQTT_sess appears as
    // new, its re-creation as resolved; Ctrl-C ends with the last check's exit code.
    void checkWatchPrintsChanges()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s), qPrintable(server.errorString()));
        const MqttResult session =
            MqttClient(server.mqttPort(), u"acme"_s, u"acmepass"_s).createPersistentSession(u"watched-1"_s, {u"w/#"_s}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));
        EventsProcess watch(acmeArgs(server.url()) + QStringList{u"check"_s, u"--watch"_s, u"1s"_s, u"--json"_s});
        QVERIFY2(watch.waitFor([](const QJsonObject &o) { return o.contains(u"exit_code"_s); }, 20000), qPrintable(watch.describe()));
        QCOMPARE(watch.lines().size(), 1);
        QCOMPARE(watch.lines().first().value(u"exit_code"_s).toInt(), 0);

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(u"$MQTT_sess"_s), qPrintable(admin.error()));
        const auto hasNew = [](const QJsonObject &o, const QString &key) {
            for (const QJsonValue &f : o.value(key).toArray())
                if (f.toObject().value(u"code"_s) == u"STREAM_MISSING"_s)
                    return true;
            return false;
        };
        QVERIFY2(watch.waitFor([&](const QJsonObject &o) { return hasNew(o, u"new"_s); }, 20000), qPrintable(watch.describe()));
        // Repaired meanwhile (another terminal's `repair`): the watch sees it resolved.
        QTemporaryDir backups;
        const CliRunner::Run repaired = CliRunner::run(acmeArgs(server.url())
                                                       + QStringList{u"--allow-changes"_s, u"repair"_s, u"--yes"_s, u"--finding"_s,
                                                                     u"STREAM_MISSING"_s, u"--backup-dir"_s, backups.path()});
        QVERIFY2(repaired.exitCode() == 0, qPrintable(repaired.describe()));
        QVERIFY2(watch.waitFor([&](const QJsonObject &o) { return hasNew(o, u"resolved"_s); }, 20000), qPrintable(watch.describe()));
        // Only changes: no line without one.
        for (const QJsonObject &o : watch.lines())
            QVERIFY2(o.value(u"new"_s).toArray().size() + o.value(u"resolved"_s).toArray().size() > 0 || &o == &watch.lines().first(),
                     qPrintable(watch.describe()));
        const int rc = watch.interrupt();
        QCOMPARE(rc, watch.lines().last().value(u"exit_code"_s).toInt());
    }

    // `check --format openmetrics`: valid OpenMetrics (Debian's prometheus_client parser reads it), with
    // the account's findings, session records, retained messages and connected clients.
    void checkAsOpenMetrics()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"2.10"_s), qPrintable(server.errorString()));
        const MqttClient acme(server.mqttPort(), u"acme"_s, u"acmepass"_s);
        QVERIFY(acme.createPersistentSession(u"metric-1"_s, {u"m/#"_s}, 1).subscribed());
        QVERIFY(acme.publish(u"m/retained"_s, "r", 1, true).acknowledged);
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, u"acme"_s, u"acmepass"_s), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(u"$MQTT_qos2in"_s), qPrintable(admin.error())); // a finding to count
        const CliRunner::Run run = CliRunner::run(
            acmeArgs(server.url())
            + QStringList{u"--system-user"_s, u"sys"_s, u"--system-password"_s, u"syspass"_s, u"check"_s, u"--format"_s, u"openmetrics"_s});
        QVERIFY2(run.exitCode() == 2 && run.out().endsWith(u"# EOF\n"_s), qPrintable(run.describe()));

        // Parsed by the reference parser, printed back as one "name{labels} value" line per sample.
        QProcess parser;
        parser.start(
            u"/usr/bin/python3"_s,
            {u"-c"_s,
             u"import sys\nfrom prometheus_client.openmetrics.parser import text_string_to_metric_families\n"
             u"for f in text_string_to_metric_families(sys.stdin.read()):\n"
             u"    for s in f.samples:\n"
             u"        print(s.name + ' ' + ','.join(k + '=' + v for k, v in sorted(s.labels.items())) + ' ' + repr(s.value))\n"_s});
        QVERIFY2(parser.waitForStarted(10000), "python3 with prometheus_client (Debian package python3-prometheus-client) is needed");
        parser.write(run.out().toUtf8());
        parser.closeWriteChannel();
        QVERIFY(parser.waitForFinished(30000));
        const QString parsed = QString::fromUtf8(parser.readAllStandardOutput());
        QVERIFY2(parser.exitCode() == 0, qPrintable(QString::fromUtf8(parser.readAllStandardError()) + u'\n' + run.out()));
        const QStringList samples = parsed.split(u'\n', Qt::SkipEmptyParts);
        for (const QString &expected :
             {u"mqttdoctor_findings account=ACME,severity=error 1"_s, u"mqttdoctor_findings account=ACME,severity=warning 0"_s,
              u"mqttdoctor_findings_by_code account=ACME,code=STREAM_MISSING,severity=error 1"_s,
              u"mqttdoctor_session_records account=ACME 1"_s, u"mqttdoctor_retained_messages account=ACME 1"_s,
              u"mqttdoctor_connected_mqtt_clients account=ACME 0"_s, u"mqttdoctor_checked account=ACME,level=records 1"_s,
              u"mqttdoctor_check_exit_code  2"_s})
            QVERIFY2(samples.contains(expected), qPrintable(expected + u"\nin:\n"_s + parsed));

        // The shipped alert rules and dashboard (packaging/monitoring) query only what this output holds, and the
        // rules are valid for Prometheus (promtool, Debian's prometheus package).
        QTemporaryDir dir;
        const QString metrics = dir.filePath(u"nats_mqtt_doctor.prom"_s);
        {
            QFile f(metrics);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(run.out().toUtf8());
        }
        const QString monitoring = qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/packaging/monitoring"_s; // set by CTest
        const CommandRunner::Result promtool =
            CommandRunner::run(u"/usr/bin/promtool"_s, {u"check"_s, u"rules"_s, monitoring + u"/nats-mqtt-doctor.rules.yml"_s}, 60000);
        QVERIFY2(promtool.succeeded(),
                 qPrintable(promtool.errorString + QString::fromUtf8(promtool.standardOutput + promtool.standardError)));
        const CommandRunner::Result queries =
            CommandRunner::run(u"/usr/bin/python3"_s, {monitoring + u"/check-monitoring.py"_s, monitoring, metrics}, 60000);
        QVERIFY2(queries.succeeded(), qPrintable(QString::fromUtf8(queries.standardOutput + queries.standardError)));
        const CliRunner::Run both =
            CliRunner::run(acmeArgs(server.url()) + QStringList{u"check"_s, u"--format"_s, u"openmetrics"_s, u"--json"_s});
        QCOMPARE(both.exitCode(), 64);
    }

    // CLIENT_ID_TAKEOVER in `check`, from the servers' recently closed connections: the client ID, how many
    // takeovers, the addresses (ip:port of each connection). Without a system connection it is not judged.
    void checkReportsTakeovers()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"2.10"_s), qPrintable(server.errorString()));
        QObject owner;
        QProcess *a = subscriber(server, u"dup-check"_s, &owner);
        QThread::msleep(300);
        QProcess *b = subscriber(server, u"dup-check"_s, &owner);
        const QStringList both = acmeArgs(server.url()) + QStringList{u"--system-user"_s, u"sys"_s, u"--system-password"_s, u"syspass"_s};
        CliRunner::Run run;
        QElapsedTimer waited;
        waited.start();
        do {
            QThread::msleep(1000);
            run = check(both);
        } while (findingsWith(run, u"CLIENT_ID_TAKEOVER"_s).isEmpty() && waited.elapsed() < 30000);
        a->kill();
        b->kill();
        a->waitForFinished(5000);
        b->waitForFinished(5000);
        const QJsonObject f = findingWith(run, u"CLIENT_ID_TAKEOVER"_s);
        QVERIFY2(!f.isEmpty(), qPrintable(run.describe()));
        QCOMPARE(str(f, "client_id"), u"dup-check"_s);
        QCOMPARE(str(f, "severity"), u"warning"_s);
        const QJsonObject actual = f.value(u"evidence"_s).toObject().value(u"actual"_s).toObject();
        QVERIFY(actual.value(u"takeovers"_s).toInt() > 3);
        const QJsonArray addresses = actual.value(u"addresses"_s).toArray();
        QVERIFY2(addresses.size() >= 2 && addresses.first().toString().startsWith(u"127.0.0.1:"_s), qPrintable(run.describe()));
        QVERIFY2(f.value(u"explains"_s).toArray().contains(u"Replacing old client %q since both have the same client ID %q"_s),
                 qPrintable(run.describe()));
        QCOMPARE(run.exitCode(), 1);
        // The account's own user alone cannot see closed connections: no takeover finding (the coverage says connections were not checked).
        const CliRunner::Run own = check(acmeArgs(server.url()));
        QVERIFY2(findingsWith(own, u"CLIENT_ID_TAKEOVER"_s).isEmpty(), qPrintable(own.describe()));
    }

    void needsSystemConnectionAndValidOptions()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"newest"_s), qPrintable(server.errorString()));
        const CliRunner::Run run = CliRunner::run(acmeArgs(server.url()) + QStringList{u"events"_s, u"--duration"_s, u"1s"_s, u"--json"_s});
        QCOMPARE(run.exitCode(), 3);
        QVERIFY2(run.json.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"system connection"_s),
                 qPrintable(run.describe()));
        const CliRunner::Run bad = CliRunner::run(systemArgs(server.url()) + QStringList{u"events"_s, u"--duration"_s, u"soon"_s});
        QCOMPARE(bad.exitCode(), 64);
        const CliRunner::Run badWatch = CliRunner::run(acmeArgs(server.url()) + QStringList{u"check"_s, u"--watch"_s, u"100ms"_s});
        QVERIFY2(badWatch.exitCode() == 64 && badWatch.err().contains(u"--watch"_s), qPrintable(badWatch.describe()));
        // A bounded run in text: the header, then the summary.
        const CliRunner::Run text = CliRunner::run(systemArgs(server.url()) + QStringList{u"events"_s, u"--duration"_s, u"1s"_s});
        QVERIFY2(text.exitCode() == 0 && text.out().contains(u"Followed for"_s) && text.err().contains(u"Following MQTT client"_s),
                 qPrintable(text.describe()));
    }
};

QTEST_GUILESS_MAIN(TestEvents)
#include "tst_events.moc"
