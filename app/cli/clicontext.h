#pragma once

#include <functional>
#include <memory>
#include <optional>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include "common/error.h"

namespace MqttDoctor {
class ConnectionSet;
}

namespace MqttDoctor::Cli {

/** Exit codes (docs/cli.md). */
enum ExitCode {
    ExitOk = 0,
    ExitWarnings = 1,
    ExitErrors = 2,
    ExitCouldNotCheck = 3, ///< could not connect, read or check: any connection, server, file or profile error
    ExitUsage = 64, ///< the command line is wrong: unknown command or option, bad argument or option value
};

/** The exit code of a command that failed with `error`: ExitUsage for usage errors (Error::isUsage()), else ExitCouldNotCheck. */
int exitCodeFor(const Error &error);

/** What a command runs with. */
struct CliContext
{
    ConnectionSet *connections; ///< null for commands that need no connection
    const QCommandLineParser &parser;
    bool json = false;
    QTextStream &out;
    QTextStream &err;

    /**
     * Prints the error (text to stderr, or JSON to stdout with --json) and returns its exit code:
     * ExitUsage for a usage error, ExitCouldNotCheck for any other.
     */
    int fail(const Error &error) const;
    /** fail() with a usage error (kind InvalidInput): an option value or argument the command cannot take. */
    int usage(const QString &message, const QString &hint = {}) const;
    /**
     * The servers whose view is missing from what the command read (they did not answer, or the
     * JetStream meta group lists them offline), as JSON: `[{"name": ..., "reason": ...}]` (name null
     * when unknown). Empty without a connection.
     */
    QJsonArray unansweredServersJson() const;
    /** The same as "Note: ..." lines for text output; returns how many were printed. */
    int printUnansweredServers() const;
};

/** A positional argument of a command, as its help and usage line show it. */
struct CommandArgument
{
    QString name; ///< e.g. CLIENT_ID
    QString description;
    bool optional = false;
    bool repeated = false; ///< any number (the last argument only): `[LINE ...]`
};

/** Which account a command works on. */
enum class AccountUse {
    None, ///< no account (servers, accounts, explain)
    Optional, ///< --account, else the connected user's account or every account (check)
    One, ///< exactly one: --account, or the connected user's account; neither is a usage error
};

/** One CLI command. */
struct Command
{
    QString name;
    QString summary;
    QList<QCommandLineOption> options; ///< the command's own options
    std::function<int(CliContext &)> run;
    bool needsConnection = true; ///< false: runs without any server (e.g. explain)
    /**
     * Reads or writes whole streams (sessions, backup, restore, repair): the watchdog allows hours, not
     * seconds; every request still has its own timeout and stream reads stop when the server goes quiet.
     */
    bool longRunning = false;
    /** Runs until Ctrl-C or its own --duration (events): no watchdog. */
    bool followsUntilStopped = false;
    QList<CommandArgument> arguments = {}; ///< positional arguments; none unless listed
    AccountUse account = AccountUse::None;
    /** With AccountUse::One: the account is read through its own credentials (records, changes), not the system view. */
    bool needsAccountCredentials = false;

    /** "session CLIENT_ID", "explain [LINE ...]": the name with its arguments. */
    QString synopsis() const;
    /** "nats-mqtt-doctor-cli [global options] session CLIENT_ID [options]" */
    QString usageLine() const;
    /**
     * The positional arguments given after the command's name against those it takes: a usage error
     * saying what it takes (and its usage line), or nothing when they fit.
     */
    std::optional<Error> checkArguments(const QStringList &given) const;
};

/** "nats-mqtt-doctor-cli", as help texts and hints name the program. */
QString programName();

QList<Command> discoveryCommands();

} // namespace MqttDoctor::Cli
