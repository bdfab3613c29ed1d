#include "repairwizardpages.h"

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
#include "models/iconfactory.h"
#include "models/repairfindingsmodel.h"
#include "widgets/errorbanner.h"

namespace MqttDoctor {

namespace {

enum StepColumn { StepIdColumn, StepDescriptionColumn, StepStateColumn, StepMessageColumn };

QLabel *noticeLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, QColor(0xa3, 0x1f, 0x1f));
    label->setPalette(pal);
    label->hide();
    return label;
}

QTextBrowser *richView(const QString &objectName, QWidget *parent)
{
    auto *view = new QTextBrowser(parent);
    view->setObjectName(objectName);
    view->setOpenLinks(false);
    return view;
}

} // namespace

// ---- findings -------------------------------------------------------------------------------

RepairFindingsPage::RepairFindingsPage(RepairWizard &wizard)
    : m_wizard(wizard), m_status(new QLabel(this)), m_readOnly(noticeLabel(QStringLiteral("readOnlyNotice"), this)),
      m_banner(new ErrorBanner(this)), m_list(new QTreeView(this)), m_recheck(new QPushButton(tr("Check &Again"), this))
{
    setTitle(tr("Findings"));
    setSubTitle(tr("A fresh check of the account. Tick the findings to repair; the others are left alone."));
    m_status->setObjectName(QStringLiteral("findingsStatus"));
    m_status->setWordWrap(true);
    m_banner->hide();
    m_list->setObjectName(QStringLiteral("findingsList"));
    m_list->setModel(m_wizard.findingsModel());
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(RepairFindingsModel::TitleColumn, QHeaderView::Stretch);
    m_recheck->setObjectName(QStringLiteral("recheckButton"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_recheck);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_readOnly);
    layout->addLayout(top);
    layout->addWidget(m_list, 1);

    connect(m_recheck, &QPushButton::clicked, &m_wizard, &RepairWizard::recheck);
    connect(m_banner, &ErrorBanner::retryRequested, &m_wizard, &RepairWizard::recheck);
}

RepairFindingsPage::~RepairFindingsPage() = default;

void RepairFindingsPage::showChecking()
{
    m_banner->hide();
    m_recheck->setEnabled(false);
    const QStringList accounts = m_wizard.accounts();
    m_status->setText(accounts.size() > 1                ? tr("Checking accounts %1…").arg(accounts.join(QStringLiteral(", ")))
                          : m_wizard.account().isEmpty() ? tr("Checking the account of the profile's user…")
                                                         : tr("Checking account %1…").arg(m_wizard.account()));
    emit completeChanged();
}

void RepairFindingsPage::showFindings()
{
    m_recheck->setEnabled(true);
    if (const auto error = m_wizard.checkError()) {
        m_banner->showError(*error);
        m_banner->show();
        m_status->setText(tr("The check failed."));
        emit completeChanged();
        return;
    }
    m_banner->hide();
    const QString notice = (m_wizard.partialCheckErrors() + QStringList{m_wizard.blockedReason()}).join(u'\n').trimmed();
    m_readOnly->setText(notice);
    m_readOnly->setVisible(!notice.isEmpty());

    const RepairFindingsModel *model = m_wizard.findingsModel();
    for (int c = RepairFindingsModel::SeverityColumn; c < RepairFindingsModel::ColumnCount; ++c)
        if (c != RepairFindingsModel::TitleColumn)
            m_list->resizeColumnToContents(c);
    const int count = int(model->findings().size());
    const int repairable = model->repairableCount();
    const QStringList accounts = m_wizard.accounts();
    if (accounts.size() > 1)
        m_status->setText(tr("Accounts %1: %n finding(s), %2 with an automatic repair. The findings you chose are ticked "
                             "where the fresh checks still show them.",
                             nullptr, count)
                              .arg(accounts.join(QStringLiteral(", ")))
                              .arg(repairable));
    else if (count == 0)
        m_status->setText(tr("Account %1 has no findings: nothing to repair.").arg(m_wizard.account()));
    else if (repairable < count)
        m_status->setText(tr("Account %1: %n finding(s), %2 with an automatic repair. The others are greyed: their "
                             "tooltip and the plan say what to do instead.",
                             nullptr, count)
                              .arg(m_wizard.account())
                              .arg(repairable));
    else
        m_status->setText(tr("Account %1: %n finding(s), each with an automatic repair.", nullptr, count).arg(m_wizard.account()));
    emit completeChanged();
}

bool RepairFindingsPage::isComplete() const
{
    return !m_wizard.isChecking() && !m_wizard.selectedFindings().isEmpty();
}

// ---- plan -----------------------------------------------------------------------------------

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

// ---- confirm --------------------------------------------------------------------------------

