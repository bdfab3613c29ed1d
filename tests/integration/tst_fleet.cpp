// Fleet scale: a server with 650 accounts whose MQTT state was made by real MQTT clients
// (FleetSetup), and one account that the server could not give all its MQTT streams. `accounts --json`
// and `check --all-accounts --json` through the system connection must list every account exactly
// once with the streams the server really created (read independently from the HTTP monitoring port),
// report the broken account's missing streams, and report nothing against the healthy ones.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "clirunner.h"
#include "commandrunner.h"
#include "fleetsetup.h"
#include "mqttsessionbatch.h"
#include "natsserverfixture.h"
#include "nats/profile.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int FleetSize = 650;
// Generous bounds that only end a hang (no timing is asserted): the discovery before the parallel JSZ
// collector needed ~50 s per command for 650 accounts, and the CLI's watchdog stops `accounts` after
// 12 x --timeout.
constexpr int CliProcessTimeoutMs = 600000;
const QStringList CliTimeout{QStringLiteral("--timeout"), QStringLiteral("45s")};

QStringList systemArgs(const QString &url)
{
    return QStringList{QStringLiteral("--server"),          url,
                       QStringLiteral("--system-user"),     QStringLiteral("sys"),
                       QStringLiteral("--system-password"), QStringLiteral("syspass")}
    + CliTimeout;
}

