// Big accounts end to end: one nats-server with one account holding N session records
// (~300 B, one QoS 1 subscription each) and R retained messages, and whole processes of what a user
// runs timed against it, several runs each, side by side with a raw nats.c read of the same stream:
//   raw-sess        bigaccount_rawread: $MQTT_sess with an ordered consumer, last per subject, nothing kept
//   sessions-json   nats-mqtt-doctor-cli --json sessions --limit 0
//   sessions-text   nats-mqtt-doctor-cli sessions --limit 0
//   sessions-first  nats-mqtt-doctor-cli --json sessions (the first 100)
//   check           nats-mqtt-doctor-cli --json check (the account, its session records included)
//   raw-rmsgs       bigaccount_rawread: $MQTT_rmsgs, every message (2.9 keeps them on one subject)
//   retained-json   nats-mqtt-doctor-cli --json retained
//   gui             nats-mqtt-doctor --account ACME (offscreen): process start to all session rows (its
//                   `mqttdoctor.load` lines), peak RSS once the account's findings are made too
// Every CLI run has a system connection (CONNZ: connected state) and the account's user. Prints each
// command's median wall time, its ratio to the raw read of its stream (median of the runs' own
// ratios), peak RSS and CPU, what its output held, and the targets. Asserts nothing.
//
//   bench_bigaccount [--server 2.9] [--sessions 100000,1000000] [--retained N (as many as sessions)] [--runs N (3)]
//                    [--commands raw-sess,sessions-json,...] [--process-timeout S (900)]
//                    [--serve: fill the first size, print the server's URL and keep it until standard input ends]
//                    [--qos0: records with one QoS 0 subscription and no durable (~120 B), not one QoS 1
//                     subscription whose durable does not exist on the server (~300 B, a finding each)]
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cstdio>

#include "benchdata.h"
#include "natsserverfixture.h"
#include "processrounds.h"
#include "timedprocess.h"

using namespace MqttDoctor;
using namespace MqttDoctor::BenchData;
using namespace MqttDoctor::Test;

namespace {

const QStringList AllCommands{
    QStringLiteral("raw-sess"), QStringLiteral("sessions-json"), QStringLiteral("sessions-text"), QStringLiteral("sessions-first"),
    QStringLiteral("check"),    QStringLiteral("raw-rmsgs"),     QStringLiteral("retained-json"), QStringLiteral("gui")};
// What the GUI logs (category mqttdoctor.load, info) when the sessions view shows its first rows and all of them.
const QRegularExpression FirstRows(QStringLiteral("sessions: first (\\d+) rows (\\d+) ms after connect"));
const QRegularExpression AllRows(QStringLiteral("sessions complete: (\\d+) rows (\\d+) ms after connect"));
// ... and when the account's findings are made too (the process is idle then: its peak RSS is read).
const QRegularExpression AllFindings(QStringLiteral("findings complete: (\\d+) findings (\\d+) ms after connect"));

struct Settings
{
    QStringList versions;
    QList<int> sizes;
    int retained = -1; // -1: as many as session records
    int runs = 3;
    QStringList commands;
    int processTimeoutMs = 0;
    bool qos0 = false; // QoS 0 subscriptions: no durables, so no SESSION_MISSING_CONSUMER per session
    bool serve = false; // fill the server, print its URL and keep it until standard input ends (to profile by hand)
};

// The raw read each command is compared with: the stream it reads.
QString baselineOf(const QString &command)
{
    if (command == QLatin1String("retained-json"))
        return QStringLiteral("raw-rmsgs");
    if (command.startsWith(QLatin1String("raw-")))
        return {};
    return QStringLiteral("raw-sess");
}

struct Target
{
    double ratio = -1; // of the raw read's time
    double ms = -1;
    double rssMiB = -1;
};

Target targetFor(const QString &command, int size)
{
    Target t;
    if (command == QLatin1String("sessions-first")) {
        t.ms = 100;
        return t;
    }
    if (command == QLatin1String("check")) {
        if (size <= 100000) {
            t.ratio = 2;
            t.rssMiB = 300;
        }
        return t;
    }
    if (command == QLatin1String("gui")) {
        if (size >= 1000000)
            t.rssMiB = 1.2 * 1024;
        return t;
    }
    if (command.startsWith(QLatin1String("raw-")))
        return t;
    t.ratio = 1.5;
    if (size >= 1000000)
        t.rssMiB = 150;
    return t;
}

class BigAccountBench
{
public:
    explicit BigAccountBench(const Settings &settings) : m_settings(settings) {}

