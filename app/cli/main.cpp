// nats-mqtt-doctor-cli: the headless companion. Parses options, builds the profile, runs one command.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QSet>
#include <QTextStream>

#include "accountchoice.h"
#include "backupcommands.h"
#include "buildinfo.h"
#include "checkcommand.h"
#include "clicontext.h"
#include "commandtablejson.h"
#include "eventscommand.h"
#include "explaincommand.h"
#include "helptext.h"
#include "inflightcommand.h"
#include "pinnedcommand.h"
#include "recordcommands.h"
#include "actioncommands.h"
#include "historycommands.h"
#include "recordercommand.h"
#include "reportcommand.h"
#include "repaircommand.h"
#include "nats/connectionoptions.h"
#include "nats/connectionset.h"
#include "nats/natsconnection.h"
#include "optionsjson.h"
#include "textoutput.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Cli;

namespace {

QList<Command> allCommands()
{
    QList<Command> all = discoveryCommands() + checkCommands() + explainCommands() + recordCommands() + inflightCommands()
        + pinnedCommands() + backupCommands() + repairCommands() + actionCommands() + eventsCommands() + historyCommands()
        + recorderCommands() + reportCommands();
    // These read whole streams (100,000s of session records) or write them back.
    const QStringList longRunning{QStringLiteral("check"),  QStringLiteral("sessions"), QStringLiteral("retained"),
                                  QStringLiteral("pinned"), QStringLiteral("backup"),   QStringLiteral("restore"),
                                  QStringLiteral("repair")};
    for (Command &c : all)
        c.longRunning = c.longRunning || longRunning.contains(c.name);
    return all;
}

/** The options every command takes: --help, --version, --json and the connection options. */
QList<QCommandLineOption> globalOptions()
{
    QList<QCommandLineOption> list{
        QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                           QStringLiteral("Show this help; after a command, the command's.")),
        QCommandLineOption({QStringLiteral("v"), QStringLiteral("version")},
                           QStringLiteral("Show the version, the git commit it was built from, and the Qt and nats.c versions.")),
        QCommandLineOption(QStringLiteral("json"),
                           QStringLiteral("Print one JSON object on standard output, errors included (docs/cli.md).")),
    };
    list += ConnectionOptions::options();
    list += OptionsJson::helpJsonOption();
    return list;
}

QString overviewFooter()
{
    return QStringLiteral("Run \"%1 COMMAND --help\" for a command's arguments and options.\n"
                          "Exit codes: 0 ok, 1 warnings, 2 errors, 3 could not connect or check, 64 usage.\n")
               .arg(programName())
        + auditLogHelpLine() + QLatin1Char('\n');
}

const QString kDescription = QStringLiteral("Diagnose and repair the JetStream streams that nats-server keeps MQTT state in.");

/** An error before the command ran: text on standard error, or the JSON error object on standard output; its exit code. */
int reportError(QTextStream &out, QTextStream &err, bool json, const Error &error)
{
    printError(json ? out : err, error, json);
    return exitCodeFor(error);
}

Error usage(const QString &message, const QString &hint)
{
    return Error(Error::Kind::InvalidInput, message, hint).asUsage();
}

// A last line of defence: no command may hang past its time budget, whatever nats.c does. Commands
// that read or write whole streams get hours; their requests and reads have their own timeouts.
void startWatchdog(int timeoutMs, bool longRunning)
{
    const qint64 perRequest = 12LL * timeoutMs;
    const auto budget = std::chrono::milliseconds(std::max<qint64>(longRunning ? 6LL * 3600 * 1000 : 30000, perRequest));
    std::thread([budget] {
        std::this_thread::sleep_for(budget);
        const char msg[] = "error: the command did not finish in time and was stopped\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(ExitCouldNotCheck);
    }).detach();
}

// The command is done and its output written: closing the connections (nats.c's threads, a
// connection still half-way through a connect that timed out) must not keep the process, and the
// exit code the command chose, waiting. Seen once in a few hundred runs with a 1 ms timeout: the
// process sat in its teardown after its output.
void guardTeardown(int rc)
{
    std::thread([rc] {
        std::this_thread::sleep_for(std::chrono::seconds(10));
        std::fflush(stdout);
        const char msg[] = "note: closing the connections took more than 10 s; exiting without waiting for them\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(rc);
    }).detach();
}

// Every option of every command (each name once), and the global ones.
void addEveryOption(QCommandLineParser &parser, const QList<QCommandLineOption> &global, const QList<Command> &commands)
{
    parser.addOptions(global);
    QSet<QString> seen;
    for (const Command &c : commands) {
        for (const QCommandLineOption &o : c.options) {
            if (!seen.contains(o.names().first()))
                parser.addOption(o);
            seen.insert(o.names().first());
        }
    }
}

