#include "demooptions.h"

#include "natsserverbinary.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Demo {

bool DemoOptions::parse(const QStringList &arguments)
{
    const qsizetype separator = arguments.indexOf(u"--"_s);
    const QStringList own = separator < 0 ? arguments : arguments.mid(0, separator);
    m_command = separator < 0 ? QStringList() : arguments.mid(separator + 1);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Starts a nats-server on free loopback ports with accounts SYS, ACME, BETA and NOJS and real MQTT state\n"
        "(persistent sessions, retained and queued QoS 1 messages, made with mosquitto clients), prints how to\n"
        "connect, then runs COMMAND (if given) and stops everything when it exits or on Ctrl-C.\n"
        "In COMMAND, {url}, {profile} (a profile file with every demo user), {mqtt-port} and {http-port} are replaced, e.g.\n"
        "  nats-mqtt-doctor-demo -- build/bin/nats-mqtt-doctor-cli --server {url} --system-user sys "
        "--system-password syspass accounts"_s);
    parser.addHelpOption();
    const QCommandLineOption versionOption(
        u"server-version"_s,
        u"nats-server to run: %1 (default: newest if fetched, else 2.9)."_s.arg(Test::NatsServerBinary::versionLabels().join(u", "_s)),
        u"label"_s);
    const QCommandLineOption keepRunningOption(u"keep-running"_s, u"Keep the server running until Ctrl-C (also after COMMAND exited)."_s);
    parser.addOption(versionOption);
    parser.addOption(keepRunningOption);
    parser.addPositionalArgument(u"-- COMMAND"_s, u"Command to run against the demo server."_s, u"[-- COMMAND...]"_s);

    if (!parser.parse(own)) {
        QTextStream(stderr) << parser.errorText() << u"\n"_s;
        m_exitCode = 2;
        return false;
    }
    if (parser.isSet(u"help"_s)) {
        QTextStream(stdout) << parser.helpText();
        m_exitCode = 0;
        return false;
    }
    if (!parser.positionalArguments().isEmpty()) {
        QTextStream(stderr) << u"Unexpected argument \"%1\": put the command after \"--\".\n"_s.arg(
            parser.positionalArguments().constFirst());
        m_exitCode = 2;
        return false;
    }
    m_serverVersion = parser.value(versionOption);
    if (!m_serverVersion.isEmpty() && !Test::NatsServerBinary::versionLabels().contains(m_serverVersion)) {
        QTextStream(stderr) << u"Unknown --server-version \"%1\" (known: %2)\n"_s.arg(
            m_serverVersion, Test::NatsServerBinary::versionLabels().join(u", "_s));
        m_exitCode = 2;
        return false;
    }
    m_keepRunning = parser.isSet(keepRunningOption);
    return true;
}

} // namespace MqttDoctor::Demo
