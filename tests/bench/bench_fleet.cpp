// Fleet scale: one nats-server with N accounts (3 MQTT streams each on 2.9, 5 on 2.10+, made by
// real MQTT sessions; one account whose max_streams keeps it from getting them all), and whole processes
// timed against it, several runs each, side by side:
//   baseline       fleet_rawjsz: a raw nats.c program sending ONE $SYS.REQ.SERVER.PING.JSZ with
//                  accounts, streams, consumers and configs for every account, waiting for the reply
//   accounts       nats-mqtt-doctor-cli accounts --json (system connection)
//   check          nats-mqtt-doctor-cli check --all-accounts --json (system connection)
//   check-profile  the same with --profile: every account's credentials, record-level checks
//   gui            nats-mqtt-doctor (offscreen) from process start to its "tree complete" log line
// Prints each command's median wall time, its ratio to the baseline (median of the runs' own ratios),
// peak RSS and the targets beside them. Asserts nothing.
//
//   bench_fleet [--server 2.9,newest] [--accounts 1000,10000] [--runs N (5)]
//               [--commands baseline,accounts,check,check-profile,gui] [--parallel P (48)]
//               [--cli-timeout 30s] [--process-timeout S (900)] [--gui-timeout S (120)] [--no-partial]
// Where the open-file limit cannot hold every account's MQTT streams (nats-server keeps 5-6 files open
// per account), every account is still created but only as many get MQTT state as fit: a PARTIAL fleet,
// labelled as such (--no-partial skips the size instead).
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "fleetsetup.h"
#include "natsserverfixture.h"
#include "processrounds.h"
#include "timedprocess.h"

using namespace MqttDoctor;
using namespace MqttDoctor::BenchData;
using namespace MqttDoctor::Test;

