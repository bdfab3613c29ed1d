#include "checkhistory.h"

#include <QDir>

#include "clicontext.h"
#include "history/checkrecord.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyrecorder.h"
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

bool CheckHistory::wanted(const CliContext &ctx)
{
    return ctx.parser.isSet(QStringLiteral("record"));
}

bool CheckHistory::record(CliContext &ctx, const DiagnosisInput &input, const QList<Finding> &findings, int exitCode, const QString &source)
{
    CheckRecord check = CheckRecord::of(input, findings, exitCode, source);
    if (ctx.connections)
        check.urls = ctx.connections->profile().servers;
    if (check.cluster.isEmpty()) {
        ctx.err << "warning: the check was not recorded: the servers did not say which cluster they are\n";
        ctx.err.flush();
        return false;
    }
    const QString path =
        HistoryLocation::databasePath(HistoryLocation::folder(ctx.parser.value(QStringLiteral("history-dir"))), check.cluster);
    auto db = HistoryDatabase::open(path);
    if (!db) {
        ctx.err << "warning: the check was not recorded: " << db.error().toString() << '\n';
        ctx.err.flush();
        return false;
    }
    HistoryRecorder recorder(**db);
    auto outcome = recorder.record(check);
    if (!outcome) {
        ctx.err << "warning: the check was not recorded: " << outcome.error().toString() << '\n';
        ctx.err.flush();
        return false;
    }
    return true;
}

} // namespace MqttDoctor::Cli
