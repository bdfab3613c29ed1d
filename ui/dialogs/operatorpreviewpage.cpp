#include "operatorpreviewpage.h"

#include <QCheckBox>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "controllers/operatoractioncontroller.h"
#include "dialogs/operatoractiondialog.h"
#include "dialogs/operatoractionformat.h"
#include "dialogs/repairwizardwidgets.h"
#include "models/errortext.h"

namespace MqttDoctor {

using namespace RepairWizardWidgets;

OperatorPreviewPage::OperatorPreviewPage(OperatorActionDialog &dialog)
    : m_dialog(dialog), m_status(new QLabel(this)), m_blocked(noticeLabel(QStringLiteral("operatorBlocked"), this)),
      m_counts(new QLabel(this)), m_disconnectFirst(new QCheckBox(tr("&Disconnect connected clients first (a device that reconnects at "
                                                                     "once keeps its session: it is left alone then)"),
                                                                  this)),
      m_steps(richView(QStringLiteral("operatorSteps"), this)), m_selection(richView(QStringLiteral("operatorSelection"), this))
{
    setTitle(tr("Preview: %1").arg(OperatorActionFormat::title(dialog.request().verb)));
    setSubTitle(OperatorActionFormat::intro(dialog.request().verb));
    m_status->setObjectName(QStringLiteral("previewStatus"));
    m_status->setWordWrap(true);
    m_counts->setObjectName(QStringLiteral("operatorCounts"));
    m_counts->setWordWrap(true);
    m_counts->setTextFormat(Qt::PlainText);
    QFont bold = m_counts->font();
    bold.setBold(true);
    m_counts->setFont(bold);
    connect(m_steps, &QTextBrowser::anchorClicked, this, &OperatorPreviewPage::expand);
    m_disconnectFirst->setObjectName(QStringLiteral("operatorDisconnectFirst"));
    m_disconnectFirst->setChecked(dialog.request().disconnectFirst);
    m_disconnectFirst->hide();
    connect(m_disconnectFirst, &QCheckBox::toggled, this, &OperatorPreviewPage::changeDisconnectFirst);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_steps);
    split->addWidget(m_selection);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_blocked);
    layout->addWidget(m_status);
    layout->addWidget(m_counts);
    layout->addWidget(m_disconnectFirst);
    layout->addWidget(split, 1);
    showReading();
}

OperatorPreviewPage::~OperatorPreviewPage() = default;

void OperatorPreviewPage::initializePage()
{
    if (m_dialog.controller()->stage() == OperatorActionController::Stage::Preparing)
        showReading();
    else
        showPlan();
}

bool OperatorPreviewPage::isComplete() const
{
    const OperatorActionController &c = *m_dialog.controller();
    return c.stage() == OperatorActionController::Stage::Prepared && !c.prepareError() && !c.plan().isEmpty();
}

void OperatorPreviewPage::showReading()
{
    const QString account = m_dialog.request().account;
    m_status->setText(m_dialog.controller()->isResume()
                          ? tr("Reading the journal and the account again: which steps are still to do…")
                          : tr("Reading account %1 (its sessions, connections and retained messages) and planning…")
                                .arg(account.isEmpty() ? tr("of the connection") : account));
    m_blocked->hide();
    m_counts->clear();
    m_counts->hide();
    m_steps->clear();
    m_selection->clear();
    m_expanded.clear();
    m_allSteps = false;
    emit completeChanged();
}

void OperatorPreviewPage::showNotConnected()
{
    m_status->setText(tr("Not connected: connect to the cluster first (Cluster › Connect…)."));
    emit completeChanged();
}

void OperatorPreviewPage::showPlan()
{
    const OperatorActionController &c = *m_dialog.controller();
    if (c.stage() != OperatorActionController::Stage::Prepared)
        return;
    m_steps->clear();
    m_selection->clear();
    if (const std::optional<Error> &error = c.prepareError()) {
        m_status->setText(
            tr("Account %1 could not be read, so nothing is planned: %2").arg(m_dialog.account(), ErrorText::withHint(*error)));
        m_counts->hide();
        m_blocked->hide();
        emit completeChanged();
        return;
    }
    const OperatorPlan &plan = c.plan();
    const QString blocked = m_dialog.blockedReason();
    m_blocked->setText(blocked);
    m_blocked->setVisible(!blocked.isEmpty());
    const int steps = int(plan.plan.steps.size());
    const QString count = steps == 1 ? tr("1 step") : tr("%1 steps").arg(QLocale().toString(steps));
    if (plan.isEmpty())
        m_status->setText(tr("Nothing to do in account %1: nothing asked for can be changed (below, why).").arg(m_dialog.account()));
    else
        m_status->setText((c.isResume() ? tr("Resuming in account %1: %2 not done yet").arg(m_dialog.account(), count)
                                        : tr("The plan for account %1: %2").arg(m_dialog.account(), count))
                          + (plan.plan.hasDestructiveSteps() ? tr("; each backs up what it deletes before it deletes it.")
                                                             : tr("; nothing is deleted.")));
    m_counts->setText(tr("It changes: %1.").arg(plan.counts.text()));
    m_counts->setVisible(true);
    const OperatorRequest::Verb verb = c.request().verb;
    bool connectedLeft = false;
    for (const ActionSelection::Item &i : plan.selection.left)
        connectedLeft = connectedLeft || i.why.startsWith(QLatin1String("connected to"));
    m_disconnectFirst->setVisible(!c.isResume()
                                  && (verb == OperatorRequest::Verb::DeleteSessions || verb == OperatorRequest::Verb::DropBacklog)
                                  && (connectedLeft || c.request().disconnectFirst));
    showSteps();
    m_selection->setHtml(OperatorActionFormat::selectionHtml(plan));
    emit completeChanged();
}

void OperatorPreviewPage::changeDisconnectFirst(bool on)
{
    if (m_dialog.controller()->request().disconnectFirst == on)
        return;
    if (m_dialog.controller()->setDisconnectFirst(on))
        showReading();
    else
        m_disconnectFirst->setChecked(!on); // busy: the plan shown stays the one asked for
}

void OperatorPreviewPage::showSteps()
{
    const int scroll = m_steps->verticalScrollBar()->value();
    m_steps->setHtml(OperatorActionFormat::stepsHtml(m_dialog.controller()->plan().plan, m_expanded, m_allSteps));
    m_steps->verticalScrollBar()->setValue(scroll);
}

void OperatorPreviewPage::expand(const QUrl &link)
{
    const QString target = link.toString();
    if (target == QLatin1String("steps:all"))
        m_allSteps = true;
    else if (target.startsWith(QLatin1String("step:")))
        m_expanded.insert(target.mid(5));
    else
        return;
    showSteps();
}

QString OperatorPreviewPage::text() const
{
    QStringList lines{m_status->text()};
    if (!m_blocked->isHidden())
        lines << m_blocked->text();
    if (!m_counts->isHidden())
        lines << m_counts->text();
    lines << m_steps->toPlainText() << m_selection->toPlainText();
    return lines.join(u'\n');
}

} // namespace MqttDoctor
