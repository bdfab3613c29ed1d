#include "natsserverfixture.h"

#include "childprocess.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

constexpr int PollIntervalMs = 25;

QString tail(const QString &text, int lineCount)
{
    QStringList lines = text.split(u'\n');
    while (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    if (lines.size() > lineCount)
        lines = lines.mid(lines.size() - lineCount);
    return lines.join(u'\n');
}

} // namespace

NatsServerFixture::NatsServerFixture() = default;

NatsServerFixture::~NatsServerFixture()
{
    stop();
}

bool NatsServerFixture::start(const QString &versionLabel, const ServerConfig &config, int readyTimeoutMs)
{
    const NatsServerBinary binary = NatsServerBinary::locate(versionLabel);
    if (!binary.isValid())
        return fail(binary.errorString());
    return start(binary, config, readyTimeoutMs);
}

bool NatsServerFixture::start(const NatsServerBinary &binary, const ServerConfig &config, int readyTimeoutMs)
{
    for (int attempt = 1;; ++attempt) {
        if (launch(binary, config) && waitUntilReady(readyTimeoutMs, Readiness::Healthy))
            return true;
        if (attempt == MaxPortRaceAttempts || !lostPortRace())
            return false;
        // The ports `config` leaves at 0 are taken afresh by the next launch.
        qWarning("NatsServerFixture: %s lost a port to another process; starting it on other ports", qPrintable(serverName()));
        stop();
    }
}

bool NatsServerFixture::lostPortRace() const
{
    return !isRunning() && log(m_launchLogOffset).contains(u"address already in use"_s);
}

bool NatsServerFixture::launch(const NatsServerBinary &binary, const ServerConfig &config)
{
    m_errorString.clear();
    if (!binary.isValid())
        return fail(binary.errorString().isEmpty() ? u"no nats-server binary"_s : binary.errorString());
    if (isRunning())
        return fail(u"nats-server %1 is already running"_s.arg(serverName()));

    m_binary = binary;
    m_config = config;
    if (!m_config.assignFreePorts())
        return fail(u"no free loopback ports for nats-server"_s);

    if (!m_directory) {
        m_directory = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/mqttdoctor-nats-XXXXXX"_s);
        if (!m_directory->isValid())
            return fail(u"cannot create a temporary directory: %1"_s.arg(m_directory->errorString()));
        m_directory->setAutoRemove(!qEnvironmentVariableIsSet("MQTTDOCTOR_KEEP_TEST_DIRS"));
    }

    QFile configFile(configFilePath());
    if (!configFile.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || configFile.write(m_config.toConfigText(storeDirectory()).toUtf8()) < 0) {
        return fail(u"cannot write %1: %2"_s.arg(configFilePath(), configFile.errorString()));
    }
    configFile.close();

    m_launchLogOffset = logSize();
    m_process = std::make_unique<QProcess>();
    ChildProcess::prepare(*m_process, true);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(QDir(directory()).filePath(u"stdout.log"_s), QIODevice::Append);
    m_process->setWorkingDirectory(directory());
    m_process->start(m_binary.path(), {u"-c"_s, configFilePath(), u"-l"_s, logFilePath(), u"-D"_s});
    if (!m_process->waitForStarted(10000))
        return fail(u"cannot start %1: %2"_s.arg(m_binary.path(), m_process->errorString()));
    return true;
}

bool NatsServerFixture::waitUntilReady(int timeoutMs, Readiness readiness)
{
    if (!m_process)
        return fail(u"nats-server was never started"_s);
    const QDeadlineTimer deadline(timeoutMs);
    while (!log(m_launchLogOffset).contains(u"Server is ready"_s)) {
        if (!pause(PollIntervalMs))
            return fail(u"nats-server %1 exited before it was ready"_s.arg(serverName()));
        if (deadline.hasExpired())
            return fail(u"nats-server %1 did not log \"Server is ready\" within %2 ms"_s.arg(serverName()).arg(timeoutMs));
    }
    if (readiness == Readiness::LogOnly)
        return true;

    const QByteArray path = readiness == Readiness::Healthy ? "/healthz"_ba : "/healthz?js-enabled-only=true"_ba;
    QByteArray lastAnswer = "no answer"_ba;
    for (;;) {
        const std::optional<HttpProbe::Response> response = monitor(path);
        if (response && response->status == 200)
            return true;
        if (response)
            lastAnswer = QByteArray::number(response->status) + ' ' + response->body.trimmed();
        if (!pause(PollIntervalMs * 4))
            return fail(u"nats-server %1 exited while waiting for %2"_s.arg(serverName(), QString::fromLatin1(path)));
        if (deadline.hasExpired()) {
            return fail(
                u"nats-server %1: %2 did not report healthy within %3 ms (last answer: %4)"_s.arg(serverName(), QString::fromLatin1(path))
                    .arg(timeoutMs)
                    .arg(QString::fromUtf8(lastAnswer)));
        }
    }
}

