#include "thresholdoptions.h"

#include "clicontext.h"
#include "common/duration.h"

namespace MqttDoctor::Cli {

namespace {

bool given(const CliContext &ctx, const QString &name)
{
    return ctx.parser.optionNames().contains(name) && ctx.parser.isSet(name);
}

} // namespace

std::optional<int> parseThresholdOptions(CliContext &ctx, CheckOptions &options)
{
    if (given(ctx, QStringLiteral("stale-after"))) {
        const QString text = ctx.parser.value(QStringLiteral("stale-after"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000)
            return ctx.usage(QStringLiteral("--stale-after must be a duration of at least 1s, not \"%1\"").arg(text),
                             QStringLiteral("for example 30d, 12h or 90m"));
        options.staleAfterSecs = qint64(*ms / 1000);
    }
    if (given(ctx, QStringLiteral("client-id")))
        options.knownClientIds = ctx.parser.values(QStringLiteral("client-id"));
    if (given(ctx, QStringLiteral("pinned-warn-at"))) {
        bool ok = false;
        const qint64 n = ctx.parser.value(QStringLiteral("pinned-warn-at")).toLongLong(&ok);
        if (!ok || n < 0)
            return ctx.usage(QStringLiteral("--pinned-warn-at must be a number of messages, 0 or more"),
                             QStringLiteral("INTEREST_PINNED: an offline session holding more messages than this"));
        options.pinnedWarnAt = n;
    }
    if (given(ctx, QStringLiteral("api-errors-per-minute"))) {
        bool ok = false;
        const qint64 n = ctx.parser.value(QStringLiteral("api-errors-per-minute")).toLongLong(&ok);
        if (!ok || n < 1)
            return ctx.usage(QStringLiteral("--api-errors-per-minute must be a number, 1 or more"),
                             QStringLiteral("JETSTREAM_API_ERRORS: error replies per minute between the two samples"));
        options.apiErrorsPerMinute = n;
    }
    return std::nullopt;
}

} // namespace MqttDoctor::Cli
