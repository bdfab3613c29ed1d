#include "backupcommands.h"
#include "jsoncontract.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include "accountchoice.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairtarget.h"
#include "repair/streambackup.h"
#include "repair/streamrestore.h"
#include "interruptguard.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

// Progress lines on stderr for runs longer than a second, at most one a second.
RepairProgressHandler progressPrinter(QTextStream &err, const QString &what)
{
    auto started = std::make_shared<QElapsedTimer>();
    started->start();
    auto last = std::make_shared<qint64>(0);
    return [&err, what, started, last](const RepairProgress &p) {
        const qint64 now = started->elapsed();
        if (now < 1000 || now - *last < 1000)
            return;
        *last = now;
        err << what << ": " << p.phase << ' ' << p.done;
        if (p.total > 0)
            err << " of " << p.total;
        err << " messages\n";
        err.flush();
    };
}

int runBackup(CliContext &ctx)
{
    BackupRequest request;
    request.stream = ctx.parser.value(QStringLiteral("stream"));
    request.outputPath = ctx.parser.value(QStringLiteral("out"));
    if (request.stream.isEmpty() || request.outputPath.isEmpty()) {
        QStringList missing;
        if (request.stream.isEmpty())
            missing << QStringLiteral("--stream NAME");
        if (request.outputPath.isEmpty())
            missing << QStringLiteral("--out FILE");
        return ctx.usage(QStringLiteral("backup needs %1").arg(missing.join(QStringLiteral(" and "))),
                         QStringLiteral("for example: backup --stream '$MQTT_sess' --out sessions.jsonl"));
    }
    request.subject = ctx.parser.value(QStringLiteral("subject"));
    request.consumers = ctx.parser.values(QStringLiteral("consumer"));
    request.allConsumers = request.consumers.isEmpty();
    request.includeMessages = !ctx.parser.isSet(QStringLiteral("configs-only"));
    request.overwrite = ctx.parser.isSet(QStringLiteral("overwrite"));
    // Said before anything is read, with the option that allows it (the writer refuses it again, race-free).
    if (!request.overwrite && QFileInfo::exists(request.outputPath) && !QFileInfo(request.outputPath).isDir())
        return ctx.fail(Error(Error::Kind::Io, QStringLiteral("%1 already exists").arg(QFileInfo(request.outputPath).absoluteFilePath()),
                              QStringLiteral("choose another file name, or give --overwrite to replace it")));

    auto target = AccountChoice::repairTarget(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!target)
        return ctx.fail(target.error());
    InterruptGuard interrupt;
    BackupOptions options;
    options.cancel = &InterruptGuard::flag(); // no partial backup file; acknowledged publishes stay
    options.progress = progressPrinter(ctx.err, QStringLiteral("backup"));
    auto result = StreamBackup::run(*target, request, options);
    if (!result)
        return ctx.fail(result.error());
    const BackupResult &r = *result;
    if (ctx.json) {
        printJson(ctx.out,
                  QJsonObject{{QStringLiteral("schema"), JsonContract::id(QStringLiteral("backup"))},
                              {QStringLiteral("stream"), r.stream},
                              {QStringLiteral("account"), r.account},
                              {QStringLiteral("file"), r.path},
                              {QStringLiteral("messages"), qint64(r.messages)},
                              {QStringLiteral("bytes"), qint64(r.bytes)},
                              {QStringLiteral("file_bytes"), r.fileBytes},
                              {QStringLiteral("subject_filter"), r.subjectFilter},
                              {QStringLiteral("consumers"), QJsonArray::fromStringList(r.consumers)},
                              {QStringLiteral("read_with"),
                               r.interestRetention ? QStringLiteral("direct_get") : QStringLiteral("ordered_consumer")}});
        return ExitOk;
    }
    ctx.out << "Backed up " << r.messages << " message" << (r.messages == 1 ? "" : "s") << " (" << humanBytes(qint64(r.bytes)) << ") and "
            << r.consumers.size() << " consumer config" << (r.consumers.size() == 1 ? "" : "s") << " of stream " << r.stream;
    if (!r.subjectFilter.isEmpty())
        ctx.out << " on subject " << r.subjectFilter;
    if (!r.account.isEmpty())
        ctx.out << " (account " << r.account << ')';
    ctx.out << "\nFile: " << r.path << " (" << humanBytes(r.fileBytes) << ")\n";
    return ExitOk;
}

QJsonObject restoreJson(const RestoreResult &r)
{
    return QJsonObject{{QStringLiteral("stream"), r.stream},
                       {QStringLiteral("account"), r.account},
                       {QStringLiteral("file"), r.path},
                       {QStringLiteral("subject_filter"), r.subjectFilter},
                       {QStringLiteral("messages"), qint64(r.messages)},
                       {QStringLiteral("restored"), qint64(r.restored)},
                       {QStringLiteral("already_present"), qint64(r.alreadyPresent)},
                       {QStringLiteral("conflicts"), qint64(r.conflicts)},
                       {QStringLiteral("failed"), qint64(r.failed)},
                       {QStringLiteral("headers_stripped"), qint64(r.headersStripped)},
                       {QStringLiteral("stream_created"), r.streamCreated},
                       {QStringLiteral("consumers_created"), QJsonArray::fromStringList(r.consumersCreated)},
                       {QStringLiteral("consumers_existing"), QJsonArray::fromStringList(r.consumersExisting)},
                       {QStringLiteral("consumers_skipped"), QJsonArray::fromStringList(r.consumersSkipped)},
                       {QStringLiteral("failures"), QJsonArray::fromStringList(r.failures)},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings)},
                       {QStringLiteral("dry_run"), r.dryRun},
                       {QStringLiteral("cancelled"), r.cancelled},
                       {QStringLiteral("audit_log"), r.auditPath},
                       {QStringLiteral("audit_error"), r.auditError}};
}

