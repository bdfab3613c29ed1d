#include "demorunner.h"

#include "demoscenario.h"
#include "signalwatcher.h"

#include "childprocess.h"
#include "mqttclient.h"
#include "natsserverbinary.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcessEnvironment>
#include <QTextStream>

#include <csignal>
#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Demo {

namespace {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

// A sibling executable in our bin directory, as a path relative to the current directory if shorter.
QString siblingCommand(const QString &name)
{
    const QString absolute = QDir(QCoreApplication::applicationDirPath()).filePath(name);
    const QString relative = QDir::current().relativeFilePath(absolute);
    return relative.startsWith(u"../../"_s) ? absolute : relative;
}

} // namespace

DemoRunner::DemoRunner(const DemoOptions &options, QObject *parent)
    : QObject(parent), m_options(options), m_signals(new SignalWatcher(this))
{
    connect(m_signals, &SignalWatcher::terminationRequested, this, &DemoRunner::onTerminationRequested);
}

DemoRunner::~DemoRunner()
{
    shutDown();
}

int DemoRunner::run()
{
    if (!startServer()) {
        shutDown();
        return SignalWatcher::pendingSignal() ? 128 + SignalWatcher::pendingSignal() : 1;
    }
    printBanner();

    if (const int signalNumber = SignalWatcher::pendingSignal()) {
        onTerminationRequested(signalNumber);
        return m_exitCode;
    }
    if (!m_options.command().isEmpty()) {
        if (!startCommand()) {
            shutDown();
            return 127;
        }
    } else if (!m_options.keepRunning()) {
        out() << u"\nNo command given and no --keep-running: stopping the demo server.\n"_s;
        out().flush();
        shutDown();
        return 0;
    } else {
        out() << u"\nRunning until Ctrl-C.\n"_s;
        out().flush();
    }
    m_loop.exec();
    shutDown();
    return m_exitCode;
}

bool DemoRunner::startServer()
{
    if (const QString missing = Test::MqttClient::missingTools(); !missing.isEmpty()) {
        err() << missing << u"\n"_s;
        return false;
    }
    QString label = m_options.serverVersion();
    if (label.isEmpty())
        label = Test::NatsServerBinary::locate(u"newest"_s).isValid() ? u"newest"_s : u"2.9"_s;
    const Test::NatsServerBinary binary = Test::NatsServerBinary::locate(label);
    if (!binary.isValid()) {
        err() << binary.errorString() << u"\n"_s;
        return false;
    }

    out() << u"Starting nats-server %1 (%2) ...\n"_s.arg(binary.version(), binary.path());
    out().flush();
    if (!m_server.start(binary, DemoScenario::serverConfig())) {
        err() << u"nats-server did not start: "_s << m_server.errorString() << u"\n"_s;
        return false;
    }
    out() << u"Creating MQTT state with mosquitto clients ...\n"_s;
    out().flush();
    DemoScenario scenario;
    if (!scenario.populate(m_server, [] { return SignalWatcher::pendingSignal() != 0; })) {
        err() << u"Filling the demo server failed: "_s << scenario.errorString() << u"\n"_s;
        return false;
    }
    for (const QString &line : scenario.summary())
        out() << u"  "_s << line << u"\n"_s;
    m_problems = scenario.problems();
    return writeProfile();
}

void DemoRunner::printBanner() const
{
    const QString url = m_server.url();
    const QString cli = siblingCommand(u"nats-mqtt-doctor-cli"_s);
    out() << u"\nNATS MQTT Doctor demo server is running (nats-server %1, server name %2)\n"_s.arg(m_server.binary().version(),
                                                                                                   m_server.serverName());
    out() << u"  NATS URL:    %1\n"_s.arg(url);
    out() << u"  MQTT:        mqtt://127.0.0.1:%1\n"_s.arg(m_server.mqttPort());
    out() << u"  Monitoring:  http://127.0.0.1:%1\n"_s.arg(m_server.httpPort());
    out() << u"  Files:       %1 (server.conf, server.log, store/)\n"_s.arg(QDir::toNativeSeparators(m_server.directory()));
    out() << u"\nAccounts and users (user / password):\n"_s;
    out() << u"  %1 %2 %3\n"_s.arg(u"SYS"_s, -8).arg(u"sys / syspass"_s, -26).arg(u"system account"_s);
    for (const DemoAccount &account : DemoScenario::accounts())
        out()
            << u"  %1 %2 %3\n"_s.arg(account.name, -8).arg(u"%1 / %2"_s.arg(account.user, account.password), -26).arg(account.description);
    out() << u"\nSeeded problems (the app shows each as findings of its account; Repair fixes it):\n"_s;
    for (const SeededProblem &problem : m_problems) {
        out() << u"  [%1] %2\n"_s.arg(problem.codes.join(u", "_s), problem.summary);
        if (!problem.serverLog.isEmpty())
            out() << u"      server log: %1\n"_s.arg(problem.serverLog);
    }
    out() << u"\nProfile with all of them (allow_changes on, for the repair wizard): %1\n"_s.arg(QDir::toNativeSeparators(profilePath()));
    out() << u"\nTry:\n"_s;
    out() << u"  %1 --server %2 --system-user sys --system-password syspass accounts\n"_s.arg(cli, url);
    out() << u"  %1 --server %2 --user acme --password acmepass streams\n"_s.arg(cli, url);
    out() << u"  %1 --profile %2 check --all-accounts\n"_s.arg(cli, QDir::toNativeSeparators(profilePath()));
    out() << u"  %1 --profile %2 repair --account OVERLAP\n"_s.arg(cli, QDir::toNativeSeparators(profilePath()));
    out() << u"  %1 --profile %2\n"_s.arg(siblingCommand(u"nats-mqtt-doctor"_s), QDir::toNativeSeparators(profilePath()));
    out() << u"  mosquitto_sub -h 127.0.0.1 -p %1 -u acme -P acmepass -i sensor-sub-1 -c -q 1 -t 'alerts/#' -v\n"_s.arg(
        m_server.mqttPort());
    out().flush();
}