bool NatsServerFixture::stop(int timeoutMs)
{
    if (!m_process)
        return true;
    bool clean = true;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->terminate(); // SIGTERM: nats-server shuts JetStream down cleanly
        if (!m_process->waitForFinished(timeoutMs)) {
            clean = false;
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    m_process.reset();
    return clean;
}

bool NatsServerFixture::restart(int readyTimeoutMs)
{
    if (!m_process)
        return fail(u"nats-server was never started"_s);
    stop();
    return startAgain(readyTimeoutMs);
}

bool NatsServerFixture::startAgain(int readyTimeoutMs, Readiness readiness)
{
    if (!m_directory)
        return fail(u"nats-server was never started"_s);
    const NatsServerBinary binary = m_binary;
    const ServerConfig config = m_config;
    return launch(binary, config) && waitUntilReady(readyTimeoutMs, readiness);
}

bool NatsServerFixture::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

qint64 NatsServerFixture::processId() const
{
    return isRunning() ? m_process->processId() : 0;
}

QString NatsServerFixture::url() const
{
    const bool tls = m_config.tls() && m_config.tls()->clientListener;
    return u"%1://127.0.0.1:%2"_s.arg(tls ? u"tls"_s : u"nats"_s).arg(clientPort());
}

QString NatsServerFixture::directory() const
{
    return m_directory ? m_directory->path() : QString();
}

QString NatsServerFixture::configFilePath() const
{
    return QDir(directory()).filePath(u"server.conf"_s);
}

QString NatsServerFixture::logFilePath() const
{
    return QDir(directory()).filePath(u"server.log"_s);
}

QString NatsServerFixture::storeDirectory() const
{
    return QDir(directory()).filePath(u"store"_s);
}

QString NatsServerFixture::log(qsizetype from) const
{
    QFile file(logFilePath());
    if (!m_directory || !file.open(QIODevice::ReadOnly))
        return {};
    if (from > 0 && from <= file.size())
        file.seek(from);
    return QString::fromUtf8(file.readAll());
}

qsizetype NatsServerFixture::logSize() const
{
    return m_directory ? qsizetype(QFileInfo(logFilePath()).size()) : 0;
}

QString NatsServerFixture::logTail(int lineCount) const
{
    return tail(log(), lineCount);
}

QStringList NatsServerFixture::logLinesMatching(const QRegularExpression &pattern, qsizetype from) const
{
    QStringList matching;
    const QStringList lines = log(from).split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (pattern.match(line).hasMatch())
            matching << line;
    }
    return matching;
}

QStringList NatsServerFixture::logLinesMatching(const QString &text, qsizetype from) const
{
    return logLinesMatching(QRegularExpression(QRegularExpression::escape(text)), from);
}

bool NatsServerFixture::waitForLog(const QRegularExpression &pattern, int timeoutMs, qsizetype from)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (!logLinesMatching(pattern, from).isEmpty())
            return true;
        if (deadline.hasExpired() || !pause(PollIntervalMs))
            return !logLinesMatching(pattern, from).isEmpty();
    }
}

bool NatsServerFixture::waitForLog(const QString &text, int timeoutMs, qsizetype from)
{
    return waitForLog(QRegularExpression(QRegularExpression::escape(text)), timeoutMs, from);
}

std::optional<HttpProbe::Response> NatsServerFixture::monitor(const QByteArray &pathAndQuery) const
{
    if (httpPort() == 0)
        return std::nullopt;
    return HttpProbe::get(httpPort(), pathAndQuery);
}

bool NatsServerFixture::fail(const QString &message)
{
    m_errorString = message;
    if (m_directory) {
        m_errorString += u"\nconfig: %1%2"_s.arg(
            configFilePath(), m_directory->autoRemove() ? u" (removed at the end; MQTTDOCTOR_KEEP_TEST_DIRS=1 keeps it)"_s : QString());
        if (m_process && m_process->state() == QProcess::NotRunning && m_process->exitStatus() == QProcess::NormalExit)
            m_errorString += u"\nexit code: %1"_s.arg(m_process->exitCode());
        QFile output(QDir(directory()).filePath(u"stdout.log"_s));
        if (output.open(QIODevice::ReadOnly) && output.size() > 0)
            m_errorString += u"\n--- output ---\n"_s + tail(QString::fromUtf8(output.readAll()), 15);
        const QString logText = logTail(30);
        if (!logText.isEmpty())
            m_errorString += u"\n--- log tail (%1) ---\n"_s.arg(logFilePath()) + logText;
    }
    return false;
}

bool NatsServerFixture::pause(int ms)
{
    if (QCoreApplication::instance())
        QCoreApplication::processEvents();
    if (!m_process)
        return false;
    if (m_process->state() == QProcess::NotRunning)
        return false;
    // waitForFinished() doubles as a sleep that notices the exit at once.
    return !m_process->waitForFinished(ms);
}

} // namespace MqttDoctor::Test
