#pragma once

#include <QWizardPage>

#include "repair/repairplan.h"

class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeView;
class QTreeWidget;

namespace MqttDoctor {

class ErrorBanner;
class RepairWizard;

/**
 * The pages of RepairWizard. They show the wizard's state through its public interface and ask it to
 * act; the wizard owns the data (the findings model, the plan, the report) and the work on the pool.
 * GUI thread.
 */

/** Page 1: the account's findings from a fresh check, the repairable ones checkable. */
class RepairFindingsPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairFindingsPage)

public:
    explicit RepairFindingsPage(RepairWizard &wizard);
    ~RepairFindingsPage() override;

    void showChecking();
    void showFindings();
    bool isComplete() const override;

private:
    RepairWizard &m_wizard;
    QLabel *m_status;
    QLabel *m_readOnly;
    ErrorBanner *m_banner;
    QTreeView *m_list;
    QPushButton *m_recheck;
};

/** Page 2: the plan RepairPlanner makes of the checked findings. */
class RepairPlanPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairPlanPage)

public:
    explicit RepairPlanPage(RepairWizard &wizard);
    ~RepairPlanPage() override;

    void initializePage() override;
    bool isComplete() const override;

private:
    RepairWizard &m_wizard;
    QLabel *m_summary;
    QTextBrowser *m_view;
};

/** Page 3 (commit): backup folder, and the account name typed to confirm destructive steps. */
class RepairConfirmPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairConfirmPage)

public:
    explicit RepairConfirmPage(RepairWizard &wizard);
    ~RepairConfirmPage() override;

    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;

    QString backupDir() const;
    void setBackupDir(const QString &dir);

private:
    RepairWizard &m_wizard;
    QLabel *m_summary;
    QLabel *m_blocked;
    QLineEdit *m_backupEdit;
    QPushButton *m_browse;
    QLabel *m_confirmLabel;
    QLineEdit *m_confirmEdit;
    QFormLayout *m_form = nullptr;
};

/** Page 4 (final): per-step progress, then the outcome and the verification. */
class RepairRunPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairRunPage)

public:
    explicit RepairRunPage(RepairWizard &wizard);
    ~RepairRunPage() override;

    void initializePage() override;
    bool isComplete() const override;

    void stepStarted(const RepairStep &step);
    void backupWritten(const RepairStep &step, const QString &file);
    void stepEnded(const RepairStep &step, const StepOutcome &outcome);
    void showCanceling();
    void showOutcome();

private:
    /** A step's row key: its account and id (ids repeat across accounts). */
    static QString stepKey(const RepairStep &step);
    int rowOf(const QString &key) const;

    RepairWizard &m_wizard;
    QLabel *m_status;
    QProgressBar *m_progress;
    QTreeWidget *m_steps;
    QTextBrowser *m_result;
    QPushButton *m_nextRound;
    int m_done = 0;
};

} // namespace MqttDoctor