RepairConfirmPage::RepairConfirmPage(RepairWizard &wizard)
    : m_wizard(wizard), m_summary(new QLabel(this)), m_blocked(noticeLabel(QStringLiteral("blockedNotice"), this)),
      m_backupEdit(new QLineEdit(this)), m_browse(new QPushButton(tr("&Browse…"), this)), m_confirmLabel(new QLabel(this)),
      m_confirmEdit(new QLineEdit(this))
{
    setTitle(tr("Confirm"));
    setSubTitle(tr("Backups are written before any destructive step; a step whose backup fails does not run. "
                   "Every applied step is recorded in the audit log."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Repair"));
    m_summary->setObjectName(QStringLiteral("confirmSummary"));
    m_summary->setWordWrap(true);
    m_backupEdit->setObjectName(QStringLiteral("backupDirEdit"));
    m_backupEdit->setText(RepairWizard::defaultBackupDir());
    m_confirmEdit->setObjectName(QStringLiteral("confirmEdit"));
    m_confirmLabel->setWordWrap(true);
    m_confirmLabel->setBuddy(m_confirmEdit);

    auto *backupRow = new QHBoxLayout;
    backupRow->addWidget(m_backupEdit, 1);
    backupRow->addWidget(m_browse);
    m_form = new QFormLayout;
    m_form->addRow(tr("Backup &folder:"), backupRow);
    m_form->addRow(m_confirmLabel);
    m_form->addRow(tr("Account &name:"), m_confirmEdit);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_blocked);
    layout->addWidget(m_summary);
    layout->addLayout(m_form);
    layout->addStretch(1);

    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Backup Folder"), m_backupEdit->text());
        if (!dir.isEmpty())
            m_backupEdit->setText(dir);
    });
    connect(m_backupEdit, &QLineEdit::textChanged, this, &RepairConfirmPage::completeChanged);
    connect(m_confirmEdit, &QLineEdit::textChanged, this, &RepairConfirmPage::completeChanged);
}

RepairConfirmPage::~RepairConfirmPage() = default;

void RepairConfirmPage::initializePage()
{
    int steps = 0;
    QStringList accounts;
    for (const RepairPlan &plan : m_wizard.plans()) {
        steps += int(plan.steps.size());
        accounts << plan.account;
    }
    const QStringList destructive = m_wizard.destructiveAccounts();
    m_summary->setText(!destructive.isEmpty() ? tr("The plan has %n step(s). Some delete or overwrite data in account(s) %1: they are "
                                                   "backed up to the folder below first.",
                                                   nullptr, steps)
                                                    .arg(destructive.join(QStringLiteral(", ")))
                                              : tr("The plan has %n step(s) for account(s) %1; none deletes anything.", nullptr, steps)
                                                    .arg(accounts.join(QStringLiteral(", "))));
    m_confirmLabel->setText(
        destructive.size() > 1
            ? tr("To apply the destructive steps, type the names of these accounts, separated by spaces: <b>%1</b>")
                  .arg(destructive.join(u' ').toHtmlEscaped())
            : tr("To apply the destructive steps, type the account name <b>%1</b>:").arg(destructive.value(0).toHtmlEscaped()));
    m_form->setRowVisible(m_confirmLabel, !destructive.isEmpty());
    m_form->setRowVisible(m_confirmEdit, !destructive.isEmpty());
    m_confirmEdit->clear();
    m_blocked->setText(m_wizard.blockedReason());
    m_blocked->setVisible(!m_wizard.blockedReason().isEmpty());
    m_confirmEdit->setEnabled(m_wizard.blockedReason().isEmpty());
}

bool RepairConfirmPage::isComplete() const
{
    if (!m_wizard.blockedReason().isEmpty() || m_wizard.plans().isEmpty() || m_wizard.isRunning())
        return false;
    const QStringList destructive = m_wizard.destructiveAccounts();
    if (destructive.isEmpty())
        return true;
    if (m_backupEdit->text().trimmed().isEmpty())
        return false;
    if (destructive.size() == 1)
        return m_confirmEdit->text() == destructive.first(); // exactly, as typed
    // Several accounts: each name once, in any order.
    QStringList typed = m_confirmEdit->text().split(u' ', Qt::SkipEmptyParts);
    QStringList wanted = destructive;
    typed.sort();
    wanted.sort();
    return typed == wanted;
}

bool RepairConfirmPage::validatePage()
{
    return isComplete() && m_wizard.startRun();
}

QString RepairConfirmPage::backupDir() const
{
    return m_backupEdit->text().trimmed();
}

void RepairConfirmPage::setBackupDir(const QString &dir)
{
    m_backupEdit->setText(dir);
}

// ---- run ------------------------------------------------------------------------------------

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
