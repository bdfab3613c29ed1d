#include "repair/actions/retainedstepbackup.h"

#include <QDir>
#include <QSet>

#include "mqtt/mqttlayout.h"
#include "repair/actions/retainedstore.h"
#include "repair/backupfile.h"

namespace MqttDoctor::RetainedStepBackup {

QString stepBackupFile(const ExecContext &ctx, const RepairStep &step)
{
    if (ctx.backupDir.isEmpty())
        return {};
    // The executor names them "<stamp>-<account>-step<id>-<action>-<stream>[...].jsonl" (stamp first: newest sorts last).
    const QDir dir(ctx.backupDir);
    QStringList files = dir.entryList({QStringLiteral("*-step%1-%2-MQTT_rmsgs*.jsonl").arg(step.id, step.action)}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : dir.filePath(files.constLast());
}

Result<QList<RetainedRecord>> backupRecords(const QString &path, bool perSubject)
{
    QList<RetainedRecord> out;
    auto read = BackupFileReader::read(path, [&](BackupMessage &&m, qint64) {
        if (RetainedStore::isPerSubject(m.subject) != perSubject)
            return true;
        StreamMessage sm;
        sm.subject = m.subject;
        sm.sequence = m.seq;
        sm.headers = m.headers;
        sm.data = m.data;
        auto r = RetainedStore::decode(sm);
        if (r && !r->isDeleteMarker)
            out.append(*r);
        return true;
    });
    if (!read)
        return read.error();
    return out;
}

Result<void> requireBackedUp(const ExecContext &ctx, const RepairStep &step, const QList<quint64> &sequences)
{
    if (sequences.isEmpty())
        return {};
    const QString path = stepBackupFile(ctx, step);
    if (path.isEmpty())
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("no backup of this step was found in %1; nothing was deleted").arg(ctx.backupDir));
    QSet<quint64> held;
    auto read = BackupFileReader::read(path, [&held](BackupMessage &&m, qint64) {
        held.insert(m.seq);
        return true;
    });
    if (!read)
        return read.error();
    QStringList missing;
    for (quint64 seq : sequences)
        if (!held.contains(seq))
            missing << QString::number(seq);
    if (missing.isEmpty())
        return {};
    return Error(
        Error::Kind::Internal,
        QStringLiteral("the step's backup %1 does not hold sequence(s) %2 of %3, which this step would delete; nothing was deleted")
            .arg(path, missing.mid(0, 10).join(QStringLiteral(", ")), MqttLayout::retainedStream()),
        QStringLiteral("the backup reads whole streams through their configured subjects; messages outside them need a "
                       "read by sequence"));
}

} // namespace MqttDoctor::RetainedStepBackup
