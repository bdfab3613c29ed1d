#pragma once

#include <QSet>
#include <QTabWidget>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

class AccountDataController;
class ActivityPanel;
class ConsumersPanel;
class DetailPanel;
class FindingsPanel;
class InflightPanel;
class PinnedPanel;
class RetainedPanel;
class RowActions;
class SessionsPanel;
class StreamDiffPanel;

/**
 * The right side of the main window: the overview (DetailPanel: server, account, stream) and, for an
 * account, its Findings, Expected vs actual (stream configs against the layout), Sessions, Retained,
 * Consumers, In flight, Activity and Pinned (who keeps messages in the interest streams) tabs. Findings load when an account is shown (the tree's badges need them); the
 * record tabs load when first opened; the stream comparison needs no load.
 */
class AccountWorkspace final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountWorkspace)

public:
    enum Tab { OverviewTab, FindingsTab, StreamDiffTab, SessionsTab, RetainedTab, ConsumersTab, InflightTab, ActivityTab, PinnedTab };
    Q_ENUM(Tab)

    AccountWorkspace(DetailPanel *overview, AccountDataController &controller, QWidget *parent = nullptr);
    ~AccountWorkspace() override;

    /** Only the overview (no account selected). */
    void showOverviewOnly();
    /** The account's tabs; `tab` (when not the overview) is brought to the front. */
    void showAccount(const AccountInfo &account, Tab tab = OverviewTab);
    /** Brings a stream's row forward in the comparison (without changing the tab). */
    void selectStream(const QString &name);
    /** The cluster's servers: their versions decide the expected stream layout. */
    void setServers(const QList<ServerInfo> &servers);
    /**
     * Reads the account's data again: the findings and the open tab now, the other tabs when opened.
     * Tables keep their selection and scroll position. One snapshot (AccountDataController::refresh)
     * that every view of the account shows.
     */
    void reload();
    /** True while any of the account's loads runs. */
    bool isLoading() const;
    QString accountName() const { return m_account; }
    bool hasAccount() const { return m_hasAccount; }

    /**
     * Brings `tab` (SessionsTab or ConsumersTab) forward and selects `clientId`'s session, or the durables
     * its session owns, as soon as the tab has loaded ("Show in Sessions", "Show in Consumers").
     */
    void revealClient(Tab tab, const QString &clientId);
    /** The row actions of every table of the account (Sessions, Retained, Consumers, In flight, Activity, Pinned). */
    QList<RowActions *> rowActions() const;

    FindingsPanel *findingsPanel() const { return m_findings; }
    SessionsPanel *sessionsPanel() const { return m_sessions; }
    RetainedPanel *retainedPanel() const { return m_retained; }
    ConsumersPanel *consumersPanel() const { return m_consumers; }
    ActivityPanel *activityPanel() const { return m_activity; }
    InflightPanel *inflightPanel() const { return m_inflight; }
    StreamDiffPanel *streamDiffPanel() const { return m_diff; }
    PinnedPanel *pinnedPanel() const { return m_pinned; }

private:
    void loadCurrent();
    void updateFindingsTab();
    void updateDiffTab();

    AccountDataController &m_controller;
    FindingsPanel *m_findings;
    StreamDiffPanel *m_diff;
    SessionsPanel *m_sessions;
    RetainedPanel *m_retained;
    ConsumersPanel *m_consumers;
    InflightPanel *m_inflight;
    ActivityPanel *m_activity;
    PinnedPanel *m_pinned;
    QString m_account;
    AccountInfo m_accountInfo;
    QList<ServerInfo> m_servers;
    bool m_hasAccount = false;
    QSet<int> m_stale; ///< tabs to read again when next opened
};

} // namespace MqttDoctor
