#pragma once

#include "demooptions.h"
#include "demoscenario.h"
#include "natsserverfixture.h"

#include <QEventLoop>
#include <QObject>
#include <QProcess>

#include <memory>

namespace MqttDoctor::Demo {

class SignalWatcher;

// Starts the demo server, fills it, prints how to connect, runs the command and stops everything
// it started when the command exits, on Ctrl-C/SIGTERM, or at once (no command, no --keep-running).
class DemoRunner : public QObject
{
    Q_OBJECT

public:
    explicit DemoRunner(const DemoOptions &options, QObject *parent = nullptr);
    ~DemoRunner() override;

    int run(); // the exit code: the command's, 128+signal, or 1 on errors

private:
    bool startServer();
    void printBanner() const;
    bool startCommand();
    QStringList substituted(const QStringList &arguments) const;
    QString profilePath() const;
    bool writeProfile() const; // 0600 (DemoScenario::writeProfile); false: said on stderr
    void onCommandFinished(int exitCode, QProcess::ExitStatus status);
    void onTerminationRequested(int signalNumber);
    void shutDown();

    DemoOptions m_options;
    Test::NatsServerFixture m_server;
    SignalWatcher *m_signals = nullptr;
    std::unique_ptr<QProcess> m_command;
    QEventLoop m_loop;
    QList<SeededProblem> m_problems;
    int m_exitCode = 0;
};

} // namespace MqttDoctor::Demo
