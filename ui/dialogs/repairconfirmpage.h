#pragma once

#include <QWizardPage>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace MqttDoctor {

class RepairWizard;

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

} // namespace MqttDoctor