// A command that needs the servers: the profile the options give, the account it needs, the watchdog,
// then the command on its connections. Returns its exit code (or that of the error that kept it from running).
int runConnected(const Command &command, const QCommandLineParser &parser, bool json, QTextStream &out, QTextStream &err)
{
    auto profile = ConnectionOptions::fromParser(parser).toProfile();
    if (!profile)
        return reportError(out, err, json, profile.error());
    if (command.account != AccountUse::None)
        if (auto missing = AccountChoice::missing(command, *profile, parser.value(QStringLiteral("account"))))
            return reportError(out, err, json, *missing);
    // `events` and `check --watch` run until Ctrl-C: every request they make has its own timeout.
    if (!command.followsUntilStopped && !(command.name == QLatin1String("check") && parser.isSet(QStringLiteral("watch"))))
        startWatchdog(profile->timeoutMs, command.longRunning);
    int rc = ExitOk;
    {
        // Closed before the library shuts down.
        ConnectionSet connections(*profile);
        CliContext ctx{&connections, parser, json, out, err};
        rc = command.run(ctx);
        out.flush();
        err.flush();
        guardTeardown(rc);
    }
    NatsConnection::shutdownLibrary();
    return rc;
}

} // namespace

int main(int argc, char *argv[])
{
    // `report --pdf` draws with QtGui: a QGuiApplication on the offscreen platform (no display needed).
    if (reportNeedsGui(argc, argv)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // Without a session (cron, ssh) Qt would warn that XDG_RUNTIME_DIR is not set: a private one of our own.
        if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
            const QByteArray runtime = QFile::encodeName(QDir::tempPath()) + "/nats-mqtt-doctor-runtime-" + QByteArray::number(getuid());
            if (::mkdir(runtime.constData(), 0700) == 0 || errno == EEXIST)
                qputenv("XDG_RUNTIME_DIR", runtime);
        }
    }
    const std::unique_ptr<QCoreApplication> application =
        reportNeedsGui(argc, argv) ? std::make_unique<QGuiApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication &app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("nats-mqtt-doctor-cli"));
    QCoreApplication::setApplicationVersion(BuildInfo::version());
    QTextStream out(stdout);
    QTextStream err(stderr);

    const QList<Command> commands = allCommands();
    const QList<QCommandLineOption> global = globalOptions();
    const HelpText help(global);
    QStringList names;
    for (const Command &c : commands)
        names << c.name;

    // First pass: every option of every command is known, so the command name is the first positional.
    QCommandLineParser all;
    addEveryOption(all, global, commands);
    const bool parsed = all.parse(app.arguments());
    // Known even when the parse failed: the options before and after an unknown one are still read.
    const bool json = all.isSet(QStringLiteral("json"));
    const QStringList positional = all.positionalArguments();
    const Command *command = nullptr;
    if (!positional.isEmpty())
        for (const Command &c : commands)
            if (c.name == positional.first())
                command = &c;
    const QString commandsHint =
        QStringLiteral("the commands are %1; \"%2 --help\" describes them").arg(names.join(QStringLiteral(", ")), programName());
    if (!parsed) {
        const QString hint = command ? QStringLiteral("see \"%1 %2 --help\" for its options").arg(programName(), command->name)
                                     : QStringLiteral("see \"%1 --help\" for the options").arg(programName());
        return reportError(out, err, json, usage(all.errorText(), hint));
    }
    if (all.isSet(QStringLiteral("version"))) {
        out << BuildInfo::versionText(programName());
        return ExitOk;
    }
    if (all.isSet(OptionsJson::helpJsonOption().names().first())) {
        const QJsonObject table = CommandTableJson::describe(kDescription, HelpText::usageLines(), commands, global);
        out << QJsonDocument(table).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (!command) {
        if (!positional.isEmpty())
            return reportError(out, err, json, usage(QStringLiteral("unknown command \"%1\"").arg(positional.first()), commandsHint));
        if (all.isSet(QStringLiteral("help"))) {
            out << help.overview(commands, kDescription, overviewFooter());
            return ExitOk;
        }
        const int rc = reportError(out, err, json, usage(QStringLiteral("no command given"), commandsHint));
        if (!json)
            err << '\n' << help.overview(commands, kDescription, overviewFooter());
        return rc;
    }

    // Second pass: only the options this command knows.
    QCommandLineParser parser;
    parser.addOptions(global);
    parser.addOptions(command->options);
    if (!parser.parse(app.arguments()))
        return reportError(out, err, json,
                           usage(parser.errorText(),
                                 QStringLiteral("%1 takes the options that \"%2 %1 --help\" lists").arg(command->name, programName())));
    if (parser.isSet(QStringLiteral("help"))) {
        out << help.command(*command);
        return ExitOk;
    }
    if (auto wrong = command->checkArguments(parser.positionalArguments().mid(1)))
        return reportError(out, err, json, *wrong);

    if (command->needsConnection)
        return runConnected(*command, parser, json, out, err);
    CliContext ctx{nullptr, parser, json, out, err};
    const int rc = command->run(ctx);
    NatsConnection::shutdownLibrary();
    return rc;
}
