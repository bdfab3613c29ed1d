// Bulk session deletion end to end: one nats-server with one account holding N session records
// (~300 B, one QoS 1 subscription each) whose durables exist on `$MQTT_msgs` (interest retention, as the
// servers make it), and two whole processes timed against it, several rounds each:
//   cli  nats-mqtt-doctor-cli delete-sessions --client-id 'client-*' --allow-changes --yes --backup-dir DIR --json
//        (backs up, deletes and verifies every record and the durable it names, 500 sessions a step)
//   raw  deletesessions_raw: the same requests from a plain nats.c program (list with an ordered consumer,
//        then per batch: MSG.GET + CONSUMER.INFO written to a backup file, MSG.DELETE + CONSUMER.DELETE,
//        MSG.GET + CONSUMER.INFO again), pipelined over one reply subscription
// Before each run the records and durables are stored again (not timed) and counted; after it they are
// counted again: a run that leaves any record or durable behind is a failure (a bench that measures a
// no-op is worthless), reported on standard error and in the exit code. Prints each run's figures, the
// medians, the ratio cli/raw (median of the runs' own ratios), sessions per second, peak RSS, the CPU time
// of the process and of nats-server during it, and the targets. Asserts nothing else.
//
// Most of the time is the server's (this VM, nats-server 2.9.10): creating the durables runs at ~600-1,200
// a second (~160 s for 100,000), and CONSUMER.DELETE costs more the more consumers the stream has (~0.8 ms
// each at 5,000, ~5 ms at 100,000), so at 100,000 even the raw program deletes ~200 sessions a second and a
// round (two stores, two runs) takes ~30 min. `--sessions 10000` gives a figure in ~2 min a round.
//
//   bench_deletesessions [--server 2.9|2.10|newest (2.9)] [--sessions N (100000)] [--runs N (3)]
//                        [--commands cli,raw] [--window N (256, the raw program's requests in flight)]
//                        [--batch-size N (500, both)] [--not-seen-for DURATION (the CLI's policy, e.g. 1s: the
//                        bench waits that long after storing)] [--process-timeout S (3600)] [--keep-backups]
//                        [--serve: store the records and durables, print the server's URL and keep it until standard
//                         input ends (to run or profile the commands by hand)]
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>
#include <QThread>
#include <QVersionNumber>

#include <algorithm>
#include <cstdio>

#include "benchdata.h"
#include "natsserverfixture.h"
#include "processfigures.h"
#include "processrounds.h"
#include "timedprocess.h"

using namespace MqttDoctor;
using namespace MqttDoctor::BenchData;
using namespace MqttDoctor::Test;

namespace {

const QString Cli = QStringLiteral("cli");
const QString Raw = QStringLiteral("raw");
const QStringList AllCommands{Cli, Raw};
// Every session of the bench: BenchData::fill names its clients client-00000000, client-00000001, ...
const QString Glob = QStringLiteral("client-*");
// The targets: the CLI end to end, backups included.
constexpr double TargetSessionsPerSecond = 2000;
constexpr double TargetRssMiB = 300;

struct Settings
{
    QString version;
    int sessions = 100000;
    int runs = 3;
    QStringList commands;
    int window = 256;
    int batchSize = 500;
    QString notSeenFor; // empty: the CLI selects by client ID only
    int processTimeoutMs = 0;
    bool keepBackups = false;
    bool serve = false; // store the records and durables, print the server's URL and keep it until standard input ends
};

qint64 directoryBytes(const QString &path, int *files)
{
    qint64 bytes = 0;
    *files = 0;
    QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        bytes += QFileInfo(it.next()).size();
        ++*files;
    }
    return bytes;
}

// "3d", "90s", "1h": seconds (0 when not understood).
int durationSeconds(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)([smhd]?)$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return 0;
    const int n = m.captured(1).toInt();
    const QString unit = m.captured(2);
    return unit == QLatin1String("m") ? n * 60 : unit == QLatin1String("h") ? n * 3600 : unit == QLatin1String("d") ? n * 86400 : n;
}

class DeleteSessionsBench
{
public:
    explicit DeleteSessionsBench(const Settings &settings) : m_settings(settings) {}

