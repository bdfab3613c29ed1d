// recreate_stream: an MQTT stream whose retention or storage is wrong (JetStream cannot change them in
// place) is backed up (messages and every consumer), deleted, created with the expected config and
// restored (StreamRestore: durable consumers before messages, so interest streams keep them).
//
// Crash safety: a journal next to the backups (<account>-<stream>-recreate.journal.json in the backup
// folder) records the working backup, the config to create and the phase (backed_up, deleted, created,
// restored). A rerun with the same backup folder continues from the journal: a stream that is gone is
// created and restored from the journal's backup; a recreated stream whose restore did not finish is
// restored again (restore skips what is already there).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

#include "diagnosis/findingcodes.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/streamconfigedit.h"
#include "repair/backupfile.h"
#include "repair/repairaction.h"
#include "repair/streambackup.h"
#include "repair/streamrestore.h"

namespace MqttDoctor {

namespace {

namespace S = StreamConfigEdit;

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

/** A file name for the recreate journal and backups: account and stream, made safe for file systems. */
QString recreateFileStem(const QString &account, const QString &stream)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_.-]"));
    QString a = account.isEmpty() ? QStringLiteral("account") : account;
    QString s = stream;
    return a.replace(unsafe, QStringLiteral("_")) + QLatin1Char('-') + s.replace(unsafe, QStringLiteral("_"));
}

QString journalPath(const ExecContext &ctx, const RepairStep &step)
{
    return QDir(ctx.backupDir).filePath(recreateFileStem(step.account, step.stream) + QStringLiteral("-recreate.journal.json"));
}

std::optional<QJsonObject> readJournal(const QString &path, const QString &stream)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
    if (j.value(QLatin1String("stream")).toString() != stream || !QFileInfo::exists(j.value(QLatin1String("backup")).toString()))
        return std::nullopt;
    return j;
}

Result<void> writeJournal(const QString &path, const QJsonObject &journal)
{
    AtomicFileWriter writer(path);
    Result<void> done = writer.open(true);
    if (done)
        done = writer.write(QJsonDocument(journal).toJson());
    if (done)
        done = writer.commit();
    if (!done)
        return Error(Error::Kind::Io, QStringLiteral("cannot write the recreate journal %1: %2").arg(path, done.error().message()));
    return {};
}

/**
 * One recreate of a stream, resumable (see the top): the step, its journal (read from the backup folder, or
 * made by the backup) and the replies so far. Each phase writes the journal when it is done.
 */
struct Recreation
{
    const RepairStep &step;
    const ExecContext &ctx;
    const QString journalFile;
    std::optional<QJsonObject> journal;
    QJsonArray replies;

    /**
     * 1. The working backup (nothing is deleted unless it is complete on disk), whose journal names the config
     * to create (`config` with `changes`); 2. the delete.
     */
    Result<void> backUpAndDelete(const QJsonObject &config, const QJsonObject &changes)
    {
        const QString stem = recreateFileStem(step.account, step.stream);
        const QString backup = freshBackupPath(
            ctx.backupDir, [&stem](const QString &stamp) -> QString { return QStringLiteral("%1-recreate-%2.jsonl").arg(stem, stamp); });
        BackupRequest req;
        req.stream = step.stream;
        req.outputPath = backup;
        BackupOptions bo;
        bo.cancel = ctx.cancel;
        auto b = StreamBackup::run(ctx.target, req, bo);
        if (!b)
            return S::failed(QStringLiteral("backing up %1 before recreating it (nothing was changed)").arg(step.stream), b.error());
        journal = QJsonObject{{key("stream"), step.stream},
                              {key("backup"), b->path},
                              {key("messages"), qint64(b->messages)},
                              {key("consumers"), QJsonArray::fromStringList(b->consumers)},
                              {key("config"), S::withChanges(config, changes)},
                              {key("phase"), key("backed_up")}};
        if (auto w = writeJournal(journalFile, *journal); !w)
            return w.error();
        replies.append(QJsonObject{{key("backup"), b->path},
                                   {key("messages"), qint64(b->messages)},
                                   {key("consumers"), QJsonArray::fromStringList(b->consumers)}});
        auto deleted = ctx.api(QStringLiteral("STREAM.DELETE.") + step.stream);
        if (!deleted && deleted.error().jsErrCode() != JsErrors::StreamNotFound)
            return S::failed(QStringLiteral("deleting %1 (backup %2 holds everything)").arg(step.stream, b->path), deleted.error());
        replies.append(deleted ? *deleted : QJsonObject{{key("already_deleted"), true}});
        journal->insert(key("phase"), key("deleted"));
        return writeJournal(journalFile, *journal);
    }

