#pragma once

// bench_fleet's measure of a whole process: wall time from spawn to exit (or to a line it prints), peak
// RSS and CPU time as the kernel reports them (wait4). Not a test.

#include <QByteArray>
#include <QMap>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace MqttDoctor::BenchData {

class TimedProcess
{
public:
    struct Outcome
    {
        bool started = false;
        QString error; // why it did not start, or what went wrong while waiting
        bool timedOut = false; // killed by us after the time bound
        int exitCode = -1; // -1 when killed by a signal
        int signal = 0;
        double wallMs = 0; // spawn to exit (run) or spawn to the matching line (runUntilLine)
        qint64 peakRssKiB = 0; // run: ru_maxrss (through the launcher); runUntilLine: VmHWM just before the kill
        double cpuSeconds = 0; // user + system, every thread (until the kill for runUntilLine)
        QByteArray standardOutput; // all of it, or (OutputLimit) its first and last bytes
        qint64 outputBytes = 0; // how many bytes it wrote to standard output
        qint64 markerCount = 0; // OutputLimit: how often the marker occurs in the output
        QByteArray standardErrorTail; // the last 8 KiB
        QString line; // runUntilLine: the matching line, empty when none came

        bool succeeded() const { return started && !timedOut && error.isEmpty() && exitCode == 0; }
        QString describe() const; // "exit 3: <stderr tail>" etc., for the bench's output
    };

    // Runs `program` to its end (killed after timeoutMs), standard output kept in memory. `environment`
    // entries are set on top of this process's environment. With a `launcher` (fleet_launch), the
    // program runs as the launcher's child and its figures are the launcher's report: a child of this
    // (large) process would carry this process's peak RSS in its ru_maxrss.
    static Outcome run(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment, int timeoutMs,
                       const QString &launcher = {});

    // For outputs of a GiB: keeps `keep` bytes of each end of standard output (first, then last, in
    // standardOutput with "\n...\n" between when cut) and counts `marker` over the whole of it.
    struct OutputLimit
    {
        qint64 keep = 64 * 1024;
        QByteArray marker;
    };
    static Outcome run(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment, int timeoutMs,
                       const QString &launcher, const OutputLimit &limit);

    // Starts `program` and waits until a line of its standard error matches `pattern` (or it exits, or
    // timeoutMs pass), reads its VmHWM, then stops it (SIGTERM, SIGKILL after 5 s).
    static Outcome runUntilLine(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment,
                                const QRegularExpression &pattern, int timeoutMs);
};

} // namespace MqttDoctor::BenchData
