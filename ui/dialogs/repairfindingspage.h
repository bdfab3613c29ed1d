#pragma once

#include <QWizardPage>

class QLabel;
class QPushButton;
class QTreeView;

namespace MqttDoctor {

class ErrorBanner;
class RepairWizard;

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

} // namespace MqttDoctor
