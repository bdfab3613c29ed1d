#pragma once

#include "httpprobe.h"
#include "natsserverbinary.h"
#include "serverconfig.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QProcess;
class QTemporaryDir;

namespace MqttDoctor::Test {

// One nats-server process on free loopback ports with its config, log and JetStream store in a
// temporary directory. Started with `-c server.conf -l server.log -D` (debug: MQTT connects are
// logged). The destructor stops the process (SIGTERM, then SIGKILL); the child also gets SIGTERM
// if the test process dies.
//
//     NatsServerFixture server;
//     QVERIFY2(server.start(u"2.9"_s, ServerConfig::standard()), qPrintable(server.errorString()));
class NatsServerFixture
{
public:
    // What waitUntilReady() checks after the log said "Server is ready".
    enum class Readiness {
        LogOnly, // "Server is ready" only
        JetStreamEnabled, // + /healthz?js-enabled-only=true answers 200
        Healthy, // + /healthz answers 200 (meta leader known, streams current)
    };

    static constexpr int DefaultReadyTimeoutMs = 20000;

    NatsServerFixture();
    ~NatsServerFixture();
    NatsServerFixture(const NatsServerFixture &) = delete;
    NatsServerFixture &operator=(const NatsServerFixture &) = delete;

    // Locates the binary for the label ("2.9", "2.10", "newest"), starts it and waits until it is
    // Healthy. False (see errorString(), which includes the log tail) on any problem.
    bool start(const QString &versionLabel, const ServerConfig &config = ServerConfig::standard(),
               int readyTimeoutMs = DefaultReadyTimeoutMs);
    bool start(const NatsServerBinary &binary, const ServerConfig &config, int readyTimeoutMs = DefaultReadyTimeoutMs);

    // Building blocks (used by NatsClusterFixture): start the process without waiting, then wait.
    bool launch(const NatsServerBinary &binary, const ServerConfig &config);
    bool waitUntilReady(int timeoutMs, Readiness readiness = Readiness::Healthy);

    // SIGTERM, then SIGKILL after timeoutMs. True if the server was stopped (or was not running).
    bool stop(int timeoutMs = 10000);
    // Stops and starts again with the same config, ports and store; waits until Healthy.
    bool restart(int readyTimeoutMs = DefaultReadyTimeoutMs);
    // Starts again after stop() (same config, ports and store) and waits until ready.
    bool startAgain(int readyTimeoutMs = DefaultReadyTimeoutMs, Readiness readiness = Readiness::Healthy);

    bool isRunning() const;
    // The last launch ended because a port it was given was taken meanwhile ("address already in use"):
    // free ports are picked before nats-server binds them, and a test running in parallel, or any
    // outgoing connection, may take one in between. Worth a launch on other ports.
    bool lostPortRace() const;
    static constexpr int MaxPortRaceAttempts = 3;
    qint64 processId() const;
    QString errorString() const { return m_errorString; }

    const NatsServerBinary &binary() const { return m_binary; }
    const ServerConfig &config() const { return m_config; } // ports filled in
    QString serverName() const { return m_config.serverName(); }
    QString url() const; // "nats://127.0.0.1:PORT" ("tls://..." if the client listener has TLS)
    quint16 clientPort() const { return m_config.clientPort(); }
    quint16 mqttPort() const { return m_config.mqttPort(); }
    quint16 httpPort() const { return m_config.httpPort(); }

    QString directory() const;
    QString configFilePath() const;
    QString logFilePath() const;
    QString storeDirectory() const; // the server appends "/jetstream" itself

    // The captured log (all runs of this fixture, the server appends). Offsets are byte offsets
    // into the log file: take logSize() before an action to look only at what it logged.
    QString log(qsizetype from = 0) const;
    qsizetype logSize() const;
    QString logTail(int lineCount = 40) const;
    QStringList logLinesMatching(const QRegularExpression &pattern, qsizetype from = 0) const;
    QStringList logLinesMatching(const QString &text, qsizetype from = 0) const;
    // Polls the log until a line matches; false on timeout or if the process has exited.
    bool waitForLog(const QRegularExpression &pattern, int timeoutMs, qsizetype from = 0);
    bool waitForLog(const QString &text, int timeoutMs, qsizetype from = 0);

    // GET on the monitoring port, e.g. "/healthz", "/jsz?accounts=true".
    std::optional<HttpProbe::Response> monitor(const QByteArray &pathAndQuery) const;

private:
    bool fail(const QString &message);
    // Sleeps up to ms while noticing the process exit; false if the process is gone.
    bool pause(int ms);

    NatsServerBinary m_binary;
    ServerConfig m_config;
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<QProcess> m_process;
    qsizetype m_launchLogOffset = 0;
    QString m_errorString;
};

} // namespace MqttDoctor::Test