    bool runSize(const QString &version, int size)
    {
        m_retained = m_settings.retained < 0 ? size : m_settings.retained;
        NatsServerFixture server;
        if (!server.start(version)) {
            std::printf("\n== nats-server %s: cannot start: %s\n", qPrintable(version), qPrintable(server.errorString()));
            return false;
        }
        std::printf("\n== nats-server %s, account ACME with %s session records (%s) and %s retained messages (2.9 layout, JSON), "
                    "%d runs per figure\n",
                    qPrintable(server.binary().version()), qPrintable(number(size)),
                    m_settings.qos0 ? "one QoS 0 subscription each, no durable"
                                    : "one QoS 1 subscription each, its durable missing on the server: a finding each",
                    qPrintable(number(m_retained)), m_settings.runs);
        std::fflush(stdout);
        if (!fill(server.url().toUtf8(), size, m_retained, m_settings.qos0)) {
            std::printf("  setup failed: cannot store the records\n");
            return false;
        }
        std::fflush(stdout);
        m_size = size;
        if (m_settings.serve) {
            std::printf("  serving at %s (user %s, password %s; system user sys, password syspass) until standard input ends\n",
                        qPrintable(server.url()), User, Password);
            std::fflush(stdout);
            while (std::getchar() != EOF) {}
            return true;
        }
        ProcessRounds::Hooks hooks;
        hooks.run = [&](const QString &command) { return runCommand(command, server); };
        hooks.completed = &BigAccountBench::completed;
        hooks.baselineOf = &baselineOf;
        hooks.describe = [this](const QString &command, const TimedProcess::Outcome &o, ProcessSeries &s) {
            s.content = content(command, o);
            if (command == QLatin1String("gui")) {
                const QString log = QString::fromUtf8(o.standardErrorTail);
                s.extra =
                    QStringLiteral("first rows %1 ms after connect; findings (%2) complete %3 ms after connect, peak RSS then")
                        .arg(FirstRows.match(log).captured(2), AllFindings.match(log).captured(1), AllFindings.match(log).captured(2));
            }
        };
        // The GUI's figure is the time to all rows: the findings' line came later, after connect as much.
        hooks.timeOf = [](const QString &command, const TimedProcess::Outcome &o) {
            if (command != QLatin1String("gui"))
                return o.wallMs;
            const QString log = QString::fromUtf8(o.standardErrorTail);
            const double connectAt = o.wallMs - AllFindings.match(log).captured(2).toDouble();
            return connectAt + AllRows.match(log).captured(2).toDouble();
        };
        const QMap<QString, ProcessSeries> series = ProcessRounds::run(m_settings.commands, m_settings.runs, hooks);
        print(series);
        return true;
    }

private:
    static bool completed(const QString &command, const TimedProcess::Outcome &o)
    {
        if (!o.started || o.timedOut || !o.error.isEmpty() || o.signal != 0)
            return false;
        if (command == QLatin1String("check"))
            return o.exitCode >= 0 && o.exitCode <= 2; // findings are not a failure of the command
        return o.exitCode == 0;
    }

    QStringList connection(const NatsServerFixture &server) const
    {
        return {QStringLiteral("--server"),
                server.url(),
                QStringLiteral("--user"),
                QString::fromLatin1(User),
                QStringLiteral("--password"),
                QString::fromLatin1(Password),
                QStringLiteral("--system-user"),
                QStringLiteral("sys"),
                QStringLiteral("--system-password"),
                QStringLiteral("syspass"),
                QStringLiteral("--timeout"),
                QStringLiteral("30s")};
    }