namespace {

const QStringList AllCommands{QStringLiteral("baseline"), QStringLiteral("accounts"), QStringLiteral("check"),
                              QStringLiteral("check-profile"), QStringLiteral("gui")};
// What the GUI logs (category mqttdoctor.load, info) once every account row and its badge are in the tree.
const QRegularExpression TreeComplete(QStringLiteral("tree complete: (\\d+) accounts, (\\d+) servers, (\\d+) ms after connect"));

struct Settings
{
    QStringList versions;
    QList<int> sizes;
    int runs = 5;
    QStringList commands;
    int parallel = FleetSetup::DefaultParallel;
    QString cliTimeout;
    int processTimeoutMs = 0;
    int guiTimeoutMs = 0;
    bool partial = true; // a fleet the open-file limit cannot hold: measure a partial one instead of skipping
};

QStringList systemConnection(const QString &url)
{
    return {QStringLiteral("--server"), url, QStringLiteral("--system-user"), QStringLiteral("sys"), QStringLiteral("--system-password"),
            QStringLiteral("syspass")};
}

// What `accounts --json` listed, against the fleet: every account with its MQTT streams?
QString accountsContent(const QByteArray &json, const FleetSetup &fleet)
{
    const QJsonArray accounts = QJsonDocument::fromJson(json).object().value(QLatin1String("accounts")).toArray();
    int withMqtt = 0;
    QMap<QString, int> sources;
    for (const QJsonValue &v : accounts) {
        const QJsonObject a = v.toObject();
        if (!a.value(QLatin1String("mqtt_streams")).toArray().isEmpty())
            ++withMqtt;
        ++sources[a.value(QLatin1String("source")).toString()];
    }
    QStringList bySource;
    for (auto it = sources.cbegin(); it != sources.cend(); ++it)
        bySource << QStringLiteral("%1 %2").arg(number(it.value()), it.key());
    const bool complete = withMqtt == fleet.withMqttState() + 1 && accounts.size() >= fleet.count() + 1;
    return QStringLiteral("%1 accounts listed (%2), %3 with MQTT streams (the fleet has %4)%5")
        .arg(number(accounts.size()), bySource.join(QStringLiteral(", ")), number(withMqtt), number(fleet.withMqttState() + 1),
             complete ? QString() : QStringLiteral(" -- INCOMPLETE"));
}

// What `check --all-accounts --json` reported: the broken account's findings, and anything else above info.
QString checkContent(const TimedProcess::Outcome &o, const FleetSetup &fleet)
{
    const QJsonObject root = QJsonDocument::fromJson(o.standardOutput).object();
    const int checked = int(root.value(QLatin1String("accounts")).toArray().size());
    QSet<QString> flagged;
    int brokenFindings = 0;
    for (const QJsonValue &v : root.value(QLatin1String("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        const QString severity = f.value(QLatin1String("severity")).toString();
        if (severity == QLatin1String("info"))
            continue;
        flagged.insert(f.value(QLatin1String("account")).toString());
        if (f.value(QLatin1String("account")).toString() == FleetSetup::brokenAccountName())
            ++brokenFindings;
    }
    flagged.remove(FleetSetup::brokenAccountName());
    QString text = QStringLiteral("exit %1, %2 accounts checked, %3 findings above info for %4")
                       .arg(o.exitCode)
                       .arg(number(checked), number(brokenFindings), FleetSetup::brokenAccountName());
    if (root.contains(QLatin1String("records_checked")))
        text += QStringLiteral(", session records checked in %1 accounts, %2 notes")
                    .arg(number(root.value(QLatin1String("records_checked")).toArray().size()))
                    .arg(number(root.value(QLatin1String("notes")).toArray().size()));
    if (!flagged.isEmpty())
        text += QStringLiteral(" -- %1 healthy accounts flagged too").arg(number(flagged.size()));
    if (checked < fleet.count() + 1 || brokenFindings == 0)
        text += QStringLiteral(" -- INCOMPLETE");
    return text;
}

struct Target
{
    double ms = -1; // -1: no target at this size
    double rssMiB = -1;
};

Target targetFor(const QString &command, int size)
{
    Target t;
    if (command == QLatin1String("accounts") || command == QLatin1String("check")) {
        if (size == 1000)
            t.ms = 1000;
        if (size == 10000) {
            t.ms = 5000;
            t.rssMiB = 300;
        }
    }
    if (command == QLatin1String("gui") && size == 1000)
        t.ms = 1500;
    return t;
}

class FleetBench
{
public:
    explicit FleetBench(const Settings &settings) : m_settings(settings) {}

    bool runSize(const QString &version, int size)
    {
        FleetSetup fleet(size);
        const NatsServerBinary serverBinary = NatsServerBinary::locate(version);
        if (!serverBinary.isValid()) {
            std::printf("\n== nats-server %s: %s\n", qPrintable(version), qPrintable(serverBinary.errorString()));
            return false;
        }
        std::printf("\n== nats-server %s, %s accounts + %s (MQTT streams made by real MQTT sessions), %d runs per figure\n",
                    qPrintable(serverBinary.version()), qPrintable(number(size)), qPrintable(FleetSetup::brokenAccountName()),
                    m_settings.runs);
        std::fflush(stdout);
        QString limitProblem;
        if (!fleet.raiseOpenFileLimit(serverBinary.versionNumber(), &limitProblem)) {
            // Every account still exists (JetStream on); only the first ones get MQTT state. The figures
            // then show how the tools scale with the number of accounts, not the full fleet's cost.
            const int fits = FleetSetup::mqttAccountsWithin(FleetSetup::openFileHardLimit(), serverBinary.versionNumber()) / 100 * 100;
            if (!m_settings.partial || fits < 100) {
                std::printf("  skipped: %s\n", qPrintable(limitProblem));
                return true;
            }
            fleet = FleetSetup(size, fits);
            std::printf("  PARTIAL FLEET: %s; measuring %s accounts of which only the first %s get MQTT state "
                        "(--no-partial skips instead)\n",
                        qPrintable(limitProblem), qPrintable(number(size)), qPrintable(number(fits)));
            if (!fleet.raiseOpenFileLimit(serverBinary.versionNumber(), &limitProblem)) {
                std::printf("  skipped: %s\n", qPrintable(limitProblem));
                return true;
            }
        }

        NatsServerFixture server;
        QElapsedTimer clock;
        clock.start();
        if (!server.start(serverBinary, fleet.serverConfig(), fleet.readyTimeoutMs())) {
            std::printf("  cannot start nats-server: %s\n", qPrintable(server.errorString()));
            return false;
        }
        const qint64 startMs = clock.elapsed();
        const FleetSetup::Report report = fleet.createMqttState(server.mqttPort(), m_settings.parallel);
        std::printf("  setup: server ready in %.1f s; MQTT sessions of %s accounts in %.1f s (%.0f accounts/s, %d at once); "
                    "broken account %s\n",
                    double(startMs) / 1000, qPrintable(number(fleet.withMqttState())), double(report.elapsedMs) / 1000,
                    1000.0 * fleet.withMqttState() / std::max<qint64>(1, report.elapsedMs), m_settings.parallel,
                    qPrintable(report.brokenOutcome));
        if (!report.ok()) {
            std::printf("  setup failed, no figures at this size:\n%s\n", qPrintable(report.describe()));
            if (!server.isRunning())
                std::printf("  nats-server exited:\n%s\n", qPrintable(server.logTail()));
            return false;
        }
        std::printf("  nats-server resident after the setup: %.0f MiB\n", double(serverRssKiB(server.processId())) / 1024);
        const QString profile = QDir(server.directory()).filePath(QStringLiteral("fleet-profile.json"));
        QString profileError;
        if (!fleet.writeProfile(profile, server.url(), &profileError, m_settings.cliTimeout)) {
            std::printf("  %s\n", qPrintable(profileError));
            return false;
        }
        std::fflush(stdout);

        // The server's first JSZ after the setup costs it more than the next ones; it goes to no command.
        const TimedProcess::Outcome warmUp = runCommand(QStringLiteral("baseline"), server, fleet, profile);
        std::printf("  warm-up: the first PING.JSZ after the setup took %.0f ms (%s)\n", warmUp.wallMs,
                    qPrintable(warmUp.succeeded() ? QStringLiteral("not counted") : warmUp.describe()));
        std::fflush(stdout);

        ProcessRounds::Hooks hooks;
        hooks.run = [&](const QString &command) { return runCommand(command, server, fleet, profile); };
        hooks.completed = &FleetBench::completed;
        hooks.baselineOf = [](const QString &) { return QStringLiteral("baseline"); };
        hooks.describe = [&fleet](const QString &command, const TimedProcess::Outcome &o, ProcessSeries &s) {
            s.content = content(command, o, fleet);
            if (command == QLatin1String("gui")) {
                const QRegularExpressionMatch m = TreeComplete.match(o.line);
                s.extra = QStringLiteral("its line: %1 accounts, %2 servers, %3 ms after connect")
                              .arg(m.captured(1), m.captured(2), m.captured(3));
            }
        };
        const QMap<QString, ProcessSeries> series = ProcessRounds::run(m_settings.commands, m_settings.runs, hooks);
        print(series, fleet);
        return true;
    }

private:
    static qint64 serverRssKiB(qint64 pid)
    {
        QFile f(QStringLiteral("/proc/%1/status").arg(pid));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.startsWith("VmRSS:"))
                return line.mid(6).trimmed().split(' ').first().toLongLong();
        return 0;
    }

    static bool completed(const QString &command, const TimedProcess::Outcome &o)
    {
        if (!o.started || o.timedOut || !o.error.isEmpty() || o.signal != 0)
            return false;
        if (command.startsWith(QLatin1String("check")))
            return o.exitCode >= 0 && o.exitCode <= 2; // 2: the broken account's findings
        return o.exitCode == 0;
    }

    TimedProcess::Outcome runCommand(const QString &command, const NatsServerFixture &server, const FleetSetup &fleet,
                                     const QString &profile) const
    {
        const QStringList timeout{QStringLiteral("--timeout"), m_settings.cliTimeout};
        if (command == QLatin1String("baseline"))
            return TimedProcess::run(binary(QStringLiteral("bench/fleet_rawjsz")),
                                     {server.url(), QStringLiteral("sys"), QStringLiteral("syspass"), QString::number(fleet.count() + 100)},
                                     {}, m_settings.processTimeoutMs, launcher());
        const QString cli = binary(QStringLiteral("bin/nats-mqtt-doctor-cli"));
        if (command == QLatin1String("accounts"))
            return TimedProcess::run(
                cli, systemConnection(server.url()) + timeout + QStringList{QStringLiteral("--json"), QStringLiteral("accounts")}, {},
                m_settings.processTimeoutMs, launcher());
        if (command == QLatin1String("check"))
            return TimedProcess::run(cli,
                                     systemConnection(server.url()) + timeout
                                         + QStringList{QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("--all-accounts")},
                                     {}, m_settings.processTimeoutMs, launcher());
        if (command == QLatin1String("check-profile"))
            return TimedProcess::run(
                cli,
                {QStringLiteral("--profile"), profile, QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("--all-accounts")},
                {}, m_settings.processTimeoutMs, launcher());
        // The GUI keeps its settings and secrets apart from the user's (it saves recent connections).
        const QString home = QDir(server.directory()).filePath(QStringLiteral("gui-home"));
        QDir().mkpath(home);
        const QMap<QString, QString> environment{
            {QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")},
            {QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("mqttdoctor.load.info=true")},
            {QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config")},
            {QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data")},
            {QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache")},
        };
        return TimedProcess::runUntilLine(binary(QStringLiteral("bin/nats-mqtt-doctor")), systemConnection(server.url()), environment,
                                          TreeComplete, m_settings.guiTimeoutMs);
    }

    static QString content(const QString &command, const TimedProcess::Outcome &o, const FleetSetup &fleet)
    {
        if (command == QLatin1String("baseline")) {
            static const QRegularExpression bytes(QStringLiteral("(\\d+) bytes"));
            const qint64 n = bytes.match(QString::fromUtf8(o.standardOutput)).captured(1).toLongLong();
            return QStringLiteral("one reply of %1 MiB").arg(double(n) / (1024 * 1024), 0, 'f', 1);
        }
        if (command == QLatin1String("accounts"))
            return accountsContent(o.standardOutput, fleet);
        if (command.startsWith(QLatin1String("check")))
            return checkContent(o, fleet);
        return {};
    }

    void print(const QMap<QString, ProcessSeries> &series, const FleetSetup &fleet) const
    {
        const QMap<QString, QString> titles{
            {QStringLiteral("baseline"), QStringLiteral("baseline: raw nats.c, one PING.JSZ")},
            {QStringLiteral("accounts"), QStringLiteral("accounts --json")},
            {QStringLiteral("check"), QStringLiteral("check --all-accounts --json")},
            {QStringLiteral("check-profile"), QStringLiteral("check --all-accounts --json --profile")},
            {QStringLiteral("gui"), QStringLiteral("GUI: process start to tree complete")},
        };
        for (const QString &command : m_settings.commands) {
            const ProcessSeries s = series.value(command);
            const QString title = titles.value(command).leftJustified(40);
            if (s.ms.isEmpty()) {
                if (command == QLatin1String("gui") && s.failure.contains(QLatin1String("did not finish in time")))
                    std::printf("  %s GUI: no 'tree complete' line within %d s\n", qPrintable(title), m_settings.guiTimeoutMs / 1000);
                else
                    std::printf("  %s no figure: %s\n", qPrintable(title), qPrintable(s.failure));
                continue;
            }
            const double ms = ProcessRounds::median(s.ms);
            const double rss = ProcessRounds::median(s.rssMiB);
            QString figures;
            if (!s.ratios.isEmpty())
                figures += QStringLiteral("  x%1 the baseline").arg(ProcessRounds::median(s.ratios), 0, 'f', 1);
            figures +=
                QStringLiteral("  peak RSS %1 MiB  CPU %2 s").arg(rss, 0, 'f', 1).arg(ProcessRounds::median(s.cpuSeconds), 0, 'f', 2);
            const Target target = targetFor(command, fleet.count());
            figures += ProcessRounds::verdict(ms, target.ms, QStringLiteral("ms"))
                + ProcessRounds::verdict(rss, target.rssMiB, QStringLiteral("MiB"));
            if (fleet.isPartial() && (target.ms >= 0 || target.rssMiB >= 0))
                figures += QStringLiteral(" (partial fleet: indicative only)");
            ProcessRounds::print(titles.value(command), 40, s, figures);
        }
        std::fflush(stdout);
    }

    Settings m_settings;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto option = [&](const char *name, const QString &fallback) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    Settings settings;
    settings.versions = option("--server", QStringLiteral("2.9,newest")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &n : option("--accounts", QStringLiteral("1000,10000")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        settings.sizes << std::max(1, n.toInt());
    settings.runs = std::max(1, option("--runs", QStringLiteral("5")).toInt());
    settings.commands = option("--commands", AllCommands.join(QLatin1Char(','))).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &c : std::as_const(settings.commands))
        if (!AllCommands.contains(c)) {
            std::fprintf(stderr, "unknown command \"%s\" (known: %s)\n", qPrintable(c), qPrintable(AllCommands.join(QLatin1Char(','))));
            return 64;
        }
    settings.parallel = std::max(1, option("--parallel", QString::number(FleetSetup::DefaultParallel)).toInt());
    settings.cliTimeout = option("--cli-timeout", QStringLiteral("30s"));
    settings.processTimeoutMs = std::max(1, option("--process-timeout", QStringLiteral("900")).toInt()) * 1000;
    settings.guiTimeoutMs = std::max(1, option("--gui-timeout", QStringLiteral("120")).toInt()) * 1000;
    settings.partial = !args.contains(QStringLiteral("--no-partial"));

    for (const QString &program : {QStringLiteral("bench/fleet_rawjsz"), QStringLiteral("bench/fleet_launch"),
                                   QStringLiteral("bin/nats-mqtt-doctor-cli"), QStringLiteral("bin/nats-mqtt-doctor")})
        if (!QFileInfo(binary(program)).isExecutable()) {
            std::fprintf(stderr, "missing %s: build the benchmarks target of this tree\n", qPrintable(binary(program)));
            return 1;
        }
    std::printf("bench_fleet: whole processes, wall time from spawn to exit (GUI: to its 'tree complete' line), medians of %d runs; "
                "the CLI runs with --timeout %s; peak RSS from wait4 in a small launcher (GUI: VmHWM before it is stopped)\n",
                settings.runs, qPrintable(settings.cliTimeout));
    std::printf("targets: accounts and check <= 1 s at 1,000 accounts and <= 5 s at 10,000 with peak RSS <= 300 MiB; "
                "GUI tree <= 1.5 s at 1,000\n");
    std::fflush(stdout);
    int rc = 0;
    FleetBench bench(settings);
    for (const QString &version : std::as_const(settings.versions))
        for (const int size : std::as_const(settings.sizes))
            if (!bench.runSize(version.trimmed(), size))
                rc = 1;
    return rc;
}
