#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Test {

// Runs a short-lived command line tool to completion (or kills it after a timeout).
class CommandRunner
{
public:
    struct Result
    {
        bool started = false;
        bool timedOut = false; // killed by us after the timeout
        bool crashed = false;
        int exitCode = -1;
        QByteArray standardOutput;
        QByteArray standardError;
        QString errorString; // why it did not start, or a note about the timeout

        bool succeeded() const { return started && !timedOut && !crashed && exitCode == 0; }
    };

    // program: a name looked up in PATH, or a path.
    static Result run(const QString &program, const QStringList &arguments, int timeoutMs, const QByteArray &standardInput = {});

    // Full path of an executable in PATH (also tries /usr/sbin and /sbin), empty if absent.
    static QString findExecutable(const QString &name);
};

} // namespace MqttDoctor::Test
