#include "operatoractions.h"

#include <QFileDialog>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>
#include <QWidget>

#include "controllers/clustercontroller.h"
#include "controllers/selectionbackupcontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "dialogs/repairwizard.h"
#include "models/errortext.h"
#include "repair/operator/operatorrun.h"

namespace MqttDoctor {

OperatorActions::OperatorActions(ClusterController &cluster, QWidget *window) : QObject(window), m_cluster(cluster), m_window(window) {}

OperatorActions::~OperatorActions() = default;

OperatorActionDialog *OperatorActions::open(const OperatorRequest &request)
{
    auto *dialog = new OperatorActionDialog(m_cluster, request, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &OperatorActionDialog::actionFinished, this, &OperatorActions::actionFinished);
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

void OperatorActions::resumeFromJournal()
{
    auto *chooser = new QFileDialog(m_window, tr("Resume an Operator Action"), RepairWizard::defaultBackupDir(),
                                    tr("Operator action journals (*.journal.jsonl)"));
    chooser->setObjectName(QStringLiteral("journalFileDialog"));
    chooser->setFileMode(QFileDialog::ExistingFile);
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    connect(chooser, &QFileDialog::fileSelected, this, [this](const QString &file) { openJournal(file); });
    chooser->open();
}

OperatorActionDialog *OperatorActions::openJournal(const QString &journalPath)
{
    auto request = OperatorRun::journalRequest(journalPath);
    if (!request) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Resume an Operator Action"), ErrorText::withHint(request.error()),
                                    QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("journalError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return nullptr;
    }
    auto *dialog = new OperatorActionDialog(m_cluster, *request, m_window, journalPath);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &OperatorActionDialog::actionFinished, this, &OperatorActions::actionFinished);
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

OperatorActionDialog *OperatorActions::dialog() const
{
    return m_dialog.data();
}

void OperatorActions::backUp(const RowSelection &selection)
{
    auto *chooser = new QFileDialog(m_window, tr("Back Up %n Record(s) to Folder", nullptr, int(selection.records.size())),
                                    RepairWizard::defaultBackupDir());
    chooser->setObjectName(QStringLiteral("backupFolderDialog"));
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    chooser->setFileMode(QFileDialog::Directory);
    chooser->setOption(QFileDialog::ShowDirsOnly, true);
    chooser->setAcceptMode(QFileDialog::AcceptOpen);
    chooser->setLabelText(QFileDialog::Accept, tr("&Back Up Here"));
    connect(chooser, &QFileDialog::fileSelected, this, [this, selection](const QString &folder) { backUpTo(selection, folder); });
    chooser->open();
}

bool OperatorActions::backUpTo(const RowSelection &selection, const QString &folder)
{
    if (selection.records.isEmpty() || selection.account.isEmpty() || folder.isEmpty())
        return false;
    auto *backup = new SelectionBackupController(m_cluster.runner(), m_cluster.connectionSet(), selection.account, this);
    if (!backup->start(folder, selection.records)) {
        backup->deleteLater();
        return false;
    }
    const int total = int(selection.records.size());
    auto *progress = new QProgressDialog(tr("Backing up %n record(s) of account %1…", nullptr, total).arg(selection.account), tr("Stop"), 0,
                                         total, m_window);
    progress->setObjectName(QStringLiteral("selectionBackupProgress"));
    progress->setWindowTitle(tr("Back Up Selection"));
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setMinimumDuration(500);
    progress->setValue(0);
    connect(backup, &SelectionBackupController::progress, progress, [progress](int done, int) { progress->setValue(done); });
    connect(progress, &QProgressDialog::canceled, backup, &SelectionBackupController::stop);
    connect(backup, &SelectionBackupController::finished, this,
            [this, backup, progress = QPointer<QProgressDialog>(progress), folder,
             account = selection.account](const SelectionBackupController::Outcome &out) {
                if (progress)
                    progress->close();
                backup->deleteLater();
                QString text;
                if (out.error)
                    text = tr("Nothing was backed up: %1").arg(ErrorText::withHint(*out.error));
                else
                    text = tr("%n backup file(s) written to %1, %2 message(s) in all. Nothing on the servers was changed.", nullptr,
                              int(out.files.size()))
                               .arg(folder, QLocale().toString(qulonglong(out.messages)));
                if (out.stopped)
                    text += u'\n' + tr("Stopped before the end: the records not listed were not backed up.");
                if (!out.failures.isEmpty())
                    text += u'\n' + tr("Not backed up:\n%1").arg(out.failures.join(u'\n'));
                auto *box = new QMessageBox(out.error || !out.failures.isEmpty() ? QMessageBox::Warning : QMessageBox::Information,
                                            tr("Back Up Selection — account %1").arg(account), text, QMessageBox::Ok, m_window);
                box->setObjectName(QStringLiteral("selectionBackupResult"));
                box->setDetailedText(out.files.join(u'\n'));
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
                emit backupFinished(out.files, out.failures);
            });
    progress->open();
    return true;
}

} // namespace MqttDoctor
