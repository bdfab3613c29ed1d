#include "checkhistory.h"

#include <QDir>
#include <QFileInfo>

#include "clicontext.h"
#include "common/duration.h"
#include "history/checkrecord.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyquery.h"
#include "history/historyrecorder.h"
#include "nats/connectionoptions.h"
#include "nats/connectionset.h"

namespace MqttDoctor::Cli {

QCommandLineOption CheckHistory::folderOption()
{
    return QCommandLineOption(QStringLiteral("history-dir"),
                              QStringLiteral("The folder of the history databases (default: %1).")
                                  .arg(QDir::toNativeSeparators(HistoryLocation::defaultFolder())),
                              QStringLiteral("folder"));
}

QList<QCommandLineOption> CheckHistory::options()
{
    return {QCommandLineOption(QStringLiteral("record"),
                               QStringLiteral("Also write what the check saw into the cluster's local history (findings with first "
                                              "and last seen, counts, what changed since the last recorded check): see history and "
                                              "changes.")),
            folderOption()};
}

QString CheckHistory::folder(const CliContext &ctx)
{
    QString given = ctx.parser.value(QStringLiteral("history-dir"));
    if (given.isEmpty()) {
        if (ctx.connections)
            given = ctx.connections->profile().historyDir;
        else if (auto profile = ConnectionOptions::fromParser(ctx.parser).toProfile())
            given = profile->historyDir;
    }
    return HistoryLocation::folder(given);
}

std::optional<QDateTime> CheckHistory::parseWhen(const QString &text, const QDateTime &now)
{
    if (const auto ms = parseAgeMs(text))
        return now.addMSecs(-qint64(*ms));
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    return t.toUTC();
}

Result<CheckHistory::Reading> CheckHistory::openForReading(const CliContext &ctx)
{
    // The URLs the checks were recorded through find the database without connecting.
    QStringList urls;
    if (auto profile = ConnectionOptions::fromParser(ctx.parser).toProfile())
        urls = profile->servers;
    auto path = HistoryLocation::find(folder(ctx), ctx.parser.value(QStringLiteral("cluster")), urls);
    if (!path)
        return path.error();
    auto db = HistoryDatabase::open(*path);
    if (!db && db.error().kind() != Error::Kind::NotFound)
        db = HistoryDatabase::open(*path, HistoryDatabase::Mode::ReadOnly);
    if (!db)
        return db.error();
    Reading out;
    out.cluster = (*db)->meta(QStringLiteral("cluster"));
    if (out.cluster.isEmpty())
        out.cluster = QFileInfo(*path).completeBaseName();
    out.db = std::move(*db);
    return out;
}

bool CheckHistory::wanted(const CliContext &ctx)
{
    return ctx.parser.isSet(QStringLiteral("record"));
}

std::optional<qint64> CheckHistory::parseSize(const QString &text)
{
    static const QList<std::pair<QString, qint64>> units{
        {QStringLiteral("KiB"), qint64(1) << 10}, {QStringLiteral("MiB"), qint64(1) << 20},
        {QStringLiteral("GiB"), qint64(1) << 30}, {QStringLiteral("KB"), 1000},
        {QStringLiteral("MB"), 1000 * 1000},      {QStringLiteral("GB"), 1000 * 1000 * 1000},
    };
    QString number = text.trimmed();
    qint64 unit = 1;
    for (const auto &[suffix, factor] : units)
        if (number.endsWith(suffix, Qt::CaseInsensitive)) {
            number.chop(suffix.size());
            unit = factor;
            break;
        }
    bool ok = false;
    const double value = number.trimmed().toDouble(&ok);
    if (!ok || value <= 0)
        return std::nullopt;
    return qint64(value * double(unit));
}

std::optional<HistoryRecorder::Outcome> CheckHistory::record(CliContext &ctx, const DiagnosisInput &input, const QList<Finding> &findings,
                                                             int exitCode, const QString &source)
{
    const auto warn = [&ctx](const QString &why) {
        ctx.err << "warning: the check was not recorded: " << why << '\n';
        ctx.err.flush();
        return std::nullopt;
    };
    CheckRecord check = CheckRecord::of(input, findings, exitCode, source);
    if (ctx.connections)
        check.urls = ctx.connections->profile().servers;
    if (check.cluster.isEmpty())
        return warn(QStringLiteral("the servers did not say which cluster they are"));
    const QString path = HistoryLocation::databasePath(folder(ctx), check.cluster);
    auto db = HistoryDatabase::open(path);
    if (!db)
        return warn(db.error().toString());
    HistoryRecorder recorder(**db);
    if (ctx.parser.optionNames().contains(QStringLiteral("retention")))
        if (const auto ms = parseAgeMs(ctx.parser.value(QStringLiteral("retention"))))
            recorder.setRetentionDays(std::max(1, int(*ms / 86400000.0)));
    if (ctx.parser.optionNames().contains(QStringLiteral("max-size")))
        if (const auto bytes = parseSize(ctx.parser.value(QStringLiteral("max-size"))))
            recorder.setMaxBytes(*bytes);
    auto outcome = recorder.record(check);
    if (!outcome)
        return warn(outcome.error().toString());
    return *outcome;
}

QHash<QString, AccountSample> CheckHistory::previousSamples(CliContext &ctx)
{
    if (!ctx.connections)
        return {};
    const QString path = HistoryLocation::recordedThrough(folder(ctx), ctx.connections->profile().servers);
    if (path.isEmpty())
        return {};
    auto db = HistoryDatabase::open(path);
    if (!db)
        return {};
    auto samples = HistoryQuery(**db).previousSamples(QDateTime::currentDateTimeUtc(), 3600);
    return samples ? *samples : QHash<QString, AccountSample>();
}

bool CheckHistory::recordEvents(CliContext &ctx, const QString &cluster, const QList<MqttClientEvent> &events)
{
    if (events.isEmpty())
        return true;
    const QString path = HistoryLocation::databasePath(folder(ctx), cluster);
    auto db = HistoryDatabase::open(path);
    auto written = db ? HistoryRecorder(**db).recordEvents(events) : Result<void>(db.error());
    if (!written) {
        ctx.err << "warning: " << events.size() << " client events were not recorded: " << written.error().toString() << '\n';
        ctx.err.flush();
        return false;
    }
    return true;
}

} // namespace MqttDoctor::Cli
