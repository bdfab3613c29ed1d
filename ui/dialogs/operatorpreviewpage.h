#pragma once

#include <QWizardPage>

#include <QSet>

class QCheckBox;
class QLabel;
class QTextBrowser;
class QUrl;

namespace MqttDoctor {

class OperatorActionDialog;

/**
 * Page 1 of the operator action dialog: what the plan will change before anything does. The counts
 * ("2 session records, 4 durables, 12 queued messages"), each step with its backups, what it checks first
 * and its exact requests (collapsed when there are many, a link shows the rest), what is changed and what is left alone and why,
 * how the change reaches the clients and the notes. A read-only connection's reason is shown above.
 */
class OperatorPreviewPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorPreviewPage)

public:
    explicit OperatorPreviewPage(OperatorActionDialog &dialog);
    ~OperatorPreviewPage() override;

    void initializePage() override;
    bool isComplete() const override;

    /** The plan is in (or why there is none). */
    void showPlan();
    void showNotConnected();
    /** Everything the page shows, as plain text. */
    QString text() const;

private:
    void showReading();
    void showSteps();
    /** "step:<id>" shows a step's every request, "steps:all" every step. */
    void expand(const QUrl &link);
    /** The operator asked to disconnect connected clients first (or not): plan again. */
    void changeDisconnectFirst(bool on);

    OperatorActionDialog &m_dialog;
    QLabel *m_status;
    QLabel *m_blocked;
    QLabel *m_counts;
    QCheckBox *m_disconnectFirst; ///< DeleteSessions, DropBacklog: shown when a connected client was left alone
    QTextBrowser *m_steps;
    QTextBrowser *m_selection;
    QSet<QString> m_expanded; ///< steps whose requests are all shown
    bool m_allSteps = false;
};

} // namespace MqttDoctor
