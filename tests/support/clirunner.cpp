#include "clirunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>

namespace MqttDoctor::Test {

QString CliRunner::path()
{
    // CTest sets MQTTDOCTOR_BINARY_DIR; a test run by hand finds the CLI next to its own build tree.
    const QString binaryDir = qEnvironmentVariable("MQTTDOCTOR_BINARY_DIR");
    if (!binaryDir.isEmpty())
        return binaryDir + QStringLiteral("/bin/nats-mqtt-doctor-cli");
    return QCoreApplication::applicationDirPath() + QStringLiteral("/../bin/nats-mqtt-doctor-cli");
}

CliRunner::Run CliRunner::run(const QStringList &arguments, int timeoutMs)
{
    Run r;
    QElapsedTimer timer;
    timer.start();
    r.process = CommandRunner::run(path(), arguments, timeoutMs);
    r.elapsedMs = timer.elapsed();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.process.standardOutput, &error);
    r.jsonValid = doc.isObject();
    if (r.jsonValid)
        r.json = doc.object();
    return r;
}

QString CliRunner::Run::describe() const
{
    return QStringLiteral("exit %1%2\nstdout:\n%3\nstderr:\n%4")
        .arg(process.exitCode)
        .arg(process.started ? QString() : QStringLiteral(" (did not start: ") + process.errorString + QLatin1Char(')'))
        .arg(out().left(4000), err().left(4000));
}

} // namespace MqttDoctor::Test