    bool run()
    {
        if (!m_server.start(m_settings.version)) {
            std::printf("\n== nats-server %s: cannot start: %s\n", qPrintable(m_settings.version), qPrintable(m_server.errorString()));
            return false;
        }
        m_url = m_server.url().toUtf8();
        // 2.15+ allows 1,000 consumers per stream unless the stream sets more (a limit of its own: no -1).
        if (QVersionNumber::fromString(m_server.binary().version()) >= QVersionNumber(2, 15))
            m_maxConsumers = std::max(m_settings.sessions, 1000);
        std::printf("\n== nats-server %s, account ACME with %s session records (one QoS 1 subscription each, its durable on "
                    "$MQTT_msgs), %d runs per figure\n",
                    qPrintable(m_server.binary().version()), qPrintable(number(m_settings.sessions)), m_settings.runs);
        if (m_maxConsumers > 0)
            std::printf("  $MQTT_msgs made with max_consumers %d (this server's default is 1,000 per stream)\n", m_maxConsumers);
        std::fflush(stdout);
        if (m_settings.serve) {
            if (!fill(m_url, m_settings.sessions, 0) || !createDurables(m_url, m_settings.sessions, 256, m_maxConsumers))
                return false;
            std::printf("  serving at %s (user %s, password %s; system user sys, password syspass) until standard input ends\n",
                        qPrintable(m_server.url()), User, Password);
            std::fflush(stdout);
            while (std::getchar() != EOF) {}
            return true;
        }
        ProcessRounds::Hooks hooks;
        hooks.run = [this](const QString &command) { return runRound(command); };
        hooks.completed = [](const QString &, const TimedProcess::Outcome &o) { return o.succeeded(); };
        hooks.baselineOf = [](const QString &command) { return command == Cli ? Raw : QString(); };
        hooks.describe = [](const QString &command, const TimedProcess::Outcome &o, ProcessSeries &s) {
            if (command == Raw) {
                s.content = QString::fromUtf8(o.standardOutput).trimmed();
                return;
            }
            // Keys in order: "counts" and "exit_code" come after "applied" (a response per step) and may be in the middle
            // of a large output that was not kept.
            static const QRegularExpression counts(QStringLiteral("\"counts\": \\{([^}]*)\\}"));
            const QRegularExpressionMatch m = counts.match(QString::fromUtf8(o.standardOutput));
            s.content = QStringLiteral("%1 MiB of JSON, \"client_id\" %2 times%3")
                            .arg(double(o.outputBytes) / (1024 * 1024), 0, 'f', 1)
                            .arg(number(o.markerCount))
                            .arg(m.hasMatch() ? QStringLiteral(", counts: ") + m.captured(1).simplified() : QString());
        };
        const QMap<QString, ProcessSeries> series = ProcessRounds::run(m_settings.commands, m_settings.runs, hooks);
        print(series);
        return m_failures == 0 && std::all_of(m_settings.commands.cbegin(), m_settings.commands.cend(), [&](const QString &c) {
                   return series.value(c).failure.isEmpty();
               });
    }

private:
    // Stores the records and durables again (not timed), runs `command` (timed), checks that they are gone.
    TimedProcess::Outcome runRound(const QString &command)
    {
        // ProcessRounds runs every command once per round.
        m_round = int(m_calls++ / m_settings.commands.size()) + 1;
        TimedProcess::Outcome failed;
        failed.started = true;
        QElapsedTimer t;
        t.start();
        // (The first round's server has no MQTT streams yet.)
        const SessionCounts before = m_calls > 1 ? sessionCounts(m_url) : SessionCounts{0, 0};
        // A run that stopped half way leaves some behind: the records are purged (the store expects none on each
        // subject), the durables left are created again with the same config (the server accepts that).
        if (before.records != 0 || before.durables != 0) {
            std::printf("  before storing: %lld records, %lld durables left\n", static_cast<long long>(before.records),
                        static_cast<long long>(before.durables));
            if (before.records > 0 && !purgeStream(m_url, "$MQTT_sess")) {
                failed.error = QStringLiteral("cannot purge the records left");
                return failed;
            }
        }
        if (!fill(m_url, m_settings.sessions, 0) || !createDurables(m_url, m_settings.sessions, 256, m_maxConsumers)) {
            failed.error = QStringLiteral("cannot store the records and their durables");
            return failed;
        }
        const SessionCounts stored = sessionCounts(m_url);
        if (stored.records != m_settings.sessions || stored.durables != m_settings.sessions) {
            failed.error = QStringLiteral("stored %1 records and %2 durables, not %3 of each")
                               .arg(stored.records)
                               .arg(stored.durables)
                               .arg(m_settings.sessions);
            return failed;
        }
        if (const int wait = durationSeconds(m_settings.notSeenFor); wait > 0 && command == Cli)
            QThread::sleep(wait + 1);
        std::printf("  run %d %s: stored %s records and durables in %.1f s\n", m_round, qPrintable(command),
                    qPrintable(number(m_settings.sessions)), double(t.elapsed()) / 1000);
        std::fflush(stdout);

        const QString backups = QDir(m_server.directory()).filePath(QStringLiteral("backups-%1-%2").arg(m_round).arg(command));
        QDir().mkpath(backups);
        const double serverCpuBefore = otherProcessCpuSeconds(m_server.processId());
        TimedProcess::Outcome o = command == Cli ? runCli(backups) : runRaw(backups);
        const double serverCpu = otherProcessCpuSeconds(m_server.processId()) - serverCpuBefore;
        int files = 0;
        const qint64 backupBytes = directoryBytes(backups, &files);
        if (!m_settings.keepBackups)
            QDir(backups).removeRecursively();
        const SessionCounts after = sessionCounts(m_url);
        const bool gone = after.records == 0 && after.durables == 0;
        std::printf("  run %d %s: %.0f ms (%.0f sessions/s), peak RSS %.1f MiB, CPU %.2f s (nats-server %.2f s), %s; backups %.1f MiB in "
                    "%d files; after it: %lld records, %lld durables%s\n",
                    m_round, qPrintable(command), o.wallMs, m_settings.sessions / (o.wallMs / 1000), double(o.peakRssKiB) / 1024,
                    o.cpuSeconds, serverCpu, o.succeeded() ? "exit 0" : qPrintable(o.describe()), double(backupBytes) / (1024 * 1024),
                    files, static_cast<long long>(after.records), static_cast<long long>(after.durables), gone ? "" : " -- NOT DELETED");
        std::fflush(stdout);
        if (command == Cli && o.succeeded())
            m_cliOutput = o.standardOutput;
        if (o.succeeded())
            m_serverCpu[command] << serverCpu;
        if (!gone) {
            ++m_failures;
            std::fprintf(stderr,
                         "bench_deletesessions: run %d of %s left %lld records and %lld durables of %d: the figure is not a deletion\n",
                         m_round, qPrintable(command), static_cast<long long>(after.records), static_cast<long long>(after.durables),
                         m_settings.sessions);
            if (o.error.isEmpty())
                o.error = QStringLiteral("%1 records and %2 durables were left").arg(after.records).arg(after.durables);
        } else if (backupBytes == 0 && o.error.isEmpty()) {
            ++m_failures;
            o.error = QStringLiteral("no backup was written");
        }
        return o;
    }

