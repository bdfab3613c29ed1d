#pragma once

#include <QWizardPage>

#include "repair/repairplan.h"

class QLabel;
class QTextBrowser;

namespace MqttDoctor {

class RepairWizard;

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

} // namespace MqttDoctor
