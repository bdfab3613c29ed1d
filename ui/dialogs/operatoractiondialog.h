#pragma once

#include <QWizard>

#include "repair/operator/operatorrequest.h"

namespace MqttDoctor {

class ClusterController;
class OperatorActionController;
class OperatorConfirmPage;
class OperatorPreviewPage;
class OperatorRunPage;

/**
 * An operator action on rows the operator picked (delete sessions, disconnect clients, clear retained
 * messages, drop a backlog), looking and working like the repair wizard: the preview (the plan's steps with
 * their exact requests, what it changes in counts, what it leaves alone and why, the notes), the backup
 * folder and, for destructive steps, the account name typed to consent, then the run with progress (steps
 * and sessions done), Stop, and what was done (backups, what was left alone, for a disconnect whether the
 * client came back). A read-only connection sees the plan with how to allow changes and cannot run. A
 * stopped or failed run names its journal and offers Resume, which plans the steps not done and goes
 * through the preview and the consent again.
 *
 * An OperatorActionController does the work on the cluster controller's pool; the dialog only words what
 * it hands back. Closing while a run goes stops the run after its current step. GUI thread; the cluster
 * controller must outlive the dialog.
 */
class OperatorActionDialog final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorActionDialog)

public:
    enum PageId { PreviewPageId, ConfirmPageId, RunPageId };

    /** Starts reading the account and planning at once. */
    /** `journalPath` non-empty: the rest of the run that journal describes (its request is `request`), else a new plan. */
    OperatorActionDialog(ClusterController &cluster, const OperatorRequest &request, QWidget *parent = nullptr,
                         const QString &journalPath = {});
    ~OperatorActionDialog() override;

    OperatorActionController *controller() const { return m_controller; }
    const OperatorRequest &request() const;
    /** The account, as the plan resolved it. */
    QString account() const;
    /** Why nothing may change and how to allow it (the repair wizard's wording); empty when allowed. */
    QString blockedReason() const;
    /** The plan has steps that delete something: the account name is typed to consent. */
    bool needsConsent() const;

    QString backupDir() const;
    void setBackupDir(const QString &dir);

    /** The preview's text: the counts, the steps and the selection, as plain text. */
    QString previewText() const;
    /** The run page's outcome as plain text (empty before a run ended). */
    QString resultText() const;

    /** The confirm page's commit: runs the plan on the pool. */
    bool startRun();
    /** Plans the steps the last run did not finish (its journal) and shows the preview again. */
    bool resume();
    void reject() override;

Q_SIGNALS:
    /** A run ended (complete or not): the window shows the account's state again. */
    void actionFinished(const QString &account);

private:
    void showPrepared();
    void showFinished();

    OperatorActionController *m_controller;
    OperatorPreviewPage *m_previewPage;
    OperatorConfirmPage *m_confirmPage;
    OperatorRunPage *m_runPage;
};

} // namespace MqttDoctor
