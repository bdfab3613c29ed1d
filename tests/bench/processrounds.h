#pragma once

// The whole-process benches' common part (bench_fleet, bench_bigaccount): several rounds of the same
// commands, each command a timed process, the order reversed every other round (the machine's speed
// drifts over seconds), each figure divided by its baseline's of the same round. Not a test.

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

#include "timedprocess.h"

namespace MqttDoctor::BenchData {

/** One command's rounds. */
struct ProcessSeries
{
    QList<double> ms, rssMiB, cpuSeconds, ratios;
    QString failure; ///< set when a round failed: the command is not run again
    QString content; ///< what its output held (from its first completed round)
    QString extra; ///< anything else the bench keeps from its first completed round
};

class ProcessRounds
{
public:
    struct Hooks
    {
        std::function<TimedProcess::Outcome(const QString &command)> run;
        /** The outcome is a figure (a check's findings are no failure of the command). */
        std::function<bool(const QString &command, const TimedProcess::Outcome &)> completed;
        /** Fills content/extra from the command's first completed round. */
        std::function<void(const QString &command, const TimedProcess::Outcome &, ProcessSeries &)> describe;
        /** The command a command's time is divided by (empty: none). */
        std::function<QString(const QString &command)> baselineOf;
        /** The time a round counts (default: the outcome's wall time). */
        std::function<double(const QString &command, const TimedProcess::Outcome &)> timeOf;
    };

    static QMap<QString, ProcessSeries> run(const QStringList &commands, int rounds, const Hooks &hooks);

    /**
     * "  <title> <median> ms [runs: ...]" (the title padded to `width`); `figures` follows on the line
     * (ratios, RSS, targets: each bench's own), then the series' content, extra and failure lines.
     */
    static void print(const QString &title, int width, const ProcessSeries &series, const QString &figures);
    static double median(QList<double> values);
    /** "1,000,000" */
    static QString thousands(qint64 n);
    /** "120, 118, 131" */
    static QString runsList(const QList<double> &ms);
    /** "  target <= 1.5 x: met" (empty without a target, i.e. target < 0). */
    static QString verdict(double value, double target, const QString &unit);
    /** A program of the bench's own build tree (the bench lives in <tree>/bench): "bin/nats-mqtt-doctor-cli". */
    static QString treeProgram(const QString &relative);
};

/** The benches' short names for the helpers above. */
inline QString number(qint64 n)
{
    return ProcessRounds::thousands(n);
}

inline QString binary(const QString &relative)
{
    return ProcessRounds::treeProgram(relative);
}

/**
 * fleet_launch: every timed run starts through it, so that its peak RSS is its own (a child of the
 * bench would carry the bench's; timedprocess.h).
 */
inline QString launcher()
{
    return binary(QStringLiteral("bench/fleet_launch"));
}

} // namespace MqttDoctor::BenchData
