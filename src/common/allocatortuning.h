#pragma once

namespace MqttDoctor::AllocatorTuning {

/**
 * Process-wide allocator settings for the loaders, applied once at the start of `main()` before any
 * thread runs: the CLI's, and the benchmark's that measures the loaders as the CLI runs them. Not the
 * GUI's: there the GUI thread would share the one arena's lock with the load's threads, and the
 * longest GUI stall while 100,000 sessions load rose from ~16-25 ms to ~22-52 ms (bench_guiresponsiveness).
 *
 * glibc gives each thread that allocates its own arena. A load allocates on three threads at once
 * (nats.c's socket reader makes each message, the reading thread copies it, a decode worker makes the
 * entries the caller keeps), and a thread's arena grows a page at a time with one mprotect() call per
 * page and is trimmed back page by page when the messages are freed on another thread. One arena
 * for the process grows from the main heap in large steps instead (bench_sessionload compares both:
 * MQTTDOCTOR_BENCH_DEFAULT_ALLOCATOR=1 runs it without; on 100,000 session records the peak memory of
 * the load is about 15 MiB lower and its CPU per record lower).
 *
 * Returns true when applied; false where there is nothing to tune (not glibc) or when the user set
 * glibc's own `glibc.malloc.arena_max` tunable in GLIBC_TUNABLES (theirs wins).
 */
bool applyForLoading();

} // namespace MqttDoctor::AllocatorTuning
