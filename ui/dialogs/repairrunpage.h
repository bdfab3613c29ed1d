#pragma once

#include <QWizardPage>

#include "repair/repairplan.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace MqttDoctor {

class RepairWizard;

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
