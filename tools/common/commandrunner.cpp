#include "commandrunner.h"

#include "childprocess.h"

#include <QProcess>
#include <QStandardPaths>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

CommandRunner::Result CommandRunner::run(const QString &program, const QStringList &arguments, int timeoutMs,
                                         const QByteArray &standardInput)
{
    Result result;
    const QString executable = program.contains(u'/') ? program : findExecutable(program);
    if (executable.isEmpty()) {
        result.errorString = u"%1: not found in PATH"_s.arg(program);
        return result;
    }

    QProcess process;
    ChildProcess::prepare(process, false);
    process.start(executable, arguments);
    if (!process.waitForStarted(10000)) {
        result.errorString = u"%1: %2"_s.arg(executable, process.errorString());
        return result;
    }
    result.started = true;
    if (!standardInput.isEmpty())
        process.write(standardInput);
    process.closeWriteChannel();

    if (!process.waitForFinished(timeoutMs)) {
        result.timedOut = true;
        result.errorString = u"%1 did not finish within %2 ms and was killed"_s.arg(executable).arg(timeoutMs);
        process.kill();
        process.waitForFinished(5000);
    }
    result.crashed = !result.timedOut && process.exitStatus() == QProcess::CrashExit;
    result.exitCode = process.exitCode();
    result.standardOutput = process.readAllStandardOutput();
    result.standardError = process.readAllStandardError();
    return result;
}

QString CommandRunner::findExecutable(const QString &name)
{
    QString found = QStandardPaths::findExecutable(name);
    if (found.isEmpty())
        found = QStandardPaths::findExecutable(name, {u"/usr/sbin"_s, u"/sbin"_s});
    return found;
}

} // namespace MqttDoctor::Test
