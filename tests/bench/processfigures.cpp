// What bench_sessionload measures of a process (see processfigures.h).
#include "processfigures.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QFile>
#include <QList>
#include <QString>

namespace MqttDoctor::BenchData {

qint64 statusKiB(const QByteArray &field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong();
    return -1;
}

// Bytes in use on the heap (glibc): for per-entry memory without the allocator's and the kernel's rounding.
qint64 heapBytes()
{
    const struct mallinfo2 mi = mallinfo2();
    return qint64(mi.uordblks + mi.hblkhd);
}

qint64 vmHwmKiB()
{
    return statusKiB("VmHWM");
}

// With MQTTDOCTOR_PERF_CONTROL=<fifo> (perf record -D -1 --control fifo:<fifo>), a child profiles only its read.
void perfControl(const char *command)
{
    const QByteArray fifo = qgetenv("MQTTDOCTOR_PERF_CONTROL");
    if (fifo.isEmpty())
        return;
    QFile f(QString::fromLocal8Bit(fifo));
    if (f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        f.write(QByteArray(command) + '\n');
}

// User + system time of this process so far (every thread), in seconds.
double processCpuSeconds()
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    auto secs = [](const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
    return secs(ru.ru_utime) + secs(ru.ru_stime);
}

// Minor page faults of this process so far (every thread).
qint64 processMinorFaults()
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? qint64(ru.ru_minflt) : 0;
}

// User + system time of another process (the server), in seconds; 0 when it cannot be read.
double otherProcessCpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = f.readAll();
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / double(sysconf(_SC_CLK_TCK));
}

double pageFaultMicros()
{
    constexpr size_t Bytes = size_t(64) << 20;
    constexpr size_t Page = 4096;
    QElapsedTimer t;
    t.start();
    void *mapped = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        return 0;
    auto *bytes = static_cast<volatile char *>(mapped);
    for (size_t i = 0; i < Bytes; i += Page)
        bytes[i] = 1;
    const double micros = double(t.nsecsElapsed()) / 1e3 / double(Bytes / Page);
    munmap(mapped, Bytes);
    return micros;
}

} // namespace MqttDoctor::BenchData