// The MQTT streams every account gets from this server version.
QStringList layoutStreams(const QString &version)
{
    QStringList streams{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess")};
    if (version != QStringLiteral("2.9"))
        streams << QStringLiteral("$MQTT_out") << QStringLiteral("$MQTT_qos2in");
    streams.sort();
    return streams;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

QStringList strings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

// What the server itself says: account -> its streams, from /jsz on the monitoring port (not through
// the system account the CLI uses).
std::optional<QMap<QString, QStringList>> serverTruth(const NatsServerFixture &server, QString *problem)
{
    const auto response = server.monitor("/jsz?accounts=true&streams=true&limit=100000"_ba);
    if (!response || response->status != 200) {
        *problem = response ? QStringLiteral("/jsz answered %1").arg(response->status) : QStringLiteral("/jsz did not answer");
        return std::nullopt;
    }
    QMap<QString, QStringList> truth;
    const QJsonObject jsz = QJsonDocument::fromJson(response->body).object();
    for (const QJsonValue &a : jsz.value(QLatin1String("account_details")).toArray()) {
        QStringList streams;
        for (const QJsonValue &s : a.toObject().value(QLatin1String("stream_detail")).toArray())
            streams << s.toObject().value(QLatin1String("name")).toString();
        truth.insert(a.toObject().value(QLatin1String("name")).toString(), sorted(streams));
    }
    return truth;
}

QString firstLines(const QStringList &problems, int count = 25)
{
    QStringList shown = problems.mid(0, count);
    if (problems.size() > count)
        shown << QStringLiteral("... and %1 more").arg(problems.size() - count);
    return shown.join(u'\n');
}

int severityRank(const QString &severity)
{
    return int(QStringList{QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error"), QStringLiteral("critical")}.indexOf(
        severity));
}

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

class TestFleet : public QObject
{
    Q_OBJECT

private slots:
    // The config FleetSetup renders for 10,000 accounts is valid for every server version (`-t`
    // parses and validates it without starting; the bench starts servers of that size).
    void tenThousandAccountConfig_data() { addServerVersionRows(); }
    void tenThousandAccountConfig()
    {
        QFETCH(QString, version);
        const NatsServerBinary binary = NatsServerBinary::locate(version);
        QVERIFY2(binary.isValid(), qPrintable(binary.errorString()));
        const FleetSetup fleet(10000);
        ServerConfig config = fleet.serverConfig();
        QVERIFY(config.assignFreePorts());
        QCOMPARE(config.accounts().size(), 10001);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("fleet.conf")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.write(config.toConfigText(dir.filePath(QStringLiteral("store"))).toUtf8()) > 0);
        file.close();
        const CommandRunner::Result r =
            CommandRunner::run(binary.path(), {QStringLiteral("-t"), QStringLiteral("-c"), file.fileName()}, 60000);
        QVERIFY2(r.succeeded(),
                 qPrintable(QStringLiteral("nats-server %1 -t: exit %2 %3%4")
                                .arg(binary.version())
                                .arg(r.exitCode)
                                .arg(r.errorString, QString::fromUtf8(r.standardOutput + r.standardError))));
    }

    // The set-up's own client must tell success from failure, or a broken setup would pass for a fleet:
    // a good session, a wrong password, an unknown user, a closed port, against one real server.
    void sessionBatchReportsFailures()
    {
        const FleetSetup fleet(2);
        NatsServerFixture server;
        QVERIFY2(server.start(NatsServerBinary::testVersionLabels().constLast(), fleet.serverConfig()), qPrintable(server.errorString()));
        const QList<MqttSessionBatch::Exchange> exchanges{
            {FleetSetup::clientId(0), FleetSetup::userName(0), FleetSetup::password(0), QStringLiteral("a/b"), 1},
            {FleetSetup::clientId(1), FleetSetup::userName(1), QStringLiteral("wrong"), QStringLiteral("a/b"), 1},
            {QStringLiteral("nobody"), QStringLiteral("nobody"), QStringLiteral("x"), QStringLiteral("a/b"), 1},
        };
        const QList<MqttSessionBatch::Outcome> outcomes = MqttSessionBatch::run(server.mqttPort(), exchanges, 8, 15000);
        QCOMPARE(outcomes.size(), 3);
        QVERIFY2(outcomes[0].completed(), qPrintable(outcomes[0].failure));
        QCOMPARE(outcomes[0].connackCode, 0);
        QCOMPARE(outcomes[0].granted, QList<int>{1});
        QVERIFY(outcomes[0].closedByServer);
        for (const int i : {1, 2}) {
            QVERIFY2(!outcomes[i].completed() && outcomes[i].refusedAtConnect, qPrintable(outcomes[i].failure));
            QVERIFY2(outcomes[i].connackCode == 4 || outcomes[i].connackCode == 5, qPrintable(outcomes[i].failure));
        }
        // The second session of the same client resumes the first (clean session off).
        const auto again = MqttSessionBatch::run(server.mqttPort(), exchanges.mid(0, 1), 1, 15000);
        QVERIFY2(again[0].completed() && again[0].sessionPresent, qPrintable(again[0].failure));

        const quint16 mqttPort = server.mqttPort();
        QVERIFY(server.stop());
        const auto closed = MqttSessionBatch::run(mqttPort, exchanges.mid(0, 1), 1, 5000);
        QVERIFY(!closed[0].completed() && !closed[0].refusedAtConnect);
        QVERIFY2(closed[0].failure.contains(QStringLiteral("connect")), qPrintable(closed[0].failure));
        const FleetSetup::Report report = fleet.createMqttState(mqttPort, 4, 5000);
        QVERIFY(!report.ok());
        QCOMPARE(report.errors.size(), 3); // both accounts, and the broken one that was not refused but unreachable
    }

    void fleet_data() { addServerVersionRows(); }
    void fleet()
    {
        QFETCH(QString, version);
        const FleetSetup fleet(FleetSize);
        const NatsServerBinary binary = NatsServerBinary::locate(version);
        QVERIFY2(binary.isValid(), qPrintable(binary.errorString()));
        QString limitProblem;
        QVERIFY2(fleet.raiseOpenFileLimit(binary.versionNumber(), &limitProblem), qPrintable(limitProblem));
        NatsServerFixture server;
        QVERIFY2(server.start(binary, fleet.serverConfig(), fleet.readyTimeoutMs()), qPrintable(server.errorString()));
        const FleetSetup::Report report = fleet.createMqttState(server.mqttPort());
        QVERIFY2(report.ok(),
                 qPrintable(report.describe()
                            + (server.isRunning() ? QString() : QStringLiteral("\nnats-server exited:\n") + server.logTail())));
        qInfo("nats-server %s: %s", qPrintable(server.binary().version()), qPrintable(report.describe()));

        // The truth, and that the setup made what it claims: every healthy account has the version's
        // MQTT streams, the broken one only those created before its limit was reached.
        QString problem;
        const auto truth = serverTruth(server, &problem);
        QVERIFY2(truth, qPrintable(problem));
        const QStringList layout = layoutStreams(version);
        const QString broken = FleetSetup::brokenAccountName();
        QStringList setupProblems;
        for (const QString &name : fleet.accountNames()) {
            if (truth->value(name) != layout)
                setupProblems << QStringLiteral("%1: %2").arg(
                    name, truth->contains(name) ? truth->value(name).join(u' ') : QStringLiteral("not in /jsz"));
        }
        QVERIFY2(setupProblems.isEmpty(), qPrintable(firstLines(setupProblems)));
        QCOMPARE(truth->value(broken), sorted({QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT_msgs")}));

        const QString tempDir = server.directory();
        QString profileError;
        const QString profilePath = tempDir + QStringLiteral("/fleet-profile.json");
        QVERIFY2(fleet.writeProfile(profilePath, server.url(), &profileError), qPrintable(profileError));
        struct stat st
        {};
        QCOMPARE(::stat(QFile::encodeName(profilePath).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        const auto profile = Profile::fromFile(profilePath);
        QVERIFY2(profile, qPrintable(profile ? QString() : profile.error().toString()));
        QVERIFY(profile->hasSystem());
        QCOMPARE(profile->accounts.size(), FleetSize + 1);
        QCOMPARE(profile->accounts.value(FleetSetup::accountName(FleetSize - 1)).user, FleetSetup::userName(FleetSize - 1));

        checkAccounts(server, fleet, *truth);
        if (QTest::currentTestFailed())
            return;
        checkAllAccounts(server, fleet, *truth, layout);
    }

private:
    // `accounts --json`: every account once, JetStream on, exactly the server's streams; SYS as the
    // system account; $G not listed (it has no JetStream here); finding counts only for BROKEN.
    void checkAccounts(const NatsServerFixture &server, const FleetSetup &fleet, const QMap<QString, QStringList> &truth)
    {
        const CliRunner::Run run = CliRunner::run(
            systemArgs(server.url()) + QStringList{QStringLiteral("--json"), QStringLiteral("accounts")}, CliProcessTimeoutMs);
        qInfo("accounts --json: exit %d after %lld ms", run.exitCode(), run.elapsedMs);
        QVERIFY2(run.jsonValid && run.exitCode() == 0, qPrintable(run.describe()));

        QMap<QString, QJsonObject> listed;
        QStringList problems;
        for (const QJsonValue &v : run.json.value(QLatin1String("accounts")).toArray()) {
            const QJsonObject a = v.toObject();
            const QString name = a.value(QLatin1String("name")).toString();
            if (listed.contains(name))
                problems << QStringLiteral("%1 listed more than once").arg(name);
            listed.insert(name, a);
        }
        const QString broken = FleetSetup::brokenAccountName();
        QStringList expectedNames = fleet.accountNames() + QStringList{broken, QStringLiteral("SYS")};
        for (const QString &name : listed.keys())
            if (!expectedNames.contains(name))
                problems << QStringLiteral("unexpected account %1: %2").arg(name, compact(listed.value(name)));
        for (const QString &name : std::as_const(expectedNames))
            if (!listed.contains(name))
                problems << QStringLiteral("%1 is not listed").arg(name);

        for (const QString &name : fleet.accountNames() + QStringList{broken}) {
            if (!listed.contains(name))
                continue;
            const QJsonObject a = listed.value(name);
            const QStringList mqtt = sorted(strings(a.value(QLatin1String("mqtt_streams"))));
            if (a.value(QLatin1String("jetstream")) != QJsonValue(true) || a.value(QLatin1String("system")).toBool()
                || mqtt != truth.value(name) || a.value(QLatin1String("streams")).toInt(-1) != truth.value(name).size()) {
                problems << QStringLiteral("%1: expected JetStream on and streams %2, got %3")
                                .arg(name, truth.value(name).join(u' '), compact(a));
                continue;
            }
            const QJsonObject counts = a.value(QLatin1String("findings")).toObject();
            const int serious = counts.value(QLatin1String("critical")).toInt() + counts.value(QLatin1String("error")).toInt();
            const int warnings = counts.value(QLatin1String("warning")).toInt();
            if (name == broken && serious == 0)
                problems << QStringLiteral("%1: no critical or error finding counted for its missing streams: %2").arg(name, compact(a));
            if (name != broken && (serious != 0 || warnings != 0))
                problems << QStringLiteral("%1 is healthy but has findings counted: %2").arg(name, compact(a));
        }
        const QJsonObject sys = listed.value(QStringLiteral("SYS"));
        if (!sys.value(QLatin1String("system")).toBool() || sys.value(QLatin1String("jetstream")).toBool())
            problems << QStringLiteral("SYS should be the system account without JetStream: %1").arg(compact(sys));
        QVERIFY2(problems.isEmpty(), qPrintable(firstLines(problems)));
    }

    // `check --all-accounts --json`: exit 2, every account checked once, STREAM_MISSING (error or worse)
    // for each stream BROKEN lacks, and nothing above info for any other account.
    void checkAllAccounts(const NatsServerFixture &server, const FleetSetup &fleet, const QMap<QString, QStringList> &truth,
                          const QStringList &layout)
    {
        const CliRunner::Run run = CliRunner::run(
            systemArgs(server.url()) + QStringList{QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("--all-accounts")},
            CliProcessTimeoutMs);
        qInfo("check --all-accounts --json: exit %d after %lld ms", run.exitCode(), run.elapsedMs);
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));

        QStringList problems;
        const QString broken = FleetSetup::brokenAccountName();
        const QStringList checked = strings(run.json.value(QLatin1String("accounts")));
        for (const QString &name : fleet.accountNames() + QStringList{broken})
            if (checked.count(name) != 1)
                problems << QStringLiteral("%1 checked %2 times").arg(name).arg(checked.count(name));

        QSet<QString> missingReported;
        for (const QJsonValue &v : run.json.value(QLatin1String("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            const QString account = f.value(QLatin1String("account")).toString();
            const int rank = severityRank(f.value(QLatin1String("severity")).toString());
            if (account != broken && rank > severityRank(QStringLiteral("info")))
                problems << QStringLiteral("finding against a healthy account: %1").arg(compact(f));
            if (account == broken && f.value(QLatin1String("code")).toString() == QStringLiteral("STREAM_MISSING")
                && rank >= severityRank(QStringLiteral("error")))
                missingReported.insert(f.value(QLatin1String("stream")).toString());
        }
        for (const QString &stream : layout)
            if (!truth.value(broken).contains(stream) && !missingReported.contains(stream))
                problems << QStringLiteral("no STREAM_MISSING (error or critical) for %1's %2").arg(broken, stream);
        for (const QString &stream : std::as_const(missingReported))
            if (truth.value(broken).contains(stream))
                problems << QStringLiteral("STREAM_MISSING for %1's %2, which exists").arg(broken, stream);
        if (run.exitCode() != 2)
            problems << QStringLiteral("exit code %1, expected 2 (errors or critical findings)").arg(run.exitCode());
        QVERIFY2(problems.isEmpty(),
                 qPrintable(firstLines(problems) + QStringLiteral("\nsummary: ")
                            + compact(run.json.value(QLatin1String("summary")).toObject()) + QStringLiteral("\nstderr: ")
                            + run.err().left(2000)));
    }
};

QTEST_GUILESS_MAIN(TestFleet)
#include "tst_fleet.moc"
