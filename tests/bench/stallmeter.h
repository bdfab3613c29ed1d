#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

namespace MqttDoctor::Bench {

/** The GUI thread's time on a CPU and waiting for one, from the kernel's scheduler statistics (ns). */
struct SchedTimes
{
    qint64 running = 0;
    qint64 waiting = 0;

    static SchedTimes now();
};

/** One long gap: when it began and how long it was, and what the GUI thread did meanwhile (ms). */
struct Gap
{
    qint64 at = 0;
    qint64 length = 0;
    qint64 running = 0; ///< on a CPU: work on the GUI thread
    qint64 waiting = 0; ///< runnable but without a CPU: the machine was busy elsewhere
};

/**
 * The longest gap between ticks of a 5 ms timer: how long the GUI thread could not react. Gaps over
 * 20 ms are listed with the GUI thread's CPU time and its wait for a CPU during them, which tells work
 * on the GUI thread from a machine too busy to run it (this VM's 2 cores are shared). GUI thread only.
 */
class StallMeter final : public QObject
{
public:
    StallMeter();

    /** Starts measuring; the first gap counts from here (a synchronous action right after it is a stall). */
    void start();
    void stop() { m_timer.stop(); }
    double longestMs() const { return double(m_longest) / 1e6; }
    qint64 ticks() const { return m_ticks; }
    /** Gaps over 20 ms. */
    QList<Gap> longGaps() const { return m_long; }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    qint64 m_longest = 0;
    qint64 m_ticks = 0;
    SchedTimes m_sched;
    QList<Gap> m_long;
};

} // namespace MqttDoctor::Bench
