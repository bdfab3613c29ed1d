#include "repairrunpage.h"

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

RepairRunPage::RepairRunPage(RepairWizard &wizard)
    : m_wizard(wizard), m_status(new QLabel(this)), m_progress(new QProgressBar(this)), m_steps(new QTreeWidget(this)),
      m_result(richView(QStringLiteral("resultView"), this)), m_nextRound(new QPushButton(this))
{
    setTitle(tr("Repair"));
    setSubTitle(tr("Each step checks its precondition right before it runs. Cancel stops after the current step."));
    setFinalPage(true);
    m_status->setObjectName(QStringLiteral("runStatus"));
    m_status->setWordWrap(true);
    m_progress->setObjectName(QStringLiteral("runProgress"));
    m_steps->setObjectName(QStringLiteral("stepList"));
    m_steps->setRootIsDecorated(false);
    m_steps->setHeaderLabels({tr("Step"), tr("Description"), tr("State"), tr("Details")});
    m_steps->header()->setSectionResizeMode(StepDescriptionColumn, QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_steps, 1);
    layout->addWidget(m_result, 2);
    m_nextRound->setObjectName(QStringLiteral("nextRoundButton"));
    m_nextRound->hide();
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_nextRound);
    layout->addLayout(buttons);
    connect(m_nextRound, &QPushButton::clicked, &m_wizard, &RepairWizard::reviewNextRound);
}

RepairRunPage::~RepairRunPage() = default;

void RepairRunPage::initializePage()
{
    const QList<RepairPlan> &plans = m_wizard.plans();
    m_done = 0;
    m_steps->clear();
    int steps = 0;
    QStringList accounts;
    for (const RepairPlan &plan : plans) {
        accounts << plan.account;
        for (const RepairStep &s : plan.steps) {
            const QString id = plans.size() > 1 ? QStringLiteral("%1 %2").arg(plan.account, s.id) : s.id;
            auto *item = new QTreeWidgetItem(m_steps, {id, s.description, tr("Waiting"), {}});
            item->setData(StepIdColumn, Qt::UserRole, stepKey(s));
            item->setToolTip(StepDescriptionColumn, s.description);
            ++steps;
        }
    }
    m_steps->resizeColumnToContents(StepIdColumn);
    m_progress->setRange(0, steps);
    m_progress->setValue(0);
    const QString names = accounts.join(QStringLiteral(", "));
    m_status->setText(m_wizard.round() > 1 ? tr("Repairing %1, round %2…").arg(names).arg(m_wizard.round())
                                           : tr("Repairing %1…").arg(names));
    m_result->clear();
    m_nextRound->hide();
}

bool RepairRunPage::isComplete() const
{
    return m_wizard.hasRun() && !m_wizard.isRunning();
}

QString RepairRunPage::stepKey(const RepairStep &step)
{
    return step.account + u'\n' + step.id;
}

int RepairRunPage::rowOf(const QString &key) const
{
    for (int i = 0; i < m_steps->topLevelItemCount(); ++i)
        if (m_steps->topLevelItem(i)->data(StepIdColumn, Qt::UserRole).toString() == key)
            return i;
    return -1;
}

void RepairRunPage::stepStarted(const RepairStep &step)
{
    if (QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(stepKey(step)))) {
        item->setText(StepStateColumn, tr("Running…"));
        m_steps->scrollToItem(item);
    }
    m_status->setText(tr("Step %1 of %2: %3").arg(step.id).arg(m_progress->maximum()).arg(step.description));
}

void RepairRunPage::backupWritten(const RepairStep &step, const QString &file)
{
    if (QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(stepKey(step)))) {
        item->setText(StepStateColumn, tr("Backed up…"));
        item->setToolTip(StepStateColumn, tr("Backup written: %1").arg(file));
    }
}

void RepairRunPage::stepEnded(const RepairStep &step, const StepOutcome &outcome)
{
    QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(stepKey(step)));
    if (!item)
        return;
    item->setText(StepStateColumn, RepairWizardFormat::stateText(outcome.state));
    QString details = outcome.message;
    if (!outcome.backupFiles.isEmpty())
        details +=
            (details.isEmpty() ? QString() : QStringLiteral("; ")) + tr("backup: %1").arg(outcome.backupFiles.join(QStringLiteral(", ")));
    item->setText(StepMessageColumn, details);
    item->setToolTip(StepMessageColumn, details);
    const bool good = outcome.state == StepOutcome::State::Applied || outcome.state == StepOutcome::State::AlreadyDone;
    const bool bad = outcome.state == StepOutcome::State::Failed;
    item->setIcon(StepStateColumn,
                  IconFactory::icon(good      ? IconFactory::Kind::Ok
                                        : bad ? IconFactory::Kind::Error
                                              : IconFactory::Kind::Warning));
    m_progress->setValue(++m_done);
}

void RepairRunPage::showCanceling()
{
    m_status->setText(tr("Stopping after the current step…"));
}

void RepairRunPage::showOutcome()
{
    const auto &report = m_wizard.report();
    if (!report) {
        m_status->setText(tr("The repair could not start."));
        emit completeChanged();
        return;
    }
    // Steps the executor did not reach never got a progress call: show their final state too.
    for (const auto &[account, o] : m_wizard.roundOutcomes())
        if (QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(account + u'\n' + o.stepId)))
            item->setText(StepStateColumn, RepairWizardFormat::stateText(o.state));
    for (int c = StepStateColumn; c <= StepMessageColumn; ++c)
        m_steps->resizeColumnToContents(c);
    m_status->setText(!report->complete ? tr("The repair stopped.")
                          : m_wizard.hasNextRound()
                          ? tr("Round %1 done. The account was checked again: another round is planned.").arg(m_wizard.round())
                          : tr("Done. The account was checked again."));
    RepairWizardFormat::RoundState rounds;
    rounds.ran = m_wizard.round();
    rounds.next = m_wizard.hasNextRound() ? m_wizard.round() + 1 : 0;
    rounds.stopText = m_wizard.stopText();
    rounds.openGaps = m_wizard.openGaps();
    rounds.probes = m_wizard.probeSummaries(&rounds.probeFailed);
    QStringList accounts;
    for (const RepairPlan &plan : m_wizard.plans())
        accounts << plan.account;
    m_result->setHtml(RepairWizardFormat::outcomeHtml(accounts, *report, m_wizard.fixedFindings(), m_wizard.remainingFindings(),
                                                      m_wizard.recheckError(), rounds));
    m_nextRound->setText(tr("Review Round %1…").arg(rounds.next));
    m_nextRound->setVisible(rounds.next > 0);
    emit completeChanged();
}

} // namespace MqttDoctor
