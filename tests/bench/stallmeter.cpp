#include "stallmeter.h"

#include <cstdio>

namespace MqttDoctor::Bench {

SchedTimes SchedTimes::now()
{
    SchedTimes t;
    if (FILE *f = std::fopen("/proc/thread-self/schedstat", "r")) {
        long long run = 0, wait = 0;
        if (std::fscanf(f, "%lld %lld", &run, &wait) == 2)
            t = {run, wait};
        std::fclose(f);
    }
    return t;
}

StallMeter::StallMeter()
{
    m_timer.setInterval(5);
    m_timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
}

void StallMeter::start()
{
    m_longest = 0;
    m_ticks = 0;
    m_long.clear();
    m_last = 0;
    m_sched = SchedTimes::now();
    m_clock.start();
    m_timer.start();
}

void StallMeter::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const SchedTimes sched = SchedTimes::now();
    if (m_last >= 0) {
        m_longest = std::max(m_longest, now - m_last);
        if (now - m_last > 20'000'000)
            m_long.append({m_last / 1'000'000, (now - m_last) / 1'000'000, (sched.running - m_sched.running) / 1'000'000,
                           (sched.waiting - m_sched.waiting) / 1'000'000});
    }
    m_last = now;
    m_sched = sched;
    ++m_ticks;
}

} // namespace MqttDoctor::Bench
