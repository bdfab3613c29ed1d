#pragma once

#include <optional>

#include <QString>

#include "diagnosis/finding.h"

#include "clicontext.h"

namespace MqttDoctor {
class JsonStreamWriter;
struct AccountSnapshot;
} // namespace MqttDoctor

namespace MqttDoctor::Cli {

/**
 * What a record command says when the MQTT stream it reads does not exist: missing is not empty. It
 * names the finding that explains the absence (STREAM_MISSING, or the blocker that keeps the servers
 * from creating the stream) and returns the exit code `check` would give for it.
 */
class MissingStream
{
public:
    /**
     * `stream` of the snapshot's account does not exist. With `json`, writes the member `stream_missing`
     * ({"stream", "finding"}) into the object being written (the caller finishes it); in text, says so
     * in place of "No ..." (`what`: "session records", "retained messages"). Returns the exit code.
     */
    static int report(CliContext &ctx, const AccountSnapshot &snapshot, const QString &stream, const QString &what, JsonStreamWriter *json);
    /** The same for a command that has no snapshot yet: the account's streams are read (no records). */
    static int report(CliContext &ctx, const QString &account, const QString &stream, const QString &what, JsonStreamWriter *json);
    /** The finding that explains why `stream` of `account` is missing (its streams read, no records); nullopt: none, or unreadable. */
    static std::optional<Finding> why(CliContext &ctx, const QString &account, const QString &stream);
    /** report() with the explanation given. */
    static int print(CliContext &ctx, const QString &account, const QString &stream, const QString &what, const std::optional<Finding> &why,
                     JsonStreamWriter *json);
};

} // namespace MqttDoctor::Cli
