#pragma once

#include <optional>
#include <string>

namespace MqttDoctor::MallocHugePages {

/**
 * Lets glibc's malloc keep a load's memory in transparent huge pages, grown in large steps. A load keeps
 * ~1 KiB per session, ~110 MiB for 100,000, and every 4 KiB page first touched is a page fault: ~2-15 us
 * each on the VMs we measured (bench_sessionload prints it), 0.33 faults per session record and 0.19
 * per retained message with glibc's defaults, 0.004-0.02 with these settings (GLIBC_TUNABLES):
 *   glibc.malloc.hugetlb=1             the heaps are advised MADV_HUGEPAGE as they grow;
 *   glibc.malloc.top_pad=64 MiB        the main heap grows 64 MiB at a time, and a thread's arena (nats.c's
 *                                      reader, the loader's reading thread) starts with 64 MiB usable
 *                                      instead of growing one mprotect() per 4 KiB page;
 *   glibc.malloc.mmap_threshold=32 MiB setting top_pad turns off glibc's adaptive threshold: blocks up to
 *                                      32 MiB (a batch's lists, ~400 KiB) still come from the heap, not
 *                                      from a fresh mapping faulted in each time;
 *   glibc.malloc.trim_threshold=128 MiB memory freed between batches stays for reuse.
 * Peak memory of a 100,000-session load: ~127 -> ~142 MiB (huge pages are resident whole).
 *
 * glibc reads tunables only when a process starts, so applyAtStart() sets GLIBC_TUNABLES and runs the
 * same program again (`/proc/self/exe`, same arguments) once, where that was measured to help: Linux
 * with glibc, the kernel's transparent huge pages in `madvise` mode, no `glibc.malloc.hugetlb` setting
 * of the user's (theirs wins: `=0` turns all of this off; any of the other three they set keeps their
 * value), and not a sanitizer build (its allocator is not glibc's). Nothing happens otherwise, and if
 * the exec fails the program goes on as it is. Call it first thing in main(), before any thread.
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
