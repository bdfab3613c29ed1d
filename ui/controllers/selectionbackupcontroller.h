#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "common/error.h"
#include "controllers/accounttaskcontroller.h"
#include "models/rowselection.h"

namespace MqttDoctor {

struct SelectionBackupRelay;

/**
 * "Back Up Selection…" of the account's tables: the stored records of the selected rows (a session's
 * subject of `$MQTT_sess`, a retained message's of `$MQTT_rmsgs`, ...) written to backup files with
 * StreamBackup, one file per subject, on the worker pool. It reads only, so a read-only profile may
 * back up; nothing on the servers changes. Progress per file, Stop between files (a stopped file
 * leaves nothing behind). No widgets; GUI thread only.
 */
class SelectionBackupController final : public AccountTaskController
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SelectionBackupController)

public:
    /** What a backup wrote and what it could not. */
    struct Outcome
    {
        QStringList files; ///< written, complete and synced
        quint64 messages = 0; ///< in those files
        QStringList failures; ///< "<stream> <subject>: <error>", one per record not backed up
        std::optional<Error> error; ///< the account could not be read at all (no credentials, no connection)
        bool stopped = false;
    };

    SelectionBackupController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent = nullptr);
    ~SelectionBackupController() override;

    /** Backs up `records` into `folder` (made when missing); progress() per file, finished() at the end. False when busy or not connected. */
    bool start(const QString &folder, const QList<RowSelection::Record> &records);
    /** Stops after the file being written (which is left out). */
    void stop();

    /** "<stamp>-<account>-selection-<stream>-<subject>.jsonl" in `folder`: the file name a record's backup gets. */
    static QString fileFor(const QString &folder, const QString &account, const RowSelection::Record &record, int index);

Q_SIGNALS:
    void progress(int done, int total);
    void finished(const MqttDoctor::SelectionBackupController::Outcome &outcome);

private:
    struct Job;

    std::shared_ptr<Job> m_job;
    std::shared_ptr<SelectionBackupRelay> m_relay;
};

} // namespace MqttDoctor
