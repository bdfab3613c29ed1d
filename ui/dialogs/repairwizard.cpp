#include "repairwizard.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QMutex>
#include <QMutexLocker>
#include <QSet>
#include <QTreeWidget>

#include "common/asyncrunner.h"
#include "controllers/clustercontroller.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "dialogs/repairwizardformat.h"
#include "dialogs/repairwizardpages.h"
#include "models/iconfactory.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairplanner.h"

namespace MqttDoctor {

/**
 * Carries RepairExecutor's progress from the worker to the wizard. The worker posts under the mutex
 * while the wizard is attached; the wizard's destructor detaches under the same mutex, so a post
 * never targets a destroyed wizard (Qt drops events posted to an object that is then deleted).
 */
struct RepairProgressRelay
{
    QMutex mutex;
    RepairWizard *wizard = nullptr;
};

struct RepairWizard::CheckOutcome
{
    std::optional<Error> error;
    std::optional<RepairTarget> target;
    std::optional<Error> targetError;
    QString account;
    DiagnosisInput input;
    QList<Finding> findings;
};

struct RepairWizard::RunOutcome
{
    std::optional<Error> error;
    RepairExecutor::Report report;
    std::optional<Error> recheckError;
    QList<Finding> after;
};

namespace {

/** The findings of `account` (and the cluster-level ones), as the check lists them. */
QList<Finding> accountFindings(const DiagnosisInput &input, const QString &account)
{
    QList<Finding> out;
    for (const Finding &f : Checks::diagnose(input))
        if (f.account.isEmpty() || f.account == account)
            out << f;
    return out;
}

} // namespace

RepairWizard::RepairWizard(ClusterController &controller, const QString &account, QWidget *parent)
    : QWizard(parent), m_controller(controller), m_account(account),
      m_connections(std::make_shared<ConnectionSet>(controller.profile())),
      m_relay(std::make_shared<RepairProgressRelay>()), m_cancel(std::make_shared<std::atomic<bool>>(false)),
      m_findingsPage(new RepairFindingsPage(*this)), m_planPage(new RepairPlanPage(*this)),
      m_confirmPage(new RepairConfirmPage(*this)), m_runPage(new RepairRunPage(*this))
{
    m_relay->wizard = this;
    setObjectName(QStringLiteral("repairWizard"));
    setWindowTitle(account.isEmpty() ? tr("Repair") : tr("Repair %1").arg(account));
    setWindowIcon(IconFactory::appIcon());
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage, true);
    setOption(QWizard::NoCancelButtonOnLastPage, false);
    setPage(FindingsPageId, m_findingsPage);
    setPage(PlanPageId, m_planPage);
    setPage(ConfirmPageId, m_confirmPage);
    setPage(RunPageId, m_runPage);
    setStartId(FindingsPageId);
    resize(900, 640);
    recheck();
}

RepairWizard::~RepairWizard()
{
    {
        const QMutexLocker lock(&m_relay->mutex);
        m_relay->wizard = nullptr;
    }
    m_cancel->store(true);
    // Closing nats.c connections waits for their threads: never on the GUI thread.
    static_cast<void>(m_controller.runner().run(
        [connections = std::move(m_connections), target = std::move(m_target)]() mutable {
            target.reset();
            connections.reset();
        }));
}

QString RepairWizard::defaultBackupDir()
{
    // As the CLI: backups/ beside the audit log.
    return QFileInfo(AuditLog::defaultPath()).dir().filePath(QStringLiteral("backups"));
}

QString RepairWizard::backupDir() const
{
    return m_confirmPage->backupDir();
}

void RepairWizard::setBackupDir(const QString &dir)
{
    m_confirmPage->setBackupDir(dir);
}

QList<Finding> RepairWizard::selectedFindings() const
{
    QList<Finding> out;
    const QTreeWidget *list = m_findingsPage->list();
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list->topLevelItem(i);
        const int index = item->data(0, Qt::UserRole + 1).toInt();
        if (item->checkState(0) == Qt::Checked && index >= 0 && index < m_findings.size())
            out << m_findings.at(index);
    }
    return out;
}

void RepairWizard::selectCodes(const QStringList &codes)
{
    QTreeWidget *list = m_findingsPage->list();
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = list->topLevelItem(i);
        if (item->flags() & Qt::ItemIsUserCheckable)
            item->setCheckState(0, codes.contains(item->text(1)) ? Qt::Checked : Qt::Unchecked);
    }
}

void RepairWizard::recheck()
{
    if (m_running)
        return;
    const quint64 generation = ++m_generation;
    m_checking = true;
    m_findingsPage->showChecking();
    std::shared_ptr<ConnectionSet> connections = m_connections;
    const QString requested = m_account;
    m_controller.runner()
        .run([connections, requested]() -> CheckOutcome {
            CheckOutcome out;
            // The repair target says where changes would go and whether they are allowed.
            if (auto target = RepairTarget::resolve(*connections, requested))
                out.target = *target;
            else
                out.targetError = target.error();
            DiagnosisGatherer::Request request;
            request.account = requested.isEmpty() && out.target ? out.target->account : requested;
            auto input = DiagnosisGatherer::gather(*connections, request);
            if (!input) {
                out.error = input.error();
                return out;
            }
            out.account = request.account.isEmpty() && !input->accounts.isEmpty() ? input->accounts.first().name : request.account;
            out.findings = accountFindings(*input, out.account);
            out.input = std::move(*input);
            return out;
        })
        .then(this, [this, generation](const CheckOutcome &out) {
            if (generation == m_generation)
                deliverCheck(out);
        });
}

