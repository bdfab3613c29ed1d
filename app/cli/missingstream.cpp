#include "missingstream.h"

#include "common/jsonstreamwriter.h"
#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/checks.h"
#include "diagnosis/findingcodes.h"
#include "nats/connectionset.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

int MissingStream::report(CliContext &ctx, const AccountSnapshot &snapshot, const QString &stream, const QString &what,
                          JsonStreamWriter *json)
{
    return print(ctx, snapshot.account.name, stream, what, Checks::whyMissing(snapshot.findings().listed(), snapshot.account.name, stream),
                 json);
}

int MissingStream::print(CliContext &ctx, const QString &account, const QString &stream, const QString &what,
                         const std::optional<Finding> &why, JsonStreamWriter *json)
{
    const int rc = why ? Checks::exitCodeFor({*why}) : ExitOk;
    if (json) {
        json->value(QStringLiteral("stream_missing"),
                    QJsonObject{{QStringLiteral("stream"), stream},
                                {QStringLiteral("finding"), why ? QJsonValue(why->toJson()) : QJsonValue(QJsonValue::Null)}});
        return rc;
    }
    if (why && why->severity == Finding::Severity::Info && why->code == FindingCodes::streamMissing()) {
        ctx.out << "No " << what << ": " << stream << " does not exist in account " << account
                << " yet; the servers create it at the account's first MQTT connect (" << why->code << ", info).\n";
        return rc;
    }
    ctx.out << stream << " does not exist in account " << account << ", so there are no " << what << " to list.\n";
    if (!why) {
        ctx.out << "No finding explains it; run \"check --account " << account << "\".\n";
        return rc;
    }
    ctx.out << "  " << Finding::severityName(why->severity).toUpper() << ' ' << why->code << "  " << why->title << '\n'
            << "  " << why->detail << '\n'
            << "Run \"check --account " << account << "\" for the evidence"
            << (why->repair.isEmpty() ? QStringLiteral(".") : QStringLiteral("; \"repair --account %1\" fixes it.").arg(account)) << '\n';
    return rc;
}

std::optional<Finding> MissingStream::why(CliContext &ctx, const QString &account, const QString &stream)
{
    AccountSnapshotLoader::Options options;
    options.records = false;
    auto snapshot = AccountSnapshotLoader(*ctx.connections).load(account, options);
    if (!snapshot) {
        ctx.err << "note: why " << stream << " is missing could not be checked: " << snapshot.error().toString() << '\n';
        return std::nullopt;
    }
    return Checks::whyMissing(snapshot->findings().listed(), snapshot->account.name, stream);
}

int MissingStream::report(CliContext &ctx, const QString &account, const QString &stream, const QString &what, JsonStreamWriter *json)
{
    return print(ctx, account, stream, what, why(ctx, account, stream), json);
}

} // namespace MqttDoctor::Cli
