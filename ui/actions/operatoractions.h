#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>

#include "models/rowselection.h"
#include "repair/operator/operatorrequest.h"

class QWidget;

namespace MqttDoctor {

class ClusterController;
class OperatorActionDialog;

/**
 * What the main window does when a table's row actions ask (RowActions): opens the operator action dialog
 * (the preview, consent and run of a delete, disconnect, clear or drop), and backs up a selection's records
 * into a folder the operator picks (read-only: SelectionBackupController on the pool, a progress dialog
 * with Cancel, then what was written). Nothing here blocks the GUI thread: every dialog is opened, not
 * executed. GUI thread; the cluster controller must outlive it.
 */
class OperatorActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorActions)

public:
    OperatorActions(ClusterController &cluster, QWidget *window);
    ~OperatorActions() override;

    /** Opens the dialog of `request` (window-modal); it starts reading the account and planning at once. */
    OperatorActionDialog *open(const OperatorRequest &request);
    /** Asks for a journal of an operator action (the backup folder first) and opens its dialog to resume it. */
    void resumeFromJournal();
    /** Opens the dialog that resumes the run `journalPath` describes; null (and a message) when it is no journal. */
    OperatorActionDialog *openJournal(const QString &journalPath);
    /** The dialog opened last, while it is open. */
    OperatorActionDialog *dialog() const;
    /** Asks for a folder (the repair wizard's backup folder first), then backs up the selection's records there. */
    void backUp(const RowSelection &selection);
    /** Backs up the selection's records into `folder` without asking; false when nothing could start. */
    bool backUpTo(const RowSelection &selection, const QString &folder);

Q_SIGNALS:
    /** An operator action's run ended: the window reads the account again. */
    void actionFinished(const QString &account);
    /** A selection's backup ended: the files written and what could not be backed up. */
    void backupFinished(const QStringList &files, const QStringList &failures);

private:
    ClusterController &m_cluster;
    QWidget *m_window;
    QPointer<OperatorActionDialog> m_dialog;
};

} // namespace MqttDoctor
