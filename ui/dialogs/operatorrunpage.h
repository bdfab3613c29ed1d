#pragma once

#include <QWizardPage>

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace MqttDoctor {

class OperatorActionDialog;
struct RepairEvent;
struct RepairStep;

/**
 * Page 3 (final) of the operator action dialog: the run's progress (steps done of all, sessions done of
 * all, each step's state as it goes), then what was done: the steps' outcomes, the backups written, what
 * was left alone, for a disconnect whether each client came back; a stopped or failed run names its
 * journal and offers Resume.
 */
class OperatorRunPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorRunPage)

public:
    explicit OperatorRunPage(OperatorActionDialog &dialog);
    ~OperatorRunPage() override;

    void initializePage() override;
    bool isComplete() const override;

    /** A step started, backed up or finished. */
    void handleEvent(const RepairEvent &event);
    void showStopping();
    /** The run ended: what it did. */
    void showOutcome();
    QString resultText() const;
    /** "Sessions done: 500 of 1,204" (empty for actions that take no sessions). */
    QString sessionsText() const;

private:
    int rowOf(const QString &stepId) const;
    void updateProgress();

    OperatorActionDialog &m_dialog;
    QLabel *m_status;
    QProgressBar *m_progress;
    QLabel *m_sessions;
    QTreeWidget *m_steps;
    QTextBrowser *m_result;
    QPushButton *m_resume;
};

} // namespace MqttDoctor
