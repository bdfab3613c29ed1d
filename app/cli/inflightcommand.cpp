#include "inflightcommand.h"
#include "jsoncontract.h"

#include <QJsonArray>

#include "accountchoice.h"
#include "common/duration.h"
#include "common/jsonstreamwriter.h"
#include "inflighttext.h"
#include "missingstream.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "records/inflightreader.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

int runInflight(CliContext &ctx)
{
    const auto limit = InflightText::limitOption(ctx);
    if (!limit)
        return ctx.usage(limit.error().message());
    std::optional<qint64> olderThanSecs;
    if (ctx.parser.isSet(QStringLiteral("older-than"))) {
        const QString text = ctx.parser.value(QStringLiteral("older-than"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000)
            return ctx.usage(QStringLiteral("--older-than must be a duration of at least 1s, not \"%1\"").arg(text),
                             QStringLiteral("for example 90s, 10m, 12h or 2d"));
        olderThanSecs = qint64(*ms / 1000);
    }
    auto src = AccountChoice::recordAccess(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!src)
        return ctx.fail(src.error());
    InflightReader::Options read;
    read.domain = src->apiDomain;
    read.sessionDomain = src->sessionDomain;
    read.dialect = src->dialect;
    auto inflight = InflightReader::readAccount(src->connection, src->account, read);
    if (!inflight) {
        if (inflight.error().jsErrCode() == JsErrors::StreamNotFound || inflight.error().jsErrCode() == JsErrors::NotEnabledForAccount) {
            std::optional<JsonStreamWriter> json;
            if (ctx.json) {
                json.emplace(ctx.out);
                json->beginObject();
                json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("inflight")));
                json->string(QStringLiteral("account"), src->account);
                json->beginArray(QStringLiteral("sessions"));
                json->endArray();
            }
            const int rc = MissingStream::report(ctx, src->account, MqttLayout::sessionsStream(), QStringLiteral("session records"),
                                                 json ? &*json : nullptr);
            if (json)
                json->finish();
            return rc;
        }
        return ctx.fail(inflight.error());
    }
    AccountInflight shown = olderThanSecs ? inflight->olderThan(inflight->now.addSecs(-*olderThanSecs)) : *inflight;
    if (ctx.json) {
        QJsonObject o = shown.toJson();
        const qsizetype all = shown.sessions.size();
        if (*limit > 0 && all > *limit) {
            QJsonArray cut = o.value(QLatin1String("sessions")).toArray();
            while (cut.size() > *limit)
                cut.removeLast();
            o.insert(QStringLiteral("sessions"), cut);
        }
        o.insert(QStringLiteral("sessions_total"), qint64(all));
        o.insert(QStringLiteral("truncated"), *limit > 0 && all > *limit);
        o.insert(QStringLiteral("older_than_seconds"), olderThanSecs ? QJsonValue(*olderThanSecs) : QJsonValue());
        printJson(ctx.out, JsonContract::stamped(QStringLiteral("inflight"), o));
        return ExitOk;
    }
    if (olderThanSecs)
        ctx.out << "In flight for longer than " << formatAge(*olderThanSecs) << " in account " << src->account << ":\n\n";
    else
        ctx.out << "In flight in account " << src->account << ":\n\n";
    InflightText::printAccount(ctx.out, shown, *limit);
    return ExitOk;
}

} // namespace

QList<Command> inflightCommands()
{
    Command inflight{
        QStringLiteral("inflight"),
        QStringLiteral("What is in flight: sessions with queued messages, QoS 2 messages waiting for PUBREL, PUBRELs waiting for PUBCOMP; "
                       "QoS 2 records whose session is gone."),
        {QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("older-than"),
                            QStringLiteral("Only sessions (and records without a session) with something in flight stored longer ago than "
                                           "this, e.g. 10m, 12h or 2d."),
                            QStringLiteral("duration")),
         QCommandLineOption(QStringLiteral("limit"), QStringLiteral("At most N sessions, oldest first (0: all)."), QStringLiteral("n"),
                            QStringLiteral("100"))},
        runInflight};
    inflight.account = AccountUse::One;
    inflight.needsAccountCredentials = true;
    return {inflight};
}

} // namespace MqttDoctor::Cli