void RepairWizard::deliverCheck(const CheckOutcome &out)
{
    m_checking = false;
    m_checkError = out.error;
    m_target = out.target;
    if (!out.account.isEmpty() && m_account.isEmpty()) {
        m_account = out.account;
        setWindowTitle(tr("Repair %1").arg(m_account));
    }
    m_input = out.input;
    m_findings = out.findings;
    if (out.targetError)
        m_blockedReason = tr("Changes are not possible: %1 %2").arg(out.targetError->message(), out.targetError->hint()).trimmed();
    else if (auto writable = m_target->checkWritable(QStringLiteral("repair")); !writable)
        m_blockedReason = tr("Read-only profile: %1 Turn on \"Allow changes\" in the connection settings to repair.")
                              .arg(writable.error().message());
    else
        m_blockedReason.clear();
    m_findingsPage->showFindings();
    emit checkFinished();
}

void RepairWizard::makePlan()
{
    RepairPlanner::Options options;
    options.account = m_account;
    options.apiDomain = m_target ? m_target->apiDomain : m_controller.profile().jsDomain;
    m_plan = RepairPlanner::plan(m_input, selectedFindings(), options);
}

bool RepairWizard::startRun()
{
    if (m_running || !m_target || !m_blockedReason.isEmpty() || m_plan.steps.isEmpty())
        return false;
    m_running = true;
    m_report.reset();
    m_fixed.clear();
    m_remaining.clear();
    m_recheckError.clear();
    m_cancel->store(false);
    button(QWizard::CancelButton)->setEnabled(true);

    RepairExecutor::Options options;
    options.backupDir = backupDir();
    std::shared_ptr<RepairProgressRelay> relay = m_relay;
    options.progress = [relay](const RepairStep &step, const StepOutcome &outcome) {
        const QMutexLocker lock(&relay->mutex);
        if (RepairWizard *wizard = relay->wizard)
            QMetaObject::invokeMethod(
                wizard, [wizard, step, outcome] { wizard->handleProgress(step, outcome); }, Qt::QueuedConnection);
    };
    std::shared_ptr<ConnectionSet> connections = m_connections;
    std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    const RepairTarget target = *m_target;
    const RepairPlan plan = m_plan;
    const QString account = m_account;
    m_controller.runner()
        .run([connections, cancel, target, plan, account, options]() mutable -> RunOutcome {
            RunOutcome out;
            options.cancel = cancel.get();
            auto report = RepairExecutor::run(target, plan, options);
            if (!report) {
                out.error = report.error();
                return out;
            }
            out.report = *report;
            // Safety rule 6: check again and say what is fixed and what remains.
            DiagnosisGatherer::Request request;
            request.account = account;
            if (auto input = DiagnosisGatherer::gather(*connections, request))
                out.after = accountFindings(*input, account);
            else
                out.recheckError = input.error();
            return out;
        })
        .then(this, [this](const RunOutcome &out) { deliverRun(out); });
    return true;
}

void RepairWizard::handleProgress(const RepairStep &step, const StepOutcome &outcome)
{
    if (outcome.message == QLatin1String("starting") && outcome.state == StepOutcome::State::NotRun)
        m_runPage->stepStarted(step);
    else
        m_runPage->stepEnded(step, outcome);
}

void RepairWizard::deliverRun(const RunOutcome &out)
{
    m_running = false;
    if (out.error) {
        RepairExecutor::Report failed;
        failed.stoppedBecause = out.error->message() + (out.error->hint().isEmpty() ? QString() : QStringLiteral(" — ") + out.error->hint());
        m_report = failed;
    } else {
        m_report = out.report;
    }
    if (out.recheckError) {
        m_recheckError = out.recheckError->message();
    } else if (!out.error) {
        m_remaining = out.after;
        QSet<QString> after;
        for (const Finding &f : out.after)
            after.insert(RepairWizardFormat::findingKey(f));
        for (const Finding &f : m_plan.findings)
            if (!after.contains(RepairWizardFormat::findingKey(f)))
                m_fixed << f;
    }
    m_runPage->showOutcome();
    emit repairFinished(m_account, m_report->complete);
}

void RepairWizard::reject()
{
    if (m_running) {
        // The executor stops between steps; the outcome page then shows what was done.
        m_cancel->store(true);
        m_runPage->showCanceling();
        button(QWizard::CancelButton)->setEnabled(false);
        return;
    }
    QWizard::reject();
}

} // namespace MqttDoctor
