// nats-mqtt-doctor-cli: the headless companion. Parses options, builds the profile, runs one command.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <unistd.h>

#include <QCoreApplication>
#include <QSet>
#include <QTextStream>

#include "backupcommands.h"
#include "checkcommand.h"
#include "clicontext.h"
#include "explaincommand.h"
#include "recordcommands.h"
#include "repaircommand.h"
#include "nats/connectionoptions.h"
#include "nats/connectionset.h"
#include "nats/natsconnection.h"
#include "textoutput.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Cli;

namespace {

QList<Command> allCommands()
{
    QList<Command> all = discoveryCommands() + checkCommands() + explainCommands() + recordCommands() + backupCommands() + repairCommands();
    // These read whole streams (100,000s of session records) or write them back.
    const QStringList longRunning{QStringLiteral("check"), QStringLiteral("sessions"), QStringLiteral("retained"),
                                  QStringLiteral("backup"), QStringLiteral("restore"), QStringLiteral("repair")};
    for (Command &c : all)
        c.longRunning = c.longRunning || longRunning.contains(c.name);
    return all;
}

void addCommonOptions(QCommandLineParser &parser)
{
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(QCommandLineOption(QStringLiteral("json"), QStringLiteral("Print one JSON object (docs/cli.md).")));
    ConnectionOptions::addTo(parser);
}

QString overview(const QList<Command> &commands)
{
    QString text = QStringLiteral("Diagnose and repair the JetStream streams that nats-server keeps MQTT state in.\n\nCommands:\n");
    for (const Command &c : commands)
        text += QStringLiteral("  %1  %2\n").arg(c.name.leftJustified(10), c.summary);
    text += QStringLiteral("\nRun \"nats-mqtt-doctor-cli COMMAND --help\" for a command's options.\n"
                           "Exit codes: 0 ok, 1 warnings, 2 errors, 3 could not connect or check, 64 usage.\n")
            + auditLogHelpLine();
    return text;
}

// A last line of defence: no command may hang past its time budget, whatever nats.c does. Commands
// that read or write whole streams get hours; their requests and reads have their own timeouts.
void startWatchdog(int timeoutMs, bool longRunning)
{
    const auto budget = longRunning ? std::chrono::milliseconds(6LL * 3600 * 1000)
                                    : std::chrono::milliseconds(std::max(30000, timeoutMs * 12));
    std::thread([budget] {
        std::this_thread::sleep_for(budget);
        const char msg[] = "error: the command did not finish in time and was stopped\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(ExitCouldNotCheck);
    }).detach();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("nats-mqtt-doctor-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MQTTDOCTOR_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    const QList<Command> commands = allCommands();
    // First pass: every option of every command is known, so the command name is the first positional.
    QCommandLineParser all;
    addCommonOptions(all);
    QSet<QString> seen;
    for (const Command &c : commands) {
        for (const QCommandLineOption &o : c.options) {
            if (!seen.contains(o.names().first()))
                all.addOption(o);
            seen.insert(o.names().first());
        }
    }
    all.setApplicationDescription(overview(commands));
    all.addPositionalArgument(QStringLiteral("command"), QStringLiteral("The command to run."));
    if (!all.parse(app.arguments())) {
        err << "error: " << all.errorText() << "\nRun with --help for usage.\n";
        return ExitUsage;
    }
    if (all.isSet(QStringLiteral("version"))) {
        out << "nats-mqtt-doctor-cli " << QCoreApplication::applicationVersion() << '\n';
        return ExitOk;
    }
    const QStringList positional = all.positionalArguments();
    const Command *command = nullptr;
    if (!positional.isEmpty())
        for (const Command &c : commands)
            if (c.name == positional.first())
                command = &c;
    if (!command) {
        if (positional.isEmpty() || all.isSet(QStringLiteral("help"))) {
            out << all.helpText();
            return positional.isEmpty() && !all.isSet(QStringLiteral("help")) ? ExitUsage : ExitOk;
        }
        err << "error: unknown command \"" << positional.first() << "\"\n\n" << overview(commands) << '\n';
        return ExitUsage;
    }

    // Second pass: only the options this command knows.
    QCommandLineParser parser;
    parser.setApplicationDescription(command->summary);
    addCommonOptions(parser);
    parser.addOptions(command->options);
    parser.addPositionalArgument(command->name, command->summary);
    if (!parser.parse(app.arguments())) {
        err << "error: " << parser.errorText() << "\nRun \"nats-mqtt-doctor-cli " << command->name << " --help\".\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitOk;
    }
    const bool json = parser.isSet(QStringLiteral("json"));

    int rc = ExitOk;
    if (!command->needsConnection) {
        CliContext ctx{nullptr, parser, json, out, err};
        rc = command->run(ctx);
    } else {
        auto profile = ConnectionOptions::fromParser(parser).toProfile();
        if (!profile) {
            printError(json ? out : err, profile.error(), json);
            return ExitCouldNotCheck;
        }
        startWatchdog(profile->timeoutMs, command->longRunning);
        ConnectionSet connections(*profile);
        CliContext ctx{&connections, parser, json, out, err};
        rc = command->run(ctx);
        out.flush();
        err.flush();
    }
    NatsConnection::shutdownLibrary();
    return rc;
}