    TimedProcess::Outcome runCli(const QString &backups) const
    {
        QStringList args{QStringLiteral("--server"),
                         m_server.url(),
                         QStringLiteral("--user"),
                         QString::fromLatin1(User),
                         QStringLiteral("--password"),
                         QString::fromLatin1(Password),
                         QStringLiteral("--system-user"),
                         QStringLiteral("sys"),
                         QStringLiteral("--system-password"),
                         QStringLiteral("syspass"),
                         QStringLiteral("--timeout"),
                         QStringLiteral("30s"),
                         QStringLiteral("--json"),
                         QStringLiteral("delete-sessions"),
                         QStringLiteral("--client-id"),
                         Glob,
                         QStringLiteral("--allow-changes"),
                         QStringLiteral("--yes"),
                         QStringLiteral("--backup-dir"),
                         backups,
                         QStringLiteral("--batch-size"),
                         QString::number(m_settings.batchSize)};
        if (!m_settings.notSeenFor.isEmpty())
            args << QStringLiteral("--not-seen-for") << m_settings.notSeenFor;
        // The audit log of the run goes with the server's directory, not into the user's.
        const QString home = QDir(m_server.directory()).filePath(QStringLiteral("cli-home"));
        const QMap<QString, QString> environment{{QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config")},
                                                 {QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data")},
                                                 {QStringLiteral("XDG_STATE_HOME"), home + QStringLiteral("/state")},
                                                 {QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache")}};
        TimedProcess::OutputLimit limit;
        limit.marker = QByteArrayLiteral("\"client_id\"");
        return TimedProcess::run(binary(QStringLiteral("bin/nats-mqtt-doctor-cli")), args, environment, m_settings.processTimeoutMs,
                                 launcher(), limit);
    }

    TimedProcess::Outcome runRaw(const QString &backups) const
    {
        return TimedProcess::run(binary(QStringLiteral("bench/deletesessions_raw")),
                                 {m_server.url(), QString::fromLatin1(User), QString::fromLatin1(Password), backups,
                                  QString::number(m_settings.window), QString::number(m_settings.batchSize), Glob},
                                 {}, m_settings.processTimeoutMs, launcher());
    }

    void print(const QMap<QString, ProcessSeries> &series) const
    {
        const QMap<QString, QString> titles{
            {Raw, QStringLiteral("raw nats.c requests (baseline)")},
            {Cli, QStringLiteral("delete-sessions --json")},
        };
        for (const QString &command : m_settings.commands) {
            const ProcessSeries s = series.value(command);
            const QString title = titles.value(command);
            if (s.ms.isEmpty()) {
                std::printf("  %s no figure: %s\n", qPrintable(title.leftJustified(31)), qPrintable(s.failure));
                continue;
            }
            const double ms = ProcessRounds::median(s.ms);
            const double rss = ProcessRounds::median(s.rssMiB);
            const double rate = m_settings.sessions / (ms / 1000);
            QString figures;
            if (!s.ratios.isEmpty())
                figures += QStringLiteral("  x%1 raw").arg(ProcessRounds::median(s.ratios), 0, 'f', 2);
            figures += QStringLiteral("  %1 sessions/s").arg(number(qRound64(rate)));
            if (command == Cli)
                figures += QStringLiteral("  target >= %1 sessions/s: %2")
                               .arg(number(qRound64(TargetSessionsPerSecond)),
                                    rate >= TargetSessionsPerSecond ? QStringLiteral("met") : QStringLiteral("NOT met"));
            figures += QStringLiteral("  peak RSS %1 MiB").arg(rss, 0, 'f', 1)
                + ProcessRounds::verdict(rss, command == Cli ? TargetRssMiB : -1, QStringLiteral("MiB"));
            figures += QStringLiteral("  CPU %1 s (nats-server %2 s)")
                           .arg(ProcessRounds::median(s.cpuSeconds), 0, 'f', 2)
                           .arg(ProcessRounds::median(m_serverCpu.value(command)), 0, 'f', 2);
            ProcessRounds::print(title, 31, s, figures);
        }
        if (!m_cliOutput.isEmpty())
            std::printf("  the CLI's last output (its start and end): %s\n", m_cliOutput.left(600).simplified().constData());
        std::fflush(stdout);
    }

    Settings m_settings;
    NatsServerFixture m_server;
    QByteArray m_url;
    qsizetype m_calls = 0;
    int m_round = 0;
    int m_maxConsumers = 0; // the max_consumers of $MQTT_msgs (0: the server's default)
    int m_failures = 0;
    QByteArray m_cliOutput;
    QMap<QString, QList<double>> m_serverCpu; // the server's CPU time during each run of a command
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
    settings.version = option("--server", QStringLiteral("2.9"));
    settings.sessions = std::max(1, option("--sessions", QStringLiteral("100000")).toInt());
    settings.runs = std::max(1, option("--runs", QStringLiteral("3")).toInt());
    settings.window = std::max(1, option("--window", QStringLiteral("256")).toInt());
    settings.batchSize = std::max(1, option("--batch-size", QStringLiteral("500")).toInt());
    settings.notSeenFor = option("--not-seen-for", QString());
    settings.keepBackups = args.contains(QStringLiteral("--keep-backups"));
    settings.serve = args.contains(QStringLiteral("--serve"));
    settings.commands = option("--commands", AllCommands.join(QLatin1Char(','))).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &c : std::as_const(settings.commands))
        if (!AllCommands.contains(c)) {
            std::fprintf(stderr, "unknown command \"%s\" (known: %s)\n", qPrintable(c), qPrintable(AllCommands.join(QLatin1Char(','))));
            return 64;
        }
    // The bench waits that long after storing the records.
    if (const int wait = durationSeconds(settings.notSeenFor); !settings.notSeenFor.isEmpty() && (wait == 0 || wait > 600)) {
        std::fprintf(stderr, "--not-seen-for: give seconds or minutes up to 10m (\"5s\", \"2m\"): the bench waits that long\n");
        return 64;
    }
    settings.processTimeoutMs = std::max(1, option("--process-timeout", QStringLiteral("3600")).toInt()) * 1000;
    QStringList programs{QStringLiteral("bench/fleet_launch")};
    if (settings.commands.contains(Raw))
        programs << QStringLiteral("bench/deletesessions_raw");
    if (settings.commands.contains(Cli))
        programs << QStringLiteral("bin/nats-mqtt-doctor-cli");
    for (const QString &program : std::as_const(programs))
        if (!QFileInfo(binary(program)).isExecutable()) {
            std::fprintf(stderr, "missing %s: build the benchmarks target of this tree\n", qPrintable(binary(program)));
            return 1;
        }
    std::printf("bench_deletesessions: whole processes, wall time from spawn to exit, medians of %d runs; peak RSS from wait4 in a small "
                "launcher; the records and durables stored again before every run (not timed) and counted after it\n",
                settings.runs);
    std::printf("targets: delete-sessions >= %s sessions/s end to end, backups included (<= %.0f s for 100,000), peak RSS <= %.0f MiB\n",
                qPrintable(number(qRound64(TargetSessionsPerSecond))), 100000 / TargetSessionsPerSecond, TargetRssMiB);
    std::fflush(stdout);
    DeleteSessionsBench bench(settings);
    return bench.run() ? 0 : 1;
}