    /** 3. Create with the journal's config ("already in use": someone created it meanwhile, re-read: it must have the new values). */
    Result<void> create(const QJsonObject &oldValues, const QJsonObject &changes)
    {
        const QJsonObject config = journal->value(QLatin1String("config")).toObject();
        auto created = ctx.api(QStringLiteral("STREAM.CREATE.") + step.stream, config);
        if (!created && !S::isAlreadyInUse(created.error()))
            return S::failed(
                QStringLiteral("creating %1 (restore %2 to undo)").arg(step.stream, journal->value(QLatin1String("backup")).toString()),
                created.error());
        replies.append(created ? *created : QJsonObject{{key("already_exists"), true}});
        auto again = ctx.streamInfo(step.stream);
        if (!again || !again->has_value())
            return Error(Error::Kind::Internal, QStringLiteral("%1 is not there after creating it").arg(step.stream));
        const Precondition p = S::fieldsPrecondition(step.stream, (*again)->value(QLatin1String("config")).toObject(), oldValues, changes);
        if (p.verdict != Precondition::Verdict::AlreadyDone)
            return S::stateChanged(QStringLiteral("%1 was created by someone else with another config: %2").arg(step.stream, p.reason));
        journal->insert(key("phase"), key("created"));
        return writeJournal(journalFile, *journal);
    }

    /** 4. Restore consumers, then messages (merge: keeps what arrived meanwhile, skips what is already there). */
    Result<void> restore()
    {
        RestoreOptions ro;
        ro.merge = true;
        ro.cancel = ctx.cancel;
        const QString backup = journal->value(QLatin1String("backup")).toString();
        auto restored = StreamRestore::run(ctx.target, backup, ro);
        if (!restored)
            return S::failed(QStringLiteral("restoring %1 into %2").arg(backup, step.stream), restored.error());
        const QJsonObject counts{{key("restored"), qint64(restored->restored)},
                                 {key("already_present"), qint64(restored->alreadyPresent)},
                                 {key("conflicts"), qint64(restored->conflicts)},
                                 {key("failed"), qint64(restored->failed)},
                                 {key("consumers_created"), QJsonArray::fromStringList(restored->consumersCreated)},
                                 {key("consumers_existing"), QJsonArray::fromStringList(restored->consumersExisting)}};
        replies.append(QJsonObject{{key("restore"), backup}, {key("counts"), counts}});
        if (!restored->complete())
            return Error(Error::Kind::Internal,
                         QStringLiteral("restoring %1 into %2: %3 message(s) failed (%4); rerun to continue")
                             .arg(backup, step.stream)
                             .arg(restored->failed)
                             .arg(restored->failures.join(QStringLiteral("; "))));
        journal->insert(key("phase"), key("restored"));
        journal->insert(key("restore"), counts);
        return writeJournal(journalFile, *journal);
    }
};

class RecreateStream final : public RepairAction
{
public:
    QString name() const override { return RepairActions::recreateStream(); }