int runRestore(CliContext &ctx)
{
    const QString file = ctx.parser.positionalArguments().value(1); // [0] is the command; exactly one (Command::arguments)
    auto target = AccountChoice::repairTarget(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!target)
        return ctx.fail(target.error());
    InterruptGuard interrupt;
    RestoreOptions options;
    options.merge = ctx.parser.isSet(QStringLiteral("merge"));
    options.dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    options.cancel = &InterruptGuard::flag(); // no partial backup file; acknowledged publishes stay
    options.progress = progressPrinter(ctx.err, QStringLiteral("restore"));
    auto result = StreamRestore::run(*target, file, options);
    if (!result)
        return ctx.fail(result.error());
    const RestoreResult &r = *result;
    const int rc = r.complete() ? ExitOk : ExitErrors;
    if (ctx.json) {
        printJson(ctx.out, JsonContract::stamped(QStringLiteral("restore"), restoreJson(r)));
        return rc;
    }
    const char *verb = r.dryRun ? "Would restore" : "Restored";
    ctx.out << verb << ' ' << r.restored << " of " << r.messages << " message" << (r.messages == 1 ? "" : "s") << " into stream "
            << r.stream;
    if (!r.account.isEmpty())
        ctx.out << " (account " << r.account << ')';
    ctx.out << "\n  already present (skipped): " << r.alreadyPresent << "\n  subject holds another message (kept): " << r.conflicts
            << "\n  failed: " << r.failed << '\n';
    if (r.headersStripped > 0)
        ctx.out << "  published without Nats-Expected-*/Nats-Msg-Id headers: " << r.headersStripped << '\n';
    ctx.out << "Stream: " << (r.streamCreated ? (r.dryRun ? "would be created" : "created from the backup's config") : "existed") << '\n';
    if (!r.consumersCreated.isEmpty())
        ctx.out << "Consumers " << (r.dryRun ? "to create" : "created") << ": " << r.consumersCreated.join(QStringLiteral(", ")) << '\n';
    if (!r.consumersExisting.isEmpty())
        ctx.out << "Consumers already there: " << r.consumersExisting.join(QStringLiteral(", ")) << '\n';
    if (!r.consumersSkipped.isEmpty())
        ctx.out << "Ephemeral consumers not recreated: " << r.consumersSkipped.join(QStringLiteral(", ")) << '\n';
    for (const QString &w : r.warnings)
        ctx.out << "warning: " << w << '\n';
    for (const QString &f : r.failures)
        ctx.out << "failed: " << f << '\n';
    if (r.cancelled)
        ctx.out << "Cancelled: run the same restore again to continue (messages already restored are skipped).\n";
    ctx.out << "File: " << r.path << '\n';
    if (!r.dryRun)
        ctx.out << "Audit log: " << r.auditPath
                << (r.auditError.isEmpty() ? QString() : QStringLiteral(" (not written: ") + r.auditError + QLatin1Char(')')) << '\n';
    return rc;
}

QCommandLineOption accountOption()
{
    return QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                              QStringLiteral("name"));
}

} // namespace

QString auditLogHelpLine()
{
    return QStringLiteral("Audit log of applied changes: ") + AuditLog::defaultPath();
}

QList<Command> backupCommands()
{
    Command backup{
        QStringLiteral("backup"),
        QStringLiteral("Back up a stream (messages, config, consumer configs) to a JSON Lines file."),
        {accountOption(),
         QCommandLineOption(QStringLiteral("stream"), QStringLiteral("The stream to back up (required)."), QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("out"),
                            QStringLiteral("The backup file to write (required; refused if it exists, see --overwrite)."),
                            QStringLiteral("file")),
         QCommandLineOption(QStringLiteral("subject"), QStringLiteral("Only messages on this subject (wildcards allowed)."),
                            QStringLiteral("subject")),
         QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Only this consumer's config (repeatable; default: all)."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("configs-only"), QStringLiteral("The stream and consumer configs, no messages.")),
         QCommandLineOption(QStringLiteral("overwrite"), QStringLiteral("Replace an existing file."))},
        runBackup};
    Command restore{QStringLiteral("restore"),
                    QStringLiteral("Restore a backup file: recreate the stream and consumers, republish messages."),
                    {accountOption(),
                     QCommandLineOption(QStringLiteral("merge"),
                                        QStringLiteral("Also when the stream holds messages the backup lacks (they are kept).")),
                     QCommandLineOption(QStringLiteral("dry-run"), QStringLiteral("Check the file and the stream; change nothing."))},
                    runRestore};
    restore.arguments = {{QStringLiteral("FILE"), QStringLiteral("The backup file (JSON Lines, as backup writes it).")}};
    QList<Command> commands{backup, restore};
    for (Command &c : commands) {
        c.account = AccountUse::One;
        c.needsAccountCredentials = true; // messages are read and written through the account's own connection
    }
    return commands;
}

} // namespace MqttDoctor::Cli
