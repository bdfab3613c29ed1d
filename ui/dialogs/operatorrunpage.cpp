#include "operatorrunpage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "dialogs/operatoractionformat.h"
#include "dialogs/repairwizardformat.h"
#include "dialogs/repairwizardwidgets.h"
#include "models/iconfactory.h"
#include "repair/repairevent.h"

namespace MqttDoctor {

using namespace RepairWizardWidgets;

OperatorRunPage::OperatorRunPage(OperatorActionDialog &dialog)
    : m_dialog(dialog), m_status(new QLabel(this)), m_progress(new QProgressBar(this)), m_sessions(new QLabel(this)),
      m_steps(new QTreeWidget(this)), m_result(richView(QStringLiteral("operatorResult"), this)),
      m_resume(new QPushButton(tr("&Resume…"), this))
{
    setTitle(tr("Run"));
    setSubTitle(tr("Each step checks right before it runs that nothing changed since the preview. Cancel stops after the current step."));
    setFinalPage(true);
    m_status->setObjectName(QStringLiteral("operatorRunStatus"));
    m_status->setWordWrap(true);
    m_progress->setObjectName(QStringLiteral("operatorProgress"));
    m_progress->setFormat(tr("%v of %m steps"));
    m_sessions->setObjectName(QStringLiteral("operatorSessionsDone"));
    m_steps->setObjectName(QStringLiteral("operatorRunSteps"));
    m_steps->setRootIsDecorated(false);
    m_steps->setUniformRowHeights(true);
    m_steps->setHeaderLabels({tr("Step"), tr("Description"), tr("State"), tr("Details")});
    m_steps->header()->setSectionResizeMode(StepDescriptionColumn, QHeaderView::Stretch);
    m_resume->setObjectName(QStringLiteral("operatorResume"));
    m_resume->setToolTip(tr("Plan the steps this run did not finish, from its journal, and confirm them again"));
    m_resume->hide();
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_sessions);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_resume);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addLayout(progressRow);
    layout->addWidget(m_steps, 1);
    layout->addWidget(m_result, 2);
    layout->addLayout(buttons);
    connect(m_resume, &QPushButton::clicked, &m_dialog, &OperatorActionDialog::resume);
}

OperatorRunPage::~OperatorRunPage() = default;

void OperatorRunPage::initializePage()
{
    const OperatorPlan &plan = m_dialog.controller()->plan();
    m_steps->clear();
    m_steps->setUpdatesEnabled(false);
    for (const RepairStep &s : plan.plan.steps) {
        auto *item = new QTreeWidgetItem(m_steps, {s.id, s.description, tr("Waiting"), {}});
        item->setToolTip(StepDescriptionColumn, s.description);
    }
    m_steps->setUpdatesEnabled(true);
    m_steps->resizeColumnToContents(StepIdColumn);
    m_progress->setRange(0, int(plan.plan.steps.size()));
    m_progress->setValue(0);
    m_status->setText(tr("%1 in account %2…").arg(OperatorActionFormat::title(m_dialog.request().verb), m_dialog.account()));
    m_result->clear();
    m_resume->hide();
    updateProgress();
}

bool OperatorRunPage::isComplete() const
{
    return m_dialog.controller()->stage() == OperatorActionController::Stage::Finished;
}

int OperatorRunPage::rowOf(const QString &stepId) const
{
    for (int i = 0; i < m_steps->topLevelItemCount(); ++i)
        if (m_steps->topLevelItem(i)->text(StepIdColumn) == stepId)
            return i;
    return -1;
}

QString OperatorRunPage::sessionsText() const
{
    return m_sessions->text();
}

void OperatorRunPage::updateProgress()
{
    const OperatorActionController &c = *m_dialog.controller();
    m_progress->setValue(std::min(c.stepsDone(), m_progress->maximum()));
    const qint64 sessions = c.plan().counts.sessions;
    const QLocale locale;
    m_sessions->setText(sessions > 0 ? tr("Sessions done: %1 of %2").arg(locale.toString(c.sessionsDone()), locale.toString(sessions))
                                     : QString());
    m_sessions->setVisible(sessions > 0);
}

