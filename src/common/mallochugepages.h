#pragma once

#include <optional>
#include <string>

namespace MqttDoctor::MallocHugePages {

/**
 * Lets glibc's malloc back the heap with transparent huge pages (its `glibc.malloc.hugetlb=1` tunable:
 * the heap is advised MADV_HUGEPAGE as it grows). A load keeps ~1 KiB per session, ~110 MiB for 100,000,
 * and every 4 KiB page it first touches is a page fault: ~2-11 us each on the VMs we measured, 0.33 faults
 * per session record, against ~0.07 with huge pages (bench_sessionload prints both figures).
 *
 * glibc reads tunables only when a process starts, so applyAtStart() sets GLIBC_TUNABLES and runs the
 * same program again (`/proc/self/exe`, same arguments) once, where that helps: Linux with glibc, the
 * kernel's transparent huge pages in `madvise` mode (with `always` the heap has them already, with
 * `never` the advice does nothing), no `glibc.malloc.hugetlb` setting of the user's (theirs wins: `=0`
 * turns this off), and not a sanitizer build (its allocator is not glibc's). Nothing happens otherwise,
 * and if the exec fails the program goes on as it is. Call it first thing in main(), before any thread.
 * The CLI and the benchmarks use it; the GUI does not (a fault in a huge page may compact memory, and
 * its thread must not stall).
 */
void applyAtStart(char **argv);

/** False in sanitizer builds: applyAtStart() does nothing there. */
bool enabledInThisBuild();

/**
 * The GLIBC_TUNABLES value to run with, or nullopt to leave things as they are: `current` is the
 * variable's value (null: unset), `thpMode` the content of /sys/kernel/mm/transparent_hugepage/enabled
 * (e.g. "always [madvise] never"; empty: unknown). Pure.
 */
std::optional<std::string> tunablesFor(const char *current, const std::string &thpMode);

} // namespace MqttDoctor::MallocHugePages
