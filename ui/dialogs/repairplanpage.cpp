#include "repairplanpage.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QTextBrowser>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "dialogs/repairwizard.h"
#include "dialogs/repairwizardformat.h"
#include "dialogs/repairwizardwidgets.h"
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "widgets/errorbanner.h"

namespace MqttDoctor {

using namespace RepairWizardWidgets;

RepairPlanPage::RepairPlanPage(RepairWizard &wizard)
    : m_wizard(wizard), m_summary(new QLabel(this)), m_view(richView(QStringLiteral("planView"), this))
{
    setTitle(tr("Plan"));
    setSubTitle(tr("What will be sent, step by step: the -old +new change, the exact JetStream requests, the "
                   "backups taken first, what is checked before and after, and how to undo it."));
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
}

RepairPlanPage::~RepairPlanPage() = default;

void RepairPlanPage::initializePage()
{
    m_wizard.makePlan();
    const QList<RepairPlan> &plans = m_wizard.plans();
    int steps = 0;
    int destructive = 0;
    QStringList accounts;
    QString html;
    for (const RepairPlan &plan : plans) {
        steps += int(plan.steps.size());
        for (const RepairStep &s : plan.steps)
            destructive += s.destructive ? 1 : 0;
        accounts << plan.account;
        if (plans.size() > 1)
            html += QStringLiteral("<h2>%1</h2>").arg(tr("Account %1").arg(plan.account).toHtmlEscaped());
        html += RepairWizardFormat::planHtml(plan);
    }
    const QString round = m_wizard.round() > 1 ? tr("Round %1: the check after the last round found these problems, which the repair "
                                                    "uncovered. ")
                                                     .arg(m_wizard.round())
                                               : QString();
    if (plans.isEmpty())
        m_summary->setText(round + tr("The selected findings have no automatic repair."));
    else
        m_summary->setText(
            round + tr("%n step(s) for account(s) %1", nullptr, steps).arg(accounts.join(QStringLiteral(", ")))
            + (destructive > 0 ? tr("; %n destructive, each backed up first.", nullptr, destructive) : tr("; nothing is deleted.")));
    m_view->setHtml(html);
    emit completeChanged();
}

bool RepairPlanPage::isComplete() const
{
    return !m_wizard.plans().isEmpty();
}

} // namespace MqttDoctor
