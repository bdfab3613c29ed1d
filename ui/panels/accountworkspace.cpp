#include "accountworkspace.h"

#include <QTabBar>

#include "controllers/accountdatacontroller.h"
#include "models/findinglistmodel.h"
#include "models/healthbadge.h"
#include "models/streamdiffmodel.h"
#include "panels/activitypanel.h"
#include "panels/consumerspanel.h"
#include "panels/detailpanel.h"
#include "panels/findingspanel.h"
#include "panels/inflightpanel.h"
#include "panels/pinnedpanel.h"
#include "panels/retainedpanel.h"
#include "panels/sessionspanel.h"
#include "panels/streamdiffpanel.h"

namespace MqttDoctor {

AccountWorkspace::AccountWorkspace(DetailPanel *overview, AccountDataController &controller, QWidget *parent)
    : QTabWidget(parent), m_controller(controller), m_findings(new FindingsPanel(controller, this)), m_diff(new StreamDiffPanel(this)),
      m_sessions(new SessionsPanel(controller, this)), m_retained(new RetainedPanel(controller, this)),
      m_consumers(new ConsumersPanel(controller, this)), m_inflight(new InflightPanel(controller, this)),
      m_activity(new ActivityPanel(this)), m_pinned(new PinnedPanel(controller, this))
{
    setObjectName(QStringLiteral("accountWorkspace"));
    setDocumentMode(true);
    addTab(overview, tr("Overview"));
    addTab(m_findings, tr("Findings"));
    addTab(m_diff, tr("Expected vs actual"));
    addTab(m_sessions, tr("Sessions"));
    addTab(m_retained, tr("Retained"));
    addTab(m_consumers, tr("Consumers"));
    addTab(m_inflight, tr("In flight"));
    addTab(m_activity, tr("Activity"));
    addTab(m_pinned, tr("Pinned"));
    connect(this, &QTabWidget::currentChanged, this, &AccountWorkspace::loadCurrent);
    connect(&controller, &AccountDataController::findingsLoaded, this, &AccountWorkspace::updateFindingsTab);
    // A refresh (here, from a view's Reload button or the auto refresh) is one snapshot: every view
    // of the account shows it, the open one now, the others when opened.
    connect(&controller, &AccountDataController::refreshStarted, this, [this](const QString &account) {
        if (!m_hasAccount || account != m_account)
            return;
        m_findings->setAccount(m_account, true);
        m_stale = {SessionsTab, RetainedTab, ConsumersTab, InflightTab, PinnedTab};
        loadCurrent();
    });
    connect(&controller, &AccountDataController::loadingChanged, this, [this](AccountDataController::Load load, bool) {
        if (load == AccountDataController::Load::Findings)
            updateFindingsTab();
    });
    showOverviewOnly();
}

AccountWorkspace::~AccountWorkspace() = default;

void AccountWorkspace::showOverviewOnly()
{
    m_hasAccount = false;
    setCurrentIndex(OverviewTab);
    for (int tab = FindingsTab; tab <= PinnedTab; ++tab)
        setTabVisible(tab, false);
    tabBar()->setVisible(false);
}

void AccountWorkspace::showAccount(const AccountInfo &account, Tab tab)
{
    const bool changed = !m_hasAccount || account.name != m_account;
    m_account = account.name;
    m_hasAccount = true;
    const bool records = account.jetstream;
    tabBar()->setVisible(true);
    setTabVisible(FindingsTab, true);
    setTabVisible(StreamDiffTab, records);
    for (int t = SessionsTab; t <= InflightTab; ++t)
        setTabVisible(t, records);
    setTabVisible(ActivityTab, !account.isSystem);
    setTabVisible(PinnedTab, records);
    m_accountInfo = account;
    m_diff->setAccount(account, m_servers);
    updateDiffTab();
    if (changed) {
        m_stale.clear();
        m_findings->setAccount(account.name);
        m_sessions->setAccount(account.name);
        m_retained->setAccount(account.name);
        m_consumers->setAccount(account.name);
        m_activity->setAccount(account.name);
        m_inflight->setAccount(account.name);
        m_pinned->setAccount(account.name);
        updateFindingsTab();
    }
    if (tab != OverviewTab && isTabVisible(tab))
        setCurrentIndex(tab);
    else if (!isTabVisible(currentIndex()))
        setCurrentIndex(OverviewTab);
    loadCurrent();
}

void AccountWorkspace::revealClient(Tab tab, const QString &clientId)
{
    if (!m_hasAccount || !isTabVisible(tab))
        return;
    setCurrentIndex(tab); // loads the tab when it is not (loadCurrent)
    if (tab == SessionsTab)
        m_sessions->revealClient(clientId);
    else if (tab == ConsumersTab)
        m_consumers->revealOwner(clientId);
}

QList<RowActions *> AccountWorkspace::rowActions() const
{
    return {m_sessions->rowActions(), m_retained->rowActions(), m_consumers->rowActions(),
            m_inflight->rowActions(), m_activity->rowActions(), m_pinned->rowActions()};
}

void AccountWorkspace::selectStream(const QString &name)
{
    m_diff->selectStream(name);
}

void AccountWorkspace::setServers(const QList<ServerInfo> &servers)
{
    m_servers = servers;
    if (m_hasAccount) {
        m_diff->setAccount(m_accountInfo, m_servers);
        updateDiffTab();
    }
}

bool AccountWorkspace::isLoading() const
{
    return m_controller.isBusy();
}

void AccountWorkspace::updateDiffTab()
{
    const int problems = m_diff->model()->problemStreams();
    setTabText(StreamDiffTab, problems > 0 ? tr("Expected vs actual (%1)").arg(problems) : tr("Expected vs actual"));
    setTabIcon(StreamDiffTab, problems > 0 ? HealthBadge::icon(HealthBadge::Health::Error) : QIcon());
}

void AccountWorkspace::reload()
{
    if (!m_hasAccount)
        return;
    m_controller.refresh(m_account); // refreshStarted: the views attach to the new snapshot
}

void AccountWorkspace::loadCurrent()
{
    if (!m_hasAccount)
        return;
    const int tab = currentIndex();
    const bool stale = m_stale.remove(tab);
    switch (tab) {
    case SessionsTab: stale ? m_sessions->reload() : m_sessions->ensureLoaded(); break;
    case RetainedTab: stale ? m_retained->reload() : m_retained->ensureLoaded(); break;
    case ConsumersTab: stale ? m_consumers->reload() : m_consumers->ensureLoaded(); break;
    case InflightTab: stale ? m_inflight->reload() : m_inflight->ensureLoaded(); break;
    case PinnedTab: stale ? m_pinned->reload() : m_pinned->ensureLoaded(); break;
    default: break;
    }
}

void AccountWorkspace::updateFindingsTab()
{
    if (m_controller.isLoading(AccountDataController::Load::Findings) || !m_findings->isLoaded()) {
        setTabText(FindingsTab, tr("Findings …"));
        setTabIcon(FindingsTab, {});
        return;
    }
    const FindingList &findings = m_findings->model()->findings();
    setTabText(FindingsTab, tr("Findings (%1)").arg(findings.size()));
    // Nothing found is green only when everything could be looked at.
    const HealthBadge::Health worst = HealthBadge::worst(findings, [](const Finding &) { return true; });
    setTabIcon(FindingsTab,
               HealthBadge::icon(worst == HealthBadge::Health::Ok && m_findings->verdictOpen() ? HealthBadge::Health::Unknown : worst));
}

} // namespace MqttDoctor