    TimedProcess::Outcome runCommand(const QString &command, const NatsServerFixture &server) const
    {
        const int timeout = m_settings.processTimeoutMs;
        if (command == QLatin1String("raw-sess") || command == QLatin1String("raw-rmsgs")) {
            const bool sessions = command == QLatin1String("raw-sess");
            return TimedProcess::run(binary(QStringLiteral("bench/bigaccount_rawread")),
                                     {server.url(), QString::fromLatin1(User), QString::fromLatin1(Password),
                                      sessions ? QStringLiteral("$MQTT_sess") : QStringLiteral("$MQTT_rmsgs"),
                                      sessions ? QStringLiteral("$MQTT.sess.>") : QStringLiteral("$MQTT.rmsgs"),
                                      sessions ? QStringLiteral("last") : QStringLiteral("all")},
                                     {}, timeout, launcher());
        }
        if (command == QLatin1String("gui")) {
            const QString home = QDir(server.directory()).filePath(QStringLiteral("gui-home"));
            QDir().mkpath(home);
            const QMap<QString, QString> environment{
                {QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")},
                {QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("mqttdoctor.load.info=true")},
                {QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config")},
                {QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data")},
                {QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache")},
            };
            return TimedProcess::runUntilLine(binary(QStringLiteral("bin/nats-mqtt-doctor")),
                                              connection(server) + QStringList{QStringLiteral("--account"), QStringLiteral("ACME")},
                                              environment, AllFindings, timeout);
        }
        QStringList args = connection(server);
        TimedProcess::OutputLimit limit;
        if (command == QLatin1String("sessions-json"))
            args << QStringLiteral("--json") << QStringLiteral("sessions") << QStringLiteral("--limit") << QStringLiteral("0");
        else if (command == QLatin1String("sessions-text"))
            args << QStringLiteral("sessions") << QStringLiteral("--limit") << QStringLiteral("0");
        else if (command == QLatin1String("sessions-first"))
            args << QStringLiteral("--json") << QStringLiteral("sessions");
        else if (command == QLatin1String("check"))
            args << QStringLiteral("--json") << QStringLiteral("check") << QStringLiteral("--account") << QStringLiteral("ACME");
        else
            args << QStringLiteral("--json") << QStringLiteral("retained");
        limit.marker = command.startsWith(QLatin1String("sessions")) ? QByteArrayLiteral("\"client_id\": ")
            : command == QLatin1String("retained-json")              ? QByteArrayLiteral("\"topic\": ")
                                                                     : QByteArrayLiteral("\"code\": ");
        if (command == QLatin1String("sessions-text"))
            limit.marker = QByteArrayLiteral("\n");
        return TimedProcess::run(binary(QStringLiteral("bin/nats-mqtt-doctor-cli")), args, {}, timeout, launcher(), limit);
    }

    QString content(const QString &command, const TimedProcess::Outcome &o) const
    {
        const QString out = QString::fromUtf8(o.standardOutput);
        const QString size = QStringLiteral("%1 MiB of output").arg(double(o.outputBytes) / (1024 * 1024), 0, 'f', 1);
        if (command.startsWith(QLatin1String("raw-")))
            return out.trimmed();
        if (command == QLatin1String("gui")) {
            const QRegularExpressionMatch rows = AllRows.match(QString::fromUtf8(o.standardErrorTail));
            return QStringLiteral("%1 rows%2")
                .arg(rows.captured(1), rows.captured(1).toLongLong() == m_size ? QString() : QStringLiteral(" -- INCOMPLETE"));
        }
        if (command == QLatin1String("sessions-text")) {
            const qint64 rows = o.markerCount - 1; // the header line
            return QStringLiteral("%1 rows, %2%3").arg(number(rows), size, rows == m_size ? QString() : QStringLiteral(" -- INCOMPLETE"));
        }
        if (command == QLatin1String("check")) {
            // The summary is near the end (the output's middle may be cut).
            static const QRegularExpression summary(QStringLiteral("\"summary\": \\{([^}]*)\\}"));
            const QString counts = summary.match(out).captured(1).simplified();
            return QStringLiteral("exit %1, %2 findings (%3), %4").arg(o.exitCode).arg(number(o.markerCount), counts, size);
        }
        const bool truncated = out.contains(QLatin1String("\"truncated\": true"));
        const qint64 expected = command == QLatin1String("sessions-first") ? 100
            : command == QLatin1String("retained-json")                    ? m_retained
                                                                           : m_size;
        return QStringLiteral("%1 records%2, %3%4")
            .arg(number(o.markerCount), truncated ? QStringLiteral(" (truncated)") : QString(), size,
                 o.markerCount == expected ? QString() : QStringLiteral(" -- INCOMPLETE"));
    }

    void print(const QMap<QString, ProcessSeries> &series) const
    {
        const QMap<QString, QString> titles{
            {QStringLiteral("raw-sess"), QStringLiteral("raw nats.c read of $MQTT_sess")},
            {QStringLiteral("sessions-json"), QStringLiteral("sessions --json --limit 0")},
            {QStringLiteral("sessions-text"), QStringLiteral("sessions --limit 0")},
            {QStringLiteral("sessions-first"), QStringLiteral("sessions --json (first 100)")},
            {QStringLiteral("check"), QStringLiteral("check --json")},
            {QStringLiteral("raw-rmsgs"), QStringLiteral("raw nats.c read of $MQTT_rmsgs")},
            {QStringLiteral("retained-json"), QStringLiteral("retained --json")},
            {QStringLiteral("gui"), QStringLiteral("GUI: start to all session rows")},
        };
        for (const QString &command : m_settings.commands) {
            const ProcessSeries s = series.value(command);
            const QString title = titles.value(command).leftJustified(34);
            if (s.ms.isEmpty()) {
                std::printf("  %s no figure: %s\n", qPrintable(title), qPrintable(s.failure));
                continue;
            }
            const double ms = ProcessRounds::median(s.ms);
            const double rss = ProcessRounds::median(s.rssMiB);
            const Target target = targetFor(command, m_size);
            QString figures;
            if (!s.ratios.isEmpty())
                figures += QStringLiteral("  x%1 raw").arg(ProcessRounds::median(s.ratios), 0, 'f', 2)
                    + ProcessRounds::verdict(ProcessRounds::median(s.ratios), target.ratio, QStringLiteral("x"));
            figures += ProcessRounds::verdict(ms, target.ms, QStringLiteral("ms"));
            figures +=
                QStringLiteral("  peak RSS %1 MiB").arg(rss, 0, 'f', 1) + ProcessRounds::verdict(rss, target.rssMiB, QStringLiteral("MiB"));
            figures += QStringLiteral("  CPU %1 s").arg(ProcessRounds::median(s.cpuSeconds), 0, 'f', 2);
            ProcessRounds::print(titles.value(command), 34, s, figures);
        }
        std::fflush(stdout);
    }

    Settings m_settings;
    int m_size = 0;
    int m_retained = 0;
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
    settings.versions = option("--server", QStringLiteral("2.9")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &n : option("--sessions", QStringLiteral("100000,1000000")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        settings.sizes << std::max(1, n.toInt());
    settings.retained = option("--retained", QStringLiteral("-1")).toInt();
    settings.runs = std::max(1, option("--runs", QStringLiteral("3")).toInt());
    settings.commands = option("--commands", AllCommands.join(QLatin1Char(','))).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &c : std::as_const(settings.commands))
        if (!AllCommands.contains(c)) {
            std::fprintf(stderr, "unknown command \"%s\" (known: %s)\n", qPrintable(c), qPrintable(AllCommands.join(QLatin1Char(','))));
            return 64;
        }
    settings.serve = args.contains(QStringLiteral("--serve"));
    settings.qos0 = args.contains(QStringLiteral("--qos0"));
    settings.processTimeoutMs = std::max(1, option("--process-timeout", QStringLiteral("900")).toInt()) * 1000;
    for (const QString &program : {QStringLiteral("bench/bigaccount_rawread"), QStringLiteral("bench/fleet_launch"),
                                   QStringLiteral("bin/nats-mqtt-doctor-cli"), QStringLiteral("bin/nats-mqtt-doctor")})
        if (!QFileInfo(binary(program)).isExecutable()) {
            std::fprintf(stderr, "missing %s: build the benchmarks target of this tree\n", qPrintable(binary(program)));
            return 1;
        }
    std::printf("bench_bigaccount: whole processes, wall time from spawn to exit (GUI: to its 'sessions complete' line), medians "
                "of %d runs; peak RSS from wait4 in a small launcher (GUI: VmHWM when all rows are in)\n",
                settings.runs);
    std::printf("targets: every CLI command <= 1.5 x the raw read of its stream (the first 100 <= 100 ms); streaming commands <= "
                "150 MiB at 1,000,000 records; check <= 2 x raw and <= 300 MiB at 100,000; GUI <= 1.2 GiB at 1,000,000\n");
    std::fflush(stdout);
    int rc = 0;
    BigAccountBench bench(settings);
    for (const QString &version : std::as_const(settings.versions))
        for (const int size : std::as_const(settings.sizes))
            if (!bench.runSize(version.trimmed(), size))
                rc = 1;
    return rc;
}
