#include "selectionbackupcontroller.h"

#include <QDir>
#include <QMutex>
#include <QMutexLocker>

#include <atomic>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "nats/connectionset.h"
#include "repair/backupfile.h"
#include "repair/privatefiles.h"
#include "repair/repairtarget.h"
#include "repair/streambackup.h"

namespace MqttDoctor {

/** Carries progress from the worker to the controller; detached (under the mutex) by the controller's destructor. */
struct SelectionBackupRelay
{
    QMutex mutex;
    SelectionBackupController *controller = nullptr;
};

struct SelectionBackupController::Job
{
    std::atomic<bool> cancel{false};
};

namespace {

/** A file name part made of the characters every file system takes. */
QString backupNamePart(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text)
        out += (c.isLetterOrNumber() && c.unicode() < 128) || c == u'.' || c == u'-' || c == u'_' ? c : QChar(u'_');
    return out.left(120);
}

} // namespace

SelectionBackupController::SelectionBackupController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account,
                                                     QObject *parent)
    : AccountTaskController(runner, std::move(connections), std::move(account), parent), m_job(std::make_shared<Job>()),
      m_relay(std::make_shared<SelectionBackupRelay>())
{
    m_relay->controller = this;
}

SelectionBackupController::~SelectionBackupController()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->controller = nullptr;
    }
    m_job->cancel.store(true);
}

QString SelectionBackupController::fileFor(const QString &folder, const QString &account, const RowSelection::Record &record, int index)
{
    const QString tail = QStringLiteral("-%1-selection%2-%3-%4.jsonl")
                             .arg(backupNamePart(account))
                             .arg(index)
                             .arg(backupNamePart(record.stream), backupNamePart(record.subject));
    return freshBackupPath(folder, [&tail](const QString &stamp) { return stamp + tail; });
}

bool SelectionBackupController::start(const QString &folder, const QList<RowSelection::Record> &records)
{
    if (!m_connections || isRunning() || records.isEmpty() || folder.isEmpty())
        return false;
    m_job->cancel.store(false);
    const quint64 generation = begin();
    auto work =
        m_runner.run([connections = m_connections, job = m_job, relay = m_relay, account = m_account, folder, records]() -> Outcome {
            Outcome out;
            if (!PrivateFiles::makePath(folder)) {
                out.error = Error(Error::Kind::Io, QStringLiteral("cannot create the backup folder %1").arg(folder),
                                  QStringLiteral("Pick a folder you may write to."));
                return out;
            }
            auto target = RepairTarget::resolve(*connections, account);
            if (!target) {
                out.error = target.error();
                return out;
            }
            BackupOptions options;
            options.cancel = &job->cancel;
            for (qsizetype i = 0; i < records.size(); ++i) {
                if (job->cancel.load()) {
                    out.stopped = true;
                    break;
                }
                const RowSelection::Record &record = records.at(i);
                BackupRequest request;
                request.stream = record.stream;
                request.subject = record.subject;
                request.outputPath = fileFor(folder, account, record, int(i) + 1);
                auto written = StreamBackup::run(*target, request, options);
                if (written) {
                    out.files << written->path;
                    out.messages += written->messages;
                } else if (StreamBackup::isCancelled(written.error())) {
                    out.stopped = true;
                    break;
                } else {
                    out.failures << QStringLiteral("%1 %2: %3").arg(record.stream, record.subject, written.error().toString());
                }
                const QMutexLocker lock(&relay->mutex);
                if (SelectionBackupController *controller = relay->controller)
                    GuiDelivery::post(controller, [controller, done = int(i) + 1, total = int(records.size())] {
                        emit controller->progress(done, total);
                    });
            }
            return out;
        });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const Outcome &out) {
        end();
        emit finished(out);
    });
    return true;
}

void SelectionBackupController::stop()
{
    m_job->cancel.store(true);
}

} // namespace MqttDoctor