QString DemoRunner::profilePath() const
{
    return m_server.directory() + u"/demo-profile.json"_s;
}

// A profile with every demo user, so the application reads each account through its own API
// (limits, records, retained subject counts) and not only through the system view. Demo passwords only.
bool DemoRunner::writeProfile() const
{
    QString error;
    if (DemoScenario::writeProfile(profilePath(), m_server.url(), &error))
        return true;
    err() << u"Writing the demo profile failed: "_s << error << u"\n"_s;
    return false;
}

QStringList DemoRunner::substituted(const QStringList &arguments) const
{
    QStringList result;
    for (QString argument : arguments) {
        argument.replace(u"{url}"_s, m_server.url());
        argument.replace(u"{profile}"_s, profilePath());
        argument.replace(u"{mqtt-port}"_s, QString::number(m_server.mqttPort()));
        argument.replace(u"{http-port}"_s, QString::number(m_server.httpPort()));
        result << argument;
    }
    return result;
}

bool DemoRunner::startCommand()
{
    const QStringList command = substituted(m_options.command());
    out() << u"\nRunning: %1\n\n"_s.arg(command.join(u' '));
    out().flush();

    m_command = std::make_unique<QProcess>();
    Test::ChildProcess::prepare(*m_command, false); // stays in our process group: Ctrl-C reaches it too
    m_command->setProcessChannelMode(QProcess::ForwardedChannels);
    m_command->setInputChannelMode(QProcess::ForwardedInputChannel);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"MQTTDOCTOR_DEMO_URL"_s, m_server.url());
    environment.insert(u"MQTTDOCTOR_DEMO_MQTT_PORT"_s, QString::number(m_server.mqttPort()));
    m_command->setProcessEnvironment(environment);
    connect(m_command.get(), &QProcess::finished, this, &DemoRunner::onCommandFinished);
    m_command->start(command.constFirst(), command.mid(1));
    if (!m_command->waitForStarted(10000)) {
        err() << u"Cannot run %1: %2\n"_s.arg(command.constFirst(), m_command->errorString());
        m_command.reset();
        return false;
    }
    return true;
}

void DemoRunner::onCommandFinished(int exitCode, QProcess::ExitStatus status)
{
    m_exitCode = status == QProcess::NormalExit ? exitCode : 128 + SIGTERM;
    out() << u"\nCommand finished (%1).\n"_s.arg(status == QProcess::NormalExit ? u"exit code %1"_s.arg(exitCode) : u"crashed"_s);
    out().flush();
    if (m_options.keepRunning()) {
        out() << u"--keep-running: the server keeps running until Ctrl-C.\n"_s;
        out().flush();
        return;
    }
    m_loop.quit();
}

void DemoRunner::onTerminationRequested(int signalNumber)
{
    out() << u"\nSignal %1 received, stopping.\n"_s.arg(signalNumber);
    out().flush();
    m_exitCode = 128 + signalNumber;
    m_loop.quit();
}

void DemoRunner::shutDown()
{
    if (m_command && m_command->state() != QProcess::NotRunning) {
        disconnect(m_command.get(), nullptr, this, nullptr);
        // Ctrl-C already reached it (same process group); give it a moment, then insist.
        if (!m_command->waitForFinished(3000)) {
            m_command->terminate();
            if (!m_command->waitForFinished(5000))
                m_command->kill();
            m_command->waitForFinished(2000);
        }
    }
    m_command.reset();
    if (m_server.isRunning()) {
        m_server.stop();
        out() << u"Stopped nats-server.\n"_s;
        out().flush();
    }
}

} // namespace MqttDoctor::Demo
