#pragma once

// What bench_sessionload measures of a process: memory, CPU time, page faults. Not a test.

#include <QByteArray>

namespace MqttDoctor::BenchData {

/** A `/proc/self/status` field in KiB (e.g. "VmRSS"); -1 when it cannot be read. */
qint64 statusKiB(const QByteArray &field);
/** Bytes in use on the heap (glibc): per-entry memory without the allocator's and the kernel's rounding. */
qint64 heapBytes();
/** Peak resident size so far (VmHWM), KiB. */
qint64 vmHwmKiB();
/** With MQTTDOCTOR_PERF_CONTROL=<fifo> (perf record -D -1 --control fifo:<fifo>): "enable"/"disable" profiling. */
void perfControl(const char *command);
/** User + system time of this process so far (every thread), in seconds. */
double processCpuSeconds();
/** Minor page faults of this process so far (every thread). */
qint64 processMinorFaults();
/** User + system time of another process (the server), in seconds; 0 when it cannot be read. */
double otherProcessCpuSeconds(qint64 pid);
/**
 * What a first touch of a 4 KiB page the process never used costs on this machine, in microseconds
 * (64 MiB freshly mapped, one byte written per page): kept entries pay it per page, a read that frees
 * what it read does not. Varies between VMs (seen 2.2 and 10 us here).
 */
double pageFaultMicros();

} // namespace MqttDoctor::BenchData
