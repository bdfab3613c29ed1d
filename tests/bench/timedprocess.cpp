// bench_fleet's measure of a whole process (see timedprocess.h).
#include "timedprocess.h"

#include <QElapsedTimer>
#include <QFile>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace MqttDoctor::BenchData {

namespace {

constexpr qsizetype TailBytes = 8192;

QString systemError(const char *what)
{
    return QStringLiteral("%1: %2").arg(QLatin1String(what), QString::fromLocal8Bit(std::strerror(errno)));
}

class Child
{
public:
    ~Child()
    {
        if (m_pidfd >= 0)
            ::close(m_pidfd);
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }

    // stdoutFd/stderrFd (and reportFd, if any): descriptors the child gets as 1 and 2 (and 3), closed
    // here afterwards.
    bool spawn(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment, int stdoutFd, int stderrFd,
               QString *error, int reportFd = -1)
    {
        std::vector<QByteArray> args{QFile::encodeName(program)};
        for (const QString &a : arguments)
            args.push_back(a.toLocal8Bit());
        std::vector<QByteArray> env;
        for (char **e = environ; *e; ++e) {
            const QByteArray entry(*e);
            if (!environment.contains(QString::fromLocal8Bit(entry.left(entry.indexOf('=')))))
                env.push_back(entry);
        }
        for (auto it = environment.cbegin(); it != environment.cend(); ++it)
            env.push_back(it.key().toLocal8Bit() + '=' + it.value().toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        std::vector<char *> envp;
        for (QByteArray &e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, stdoutFd, 1);
        posix_spawn_file_actions_adddup2(&actions, stderrFd, 2);
        if (reportFd >= 0)
            posix_spawn_file_actions_adddup2(&actions, reportFd, 3);
        m_clock.start();
        const int rc = posix_spawn(&m_pid, argv.front(), &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(stdoutFd);
        ::close(stderrFd);
        if (reportFd >= 0)
            ::close(reportFd);
        if (rc != 0) {
            m_pid = -1;
            *error = QStringLiteral("cannot start %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(rc)));
            return false;
        }
        m_pidfd = int(::syscall(SYS_pidfd_open, m_pid, 0));
        if (m_pidfd < 0) {
            *error = systemError("pidfd_open");
            return false;
        }
        return true;
    }

    double elapsedMs() const { return double(m_clock.nsecsElapsed()) / 1e6; }
    pid_t pid() const { return m_pid; }
    int pidfd() const { return m_pidfd; }

    // Waits until the child exits; false after timeoutMs.
    bool waitForExit(int timeoutMs)
    {
        pollfd p{m_pidfd, POLLIN, 0};
        for (;;) {
            const int n = ::poll(&p, 1, timeoutMs);
            if (n > 0)
                return true;
            if (n == 0)
                return false;
            if (errno != EINTR)
                return false;
        }
    }

    // Collects the exit status and what the kernel counted for the child.
    void reap(TimedProcess::Outcome &o)
    {
        int status = 0;
        rusage ru{};
        if (::wait4(m_pid, &status, 0, &ru) != m_pid) {
            o.error = systemError("wait4");
            return;
        }
        m_reaped = true;
        if (WIFEXITED(status))
            o.exitCode = WEXITSTATUS(status);
        if (WIFSIGNALED(status))
            o.signal = WTERMSIG(status);
        if (o.peakRssKiB == 0)
            o.peakRssKiB = ru.ru_maxrss;
        auto secs = [](const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
        o.cpuSeconds = secs(ru.ru_utime) + secs(ru.ru_stime);
    }

    void stop()
    {
        ::kill(m_pid, SIGTERM);
        if (!waitForExit(5000))
            ::kill(m_pid, SIGKILL);
    }

private:
    pid_t m_pid = -1;
    int m_pidfd = -1;
    bool m_reaped = false;
    QElapsedTimer m_clock;
};

QByteArray readAll(int fd)
{
    QByteArray out;
    ::lseek(fd, 0, SEEK_SET);
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        out.append(buffer, n);
    }
    return out;
}

// Reads the output in blocks: its size, the marker's occurrences, and `keep` bytes of each end.
void scanOutput(int fd, const TimedProcess::OutputLimit &limit, TimedProcess::Outcome &o)
{
    ::lseek(fd, 0, SEEK_SET);
    QByteArray head;
    QByteArray tail;
    QByteArray carry; // the end of the previous block: a marker may straddle two blocks
    std::vector<char> buffer(1 << 20);
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n <= 0)
            break;
        const QByteArray block(buffer.data(), n);
        o.outputBytes += n;
        if (head.size() < limit.keep)
            head.append(block.left(limit.keep - head.size()));
        tail = QByteArray(tail + block).right(limit.keep);
        if (!limit.marker.isEmpty()) {
            const QByteArray window = carry + block;
            qsizetype at = 0;
            while ((at = window.indexOf(limit.marker, at)) >= 0) {
                ++o.markerCount;
                at += limit.marker.size();
            }
            carry = window.right(limit.marker.size() - 1);
        }
    }
    o.standardOutput =
        o.outputBytes <= 2 * limit.keep ? QByteArray(head + tail.right(o.outputBytes - head.size())) : QByteArray(head + "\n...\n" + tail);
}

qint64 vmHwmKiBOf(pid_t pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return 0;
}

} // namespace

QString TimedProcess::Outcome::describe() const
{
    QString lastLines = QString::fromLocal8Bit(standardErrorTail).trimmed();
    lastLines = lastLines.mid(std::max<qsizetype>(0, lastLines.size() - 400)).replace(QLatin1Char('\n'), QStringLiteral(" | "));
    if (!started)
        return error;
    if (!error.isEmpty())
        return error + (lastLines.isEmpty() ? QString() : QStringLiteral(" (stderr: %1)").arg(lastLines));
    if (timedOut)
        return QStringLiteral("did not finish in time and was killed");
    if (signal != 0)
        return QStringLiteral("killed by signal %1").arg(signal);
    return QStringLiteral("exit %1%2").arg(exitCode).arg(lastLines.isEmpty() ? QString() : QStringLiteral(": ") + lastLines);
}

TimedProcess::Outcome TimedProcess::run(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment,
                                        int timeoutMs, const QString &launcher)
{
    return run(program, arguments, environment, timeoutMs, launcher, OutputLimit{-1, {}});
}

TimedProcess::Outcome TimedProcess::run(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment,
                                        int timeoutMs, const QString &launcher, const OutputLimit &limit)
{
    Outcome o;
    // In-memory files: a JSON of many MiB never waits for a reader, and nothing lands on disk.
    const int out = ::memfd_create("stdout", MFD_CLOEXEC);
    const int err = ::memfd_create("stderr", MFD_CLOEXEC);
    const int report = ::memfd_create("report", MFD_CLOEXEC);
    if (out < 0 || err < 0 || report < 0) {
        o.error = systemError("memfd_create");
        for (int fd : {out, err, report})
            if (fd >= 0)
                ::close(fd);
        return o;
    }
    // The child's copies; spawn() closes them here once the child has its own.
    const int outCopy = ::fcntl(out, F_DUPFD_CLOEXEC, 0);
    const int errCopy = ::fcntl(err, F_DUPFD_CLOEXEC, 0);
    const int reportCopy = launcher.isEmpty() ? -1 : ::fcntl(report, F_DUPFD_CLOEXEC, 0);
    const QString started = launcher.isEmpty() ? program : launcher;
    const QStringList startedArguments = launcher.isEmpty() ? arguments : QStringList{program} + arguments;
    Child child;
    if (!child.spawn(started, startedArguments, environment, outCopy, errCopy, &o.error, reportCopy)) {
        ::close(out);
        ::close(err);
        ::close(report);
        return o;
    }
    o.started = true;
    if (!child.waitForExit(timeoutMs)) {
        o.timedOut = true;
        ::kill(child.pid(), SIGKILL);
        child.waitForExit(5000);
    }
    o.wallMs = child.elapsedMs();
    child.reap(o);
    if (limit.keep < 0) {
        o.standardOutput = readAll(out);
        o.outputBytes = o.standardOutput.size();
    } else {
        scanOutput(out, limit, o);
    }
    const QByteArray errors = readAll(err);
    o.standardErrorTail = errors.right(TailBytes);
    if (!launcher.isEmpty() && !o.timedOut && o.error.isEmpty()) {
        // "exit=N signal=N maxrss_kib=N cpu_s=F wall_ms=F": the program's own figures.
        QMap<QByteArray, QByteArray> fields;
        for (const QByteArray &field : readAll(report).trimmed().split(' '))
            fields.insert(field.left(field.indexOf('=')), field.mid(field.indexOf('=') + 1));
        if (o.exitCode != 0 || !fields.contains("wall_ms")) {
            o.error = QStringLiteral("the launcher %1 failed (%2)")
                          .arg(launcher, o.signal ? QStringLiteral("signal %1").arg(o.signal) : QStringLiteral("exit %1").arg(o.exitCode));
        } else {
            o.exitCode = fields.value("exit").toInt();
            o.signal = fields.value("signal").toInt();
            o.peakRssKiB = fields.value("maxrss_kib").toLongLong();
            o.cpuSeconds = fields.value("cpu_s").toDouble();
            o.wallMs = fields.value("wall_ms").toDouble();
        }
    }
    ::close(out);
    ::close(err);
    ::close(report);
    return o;
}

TimedProcess::Outcome TimedProcess::runUntilLine(const QString &program, const QStringList &arguments,
                                                 const QMap<QString, QString> &environment, const QRegularExpression &pattern,
                                                 int timeoutMs)
{
    Outcome o;
    int pipeFds[2] = {-1, -1};
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        o.error = systemError("pipe2");
        return o;
    }
    const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devNull < 0) {
        o.error = systemError("open /dev/null");
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        return o;
    }
    Child child;
    if (!child.spawn(program, arguments, environment, devNull, pipeFds[1], &o.error)) {
        ::close(pipeFds[0]);
        return o;
    }
    o.started = true;
    ::fcntl(pipeFds[0], F_SETFL, O_NONBLOCK);
    QByteArray pending;
    QByteArray tail;
    bool exited = false;
    bool streamOpen = true;
    while (o.line.isEmpty()) {
        const qint64 remaining = qint64(timeoutMs) - qint64(child.elapsedMs());
        if (remaining <= 0) {
            o.timedOut = true;
            break;
        }
        pollfd fds[2] = {{pipeFds[0], short(streamOpen ? POLLIN : 0), 0}, {child.pidfd(), POLLIN, 0}};
        if (::poll(fds, 2, int(remaining)) < 0 && errno != EINTR) {
            o.error = systemError("poll");
            break;
        }
        if ((fds[0].revents & (POLLIN | POLLHUP)) != 0) {
            char buffer[16384];
            ssize_t n = 0;
            while ((n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0) {
                pending.append(buffer, n);
                tail.append(buffer, n);
            }
            if (n == 0)
                streamOpen = false;
            qsizetype end = 0;
            while (o.line.isEmpty() && (end = pending.indexOf('\n')) >= 0) {
                const QString line = QString::fromLocal8Bit(pending.left(end));
                pending.remove(0, end + 1);
                if (pattern.match(line).hasMatch()) {
                    o.wallMs = child.elapsedMs();
                    o.line = line;
                }
            }
        }
        if (o.line.isEmpty() && (fds[1].revents & POLLIN) != 0) {
            exited = true;
            break;
        }
    }
    if (!o.line.isEmpty() || o.timedOut)
        o.peakRssKiB = vmHwmKiBOf(child.pid());
    if (o.timedOut)
        o.wallMs = child.elapsedMs();
    if (!exited)
        child.stop();
    child.waitForExit(5000);
    const qint64 keepPeak = o.peakRssKiB;
    child.reap(o);
    if (keepPeak > 0)
        o.peakRssKiB = keepPeak;
    if (exited && o.line.isEmpty())
        o.error = QStringLiteral("exited (%1) before printing a matching line")
                      .arg(o.signal != 0 ? QStringLiteral("signal %1").arg(o.signal) : QStringLiteral("code %1").arg(o.exitCode));
    else if (!o.line.isEmpty() || o.timedOut) {
        o.exitCode = 0; // stopped by us: its exit status says nothing
        o.signal = 0;
    }
    o.standardErrorTail = tail.right(TailBytes);
    ::close(pipeFds[0]);
    return o;
}

} // namespace MqttDoctor::BenchData
