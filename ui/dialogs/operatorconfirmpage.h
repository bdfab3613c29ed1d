#pragma once

#include <QWizardPage>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace MqttDoctor {

class OperatorActionDialog;

/**
 * Page 2 (commit) of the operator action dialog, as the repair wizard's confirm page: the backup folder
 * (the repair wizard's default) and, when a step deletes something, the account name typed exactly to
 * consent. A read-only connection sees why it cannot run and how to allow changes; the button stays off.
 */
class OperatorConfirmPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorConfirmPage)

public:
    explicit OperatorConfirmPage(OperatorActionDialog &dialog);
    ~OperatorConfirmPage() override;

    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;

    QString backupDir() const;
    void setBackupDir(const QString &dir);

private:
    OperatorActionDialog &m_dialog;
    QLabel *m_summary;
    QLabel *m_blocked;
    QLineEdit *m_backupEdit;
    QPushButton *m_browse;
    QLabel *m_consentLabel;
    QLineEdit *m_consentEdit;
    QFormLayout *m_form;
};

} // namespace MqttDoctor
