#include "repairfindingspage.h"

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

} // namespace MqttDoctor
