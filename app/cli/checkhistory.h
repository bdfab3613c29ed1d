#pragma once

#include <memory>
#include <optional>

#include <QCommandLineOption>
#include <QDateTime>
#include <QList>
#include <QString>

#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "history/historydatabase.h"
#include "history/historyrecorder.h"

namespace MqttDoctor::Cli {

struct CliContext;

/**
 * `--record` and `--history-dir` of the commands that check (check, check --watch): writes what one
 * check saw into the cluster's history database. A write that fails (a full disk, a read-only folder)
 * says so on stderr and leaves the check's result and exit code as they are.
 */
class CheckHistory final
{
public:
    /** --record and --history-dir. */
    static QList<QCommandLineOption> options();
    /** --history-dir, the folder alone (the commands that read the history). */
    static QCommandLineOption folderOption();
    /** "1GiB", "500MiB", "200MB", "1048576": bytes; nullopt when it is none of these. */
    static std::optional<qint64> parseSize(const QString &text);
    /** The history folder: --history-dir, else the profile's `history_dir`, else the default. */
    static QString folder(const CliContext &ctx);
    /** "2h" (that long before `now`) or an ISO 8601 time (UTC unless it says); nullopt when it is neither. */
    static std::optional<QDateTime> parseWhen(const QString &text, const QDateTime &now);
    /** A database the history commands read and its cluster's name. */
    struct Reading
    {
        std::unique_ptr<HistoryDatabase> db;
        QString cluster;
    };
    /**
     * The database of --cluster, else the one recorded through the profile's URLs, else the only one in the
     * folder; opened for writing where it may (an older schema is migrated), else read only.
     */
    static Result<Reading> openForReading(const CliContext &ctx);
    /** --record was given. */
    static bool wanted(const CliContext &ctx);
    /** Writes the check (`source`: "cli" or "recorder"); nullopt when it could not (said on stderr). */
    static std::optional<HistoryRecorder::Outcome> record(CliContext &ctx, const DiagnosisInput &input, const QList<Finding> &findings,
                                                          int exitCode, const QString &source = QStringLiteral("cli"));
    /**
     * The last samples recorded through the profile's URLs within the last hour (empty without): a recorded
     * check's two-sample checks compare with them instead of needing --sample-interval.
     */
    static QHash<QString, AccountSample> previousSamples(CliContext &ctx);
    /** Writes client events into `cluster`'s history; false when it could not (said on stderr). */
    static bool recordEvents(CliContext &ctx, const QString &cluster, const QList<MqttClientEvent> &events);
};

} // namespace MqttDoctor::Cli
