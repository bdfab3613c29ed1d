#pragma once

#include <functional>
#include <memory>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QList>
#include <QString>
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
    ExitCouldNotCheck = 3,  ///< could not connect, read or check: any connection or profile error
    ExitUsage = 64,         ///< unknown command or option
};

/** What a command runs with. */
struct CliContext
{
    ConnectionSet *connections; ///< null for commands that need no connection
    const QCommandLineParser &parser;
    bool json = false;
    QTextStream &out;
    QTextStream &err;

    /** Prints the error (text to stderr, or JSON to stdout with --json) and returns ExitCouldNotCheck. */
    int fail(const Error &error) const;
    /**
     * The servers whose view is missing from what the command read (they did not answer, or the
     * JetStream meta group lists them offline), as JSON: `[{"name": ..., "reason": ...}]` (name null
     * when unknown). Empty without a connection.
     */
    QJsonArray unansweredServersJson() const;
    /** The same as "Note: ..." lines for text output; returns how many were printed. */
    int printUnansweredServers() const;
};

/** One CLI command. */
struct Command
{
    QString name;
    QString summary;
    QList<QCommandLineOption> options;  ///< the command's own options
    std::function<int(CliContext &)> run;
    bool needsConnection = true;  ///< false: runs without any server (e.g. explain)
    /**
     * Reads or writes whole streams (sessions, backup, restore, repair): the watchdog allows hours, not
     * seconds; every request still has its own timeout and stream reads stop when the server goes quiet.
     */
    bool longRunning = false;
};

QList<Command> discoveryCommands();

} // namespace MqttDoctor::Cli