void OperatorRunPage::handleEvent(const RepairEvent &event)
{
    QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(event.step.id));
    switch (event.kind) {
    case RepairEvent::Kind::StepStarted:
        if (item) {
            item->setText(StepStateColumn, tr("Running…"));
            m_steps->scrollToItem(item);
        }
        if (!m_dialog.controller()->isStopping())
            m_status->setText(tr("Step %1 of %2: %3").arg(event.step.id).arg(m_progress->maximum()).arg(event.step.description));
        break;
    case RepairEvent::Kind::BackupWritten:
        if (item) {
            item->setText(StepStateColumn, tr("Backed up…"));
            item->setToolTip(StepStateColumn, tr("Backup written: %1").arg(event.backupFile));
        }
        break;
    case RepairEvent::Kind::StepFinished:
        if (item) {
            item->setText(StepStateColumn, RepairWizardFormat::stateText(event.outcome.state));
            QString details = event.outcome.message;
            if (!event.outcome.backupFiles.isEmpty())
                details += (details.isEmpty() ? QString() : QStringLiteral("; "))
                    + tr("backup: %1").arg(event.outcome.backupFiles.join(QStringLiteral(", ")));
            item->setText(StepMessageColumn, details);
            item->setToolTip(StepMessageColumn, details);
            const bool good = event.outcome.state == StepOutcome::State::Applied || event.outcome.state == StepOutcome::State::AlreadyDone;
            const bool bad = event.outcome.state == StepOutcome::State::Failed;
            item->setIcon(StepStateColumn,
                          IconFactory::icon(good      ? IconFactory::Kind::Ok
                                                : bad ? IconFactory::Kind::Error
                                                      : IconFactory::Kind::Warning));
        }
        updateProgress();
        break;
    case RepairEvent::Kind::RoundStarted:
    case RepairEvent::Kind::RoundFinished:
    case RepairEvent::Kind::Done: break;
    }
}

void OperatorRunPage::showStopping()
{
    m_status->setText(tr("Stopping after the current step…"));
}

void OperatorRunPage::showOutcome()
{
    const OperatorActionController &c = *m_dialog.controller();
    const std::optional<RepairExecutor::Report> &report = c.report();
    if (report)
        for (const StepOutcome &o : report->outcomes)
            if (QTreeWidgetItem *item = m_steps->topLevelItem(rowOf(o.stepId)))
                item->setText(StepStateColumn, RepairWizardFormat::stateText(o.state));
    for (int column = StepStateColumn; column <= StepMessageColumn; ++column)
        m_steps->resizeColumnToContents(column);
    updateProgress();
    const bool complete = report && report->complete;
    m_status->setText(!report              ? tr("The action could not run; nothing was changed.")
                          : complete       ? tr("Done: %1.").arg(c.plan().counts.text())
                          : c.isStopping() ? tr("Stopped after %1 of %2 steps.").arg(c.stepsDone()).arg(m_progress->maximum())
                                           : tr("The action stopped before its end."));
    OperatorActionFormat::Outcome outcome;
    outcome.verb = m_dialog.request().verb;
    outcome.report = report;
    outcome.runError = c.runError();
    outcome.returns = c.returns();
    outcome.journalPath = c.journalPath();
    outcome.stopped = c.isStopping();
    outcome.left = c.plan().selection.left;
    outcome.steps = c.plan().plan.steps;
    m_result->setHtml(OperatorActionFormat::outcomeHtml(outcome));
    m_resume->setVisible(report && !complete && !c.journalPath().isEmpty());
    emit completeChanged();
}

QString OperatorRunPage::resultText() const
{
    return m_result->toPlainText();
}

} // namespace MqttDoctor