    QList<RepairStep> plan(const Finding &finding, const PlanContext &ctx, QString *note) const override
    {
        const QJsonObject expected = finding.expected.toObject();
        const StreamInfo *stream = ctx.stream(finding.stream);
        const auto spec = S::feasibleSpec(ctx, finding.stream);
        const bool recreatable = finding.code == FindingCodes::streamConfigWrong() || finding.code == FindingCodes::deliberateDeviation();
        if (!recreatable || !stream || !spec) {
            *note = QStringLiteral("recreate_stream: nothing to do for %1 on %2.").arg(finding.code, finding.stream);
            return {};
        }
        QJsonObject changes = S::inPlaceChanges(*spec, stream->config, ctx.layout.layout.kind());
        for (const QString &f : {key("retention"), key("storage")})
            if (!S::sameValue(f, MqttStreamSpec::normalizedField(stream->config, f), spec->comparedValues().value(f)))
                changes.insert(f, spec->comparedValues().value(f));
        if (!changes.contains(key("retention")) && !changes.contains(key("storage"))) {
            *note = QStringLiteral("%1: retention and storage are as expected, no recreate needed.").arg(finding.stream);
            return {};
        }
        const QJsonObject old = S::currentValues(stream->config, changes.keys());
        // In a supercluster the stream is created again in the cluster it was in, whichever server the
        // tool is connected to.
        const QString cluster = stream->cluster.value(QLatin1String("name")).toString();
        const QJsonObject target = S::placedIn(S::withChanges(stream->config, changes),
                                               ctx.layout.cluster.isEmpty() ? QString()
                                                   : cluster.isEmpty()      ? ctx.layout.cluster
                                                                            : cluster);

        RepairStep s;
        s.action = name();
        s.account = finding.account;
        s.stream = finding.stream;
        s.description = QStringLiteral("Recreate %1 with %2: back up its messages and consumers to the backup folder, delete it, "
                                       "create it with the expected config, restore consumers then messages")
                            .arg(finding.stream, S::renderChanges(old, changes));
        s.requests = {{ctx.apiSubject(QStringLiteral("STREAM.DELETE.") + finding.stream), {}},
                      {ctx.apiSubject(QStringLiteral("STREAM.CREATE.") + finding.stream), target}};
        s.diff = S::renderDiff(old, changes);
        s.destructive = true;
        // The backup is taken by apply() itself, into the backup folder, with the journal that lets a rerun
        // continue after a crash between delete and restore (an executor backup of a stream that is already
        // gone would fail and stop the resumed plan). Its path is in the step's replies ("backup").
        s.precondition = QStringLiteral("%1 still has %2 (already recreated with the new values and restored: done; missing: "
                                        "continued from the journal of an earlier run in the same backup folder)")
                             .arg(finding.stream, S::renderFields(old));
        s.undo = QStringLiteral("delete %1, then restore the backup written before this step (recreates the stream with its old "
                                "config, its consumers and messages)")
                     .arg(finding.stream);
        s.verification = QStringLiteral("STREAM.INFO of %1 shows %2; every backed-up message restored or already present, every "
                                        "durable consumer of the backup exists")
                             .arg(finding.stream, S::renderFields(changes));
        s.params = QJsonObject{{key("old"), old}, {key("new"), changes}, {key("config"), target}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return S::failed(QStringLiteral("reading %1").arg(step.stream), info.error());
        const auto journal = ctx.backupDir.isEmpty() ? std::nullopt : readJournal(journalPath(ctx, step), step.stream);
        if (!info->has_value()) {
            if (journal)
                return Precondition::run();
            return Precondition::changed(QStringLiteral("%1 does not exist and no recreate journal is in %2: restore the backup of "
                                                        "the earlier run by hand")
                                             .arg(step.stream, ctx.backupDir));
        }
        const QJsonObject config = (*info)->value(QLatin1String("config")).toObject();
        const Precondition p = S::fieldsPrecondition(step.stream, config, step.params.value(QLatin1String("old")).toObject(),
                                                     step.params.value(QLatin1String("new")).toObject());
        if (p.verdict == Precondition::Verdict::AlreadyDone && journal
            && journal->value(QLatin1String("phase")).toString() != QLatin1String("restored"))
            return Precondition::run(); // recreated, restore not finished
        return p;
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        if (ctx.backupDir.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("recreate_stream needs a backup folder"));
        Recreation run{step, ctx, journalPath(ctx, step), readJournal(journalPath(ctx, step), step.stream), {}};

        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return S::failed(QStringLiteral("reading %1").arg(step.stream), info.error());
        const QJsonObject oldValues = step.params.value(QLatin1String("old")).toObject();
        const QJsonObject changes = step.params.value(QLatin1String("new")).toObject();

        if (info->has_value()) {
            const QJsonObject config = (*info)->value(QLatin1String("config")).toObject();
            const Precondition p = S::fieldsPrecondition(step.stream, config, oldValues, changes);
            if (p.verdict == Precondition::Verdict::Changed)
                return S::stateChanged(p.reason);
            if (p.verdict == Precondition::Verdict::Run) {
                if (auto done = run.backUpAndDelete(config, changes); !done)
                    return done.error();
                info = std::optional<QJsonObject>();
            } else if (!run.journal || run.journal->value(QLatin1String("phase")).toString() == QLatin1String("restored")) {
                return QJsonArray{QJsonObject{{key("already_done"), p.reason}}};
            }
        }
        if (!run.journal)
            return S::stateChanged(QStringLiteral("%1 does not exist and no recreate journal is in %2: restore the backup of the earlier "
                                                  "run by hand")
                                       .arg(step.stream, ctx.backupDir));
        if (!info->has_value())
            if (auto done = run.create(oldValues, changes); !done)
                return done.error();
        if (auto done = run.restore(); !done)
            return done.error();
        return run.replies;
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.streamInfo(step.stream);
        if (!info)
            return info.error();
        if (!info->has_value())
            return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist").arg(step.stream));
        const Precondition p = S::fieldsPrecondition(step.stream, (*info)->value(QLatin1String("config")).toObject(), {},
                                                     step.params.value(QLatin1String("new")).toObject());
        if (p.verdict != Precondition::Verdict::AlreadyDone)
            return Error(Error::Kind::Internal, QStringLiteral("%1 does not show the new values: %2").arg(step.stream, p.reason));
        const auto journal = ctx.backupDir.isEmpty() ? std::nullopt : readJournal(journalPath(ctx, step), step.stream);
        if (!journal)
            return {}; // nothing was restored by this run (done before)
        const QJsonObject counts = journal->value(QLatin1String("restore")).toObject();
        const qint64 backedUp = journal->value(QLatin1String("messages")).toInteger();
        const qint64 accounted = counts.value(QLatin1String("restored")).toInteger()
            + counts.value(QLatin1String("already_present")).toInteger() + counts.value(QLatin1String("conflicts")).toInteger();
        if (journal->value(QLatin1String("phase")).toString() != QLatin1String("restored") || accounted != backedUp)
            return Error(Error::Kind::Internal,
                         QStringLiteral("%1: %2 of %3 backed-up messages restored").arg(step.stream).arg(accounted).arg(backedUp));
        for (const QJsonValue &c : journal->value(QLatin1String("consumers")).toArray()) {
            auto ci = ctx.consumerInfo(step.stream, c.toString());
            if (!ci)
                return ci.error();
            // Ephemeral consumers (no durable name) are not restored; durables must be back.
            if (!ci->has_value()
                && (counts.value(QLatin1String("consumers_created")).toArray().contains(c)
                    || counts.value(QLatin1String("consumers_existing")).toArray().contains(c)))
                return Error(Error::Kind::Internal,
                             QStringLiteral("consumer %1 of %2 is missing after the restore").arg(c.toString(), step.stream));
        }
        return {};
    }
};

} // namespace

const RepairAction *RepairActionFamilies::recreateStreamAction()
{
    static const RecreateStream action;
    return &action;
}

} // namespace MqttDoctor
