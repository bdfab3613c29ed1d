// bench_fleet's launcher: runs PROGRAM as its own child and writes what the kernel counted for it to
// file descriptor 3, as one line: "exit=N signal=N maxrss_kib=N cpu_s=F wall_ms=F".
//
//   fleet_launch PROGRAM [ARGS...]
//
// Why a launcher: a child started straight from the bench inherits the bench's peak RSS in ru_maxrss
// (at exec the kernel records the old address space's high-water mark, and a forked or vforked child's
// old address space is the parent's or a copy of it). The bench holds fleets and parses outputs of many
// MiB; this program stays at about a MiB, so what wait4 reports here is the program's own peak.
// Not a test, and not named bench_*: scripts/run-benchmarks.sh runs every bench_* of the tree.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

double millisecondsSince(const timespec &start)
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return double(now.tv_sec - start.tv_sec) * 1e3 + double(now.tv_nsec - start.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PROGRAM [ARGS...] (figures on descriptor 3)\n", argv[0]);
        return 64;
    }
    // The report channel is ours, not the program's.
    if (fcntl(3, F_SETFD, FD_CLOEXEC) != 0) {
        std::fprintf(stderr, "fleet_launch: descriptor 3 (the report channel) is not open\n");
        return 64;
    }
    const pid_t launcher = getpid();
    timespec start{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("fleet_launch: fork");
        return 70;
    }
    if (pid == 0) {
        // Killed with us: when the bench gives up on a run it kills the launcher.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != launcher)
            _exit(127);
        execv(argv[1], argv + 1);
        std::perror("fleet_launch: exec");
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            std::perror("fleet_launch: wait4");
            return 70;
        }
    }
    const double wallMs = millisecondsSince(start);
    dprintf(3, "exit=%d signal=%d maxrss_kib=%ld cpu_s=%.6f wall_ms=%.3f\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            WIFSIGNALED(status) ? WTERMSIG(status) : 0, usage.ru_maxrss, seconds(usage.ru_utime) + seconds(usage.ru_stime), wallMs);
    return 0;
}
