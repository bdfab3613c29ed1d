#pragma once

#include <QSet>
#include <QTabWidget>

#include "nats/clusterinfo.h"

namespace MqttDoctor {

class AccountDataController;
class ConsumersPanel;
class DetailPanel;
class FindingsPanel;
class RetainedPanel;
class SessionsPanel;

/**
 * The right side of the main window: the overview (DetailPanel: server, account, stream) and, for an
 * account, its Findings, Sessions, Retained and Consumers tabs. Findings load when an account is
 * shown (the tree's badges need them); the record tabs load when first opened.
 */
class AccountWorkspace final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountWorkspace)

public:
    enum Tab { OverviewTab, FindingsTab, SessionsTab, RetainedTab, ConsumersTab };
    Q_ENUM(Tab)

    AccountWorkspace(DetailPanel *overview, AccountDataController &controller, QWidget *parent = nullptr);
    ~AccountWorkspace() override;

    /** Only the overview (no account selected). */
    void showOverviewOnly();
    /** The account's tabs; `tab` (when not the overview) is brought to the front. */
    void showAccount(const AccountInfo &account, Tab tab = OverviewTab);
    /** Reads the account's data again: the findings and the open tab now, the other tabs when opened. */
    void reload();
    QString accountName() const { return m_account; }
    bool hasAccount() const { return m_hasAccount; }

    FindingsPanel *findingsPanel() const { return m_findings; }
    SessionsPanel *sessionsPanel() const { return m_sessions; }
    RetainedPanel *retainedPanel() const { return m_retained; }
    ConsumersPanel *consumersPanel() const { return m_consumers; }

private:
    void loadCurrent();
    void updateFindingsTab();

    AccountDataController &m_controller;
    FindingsPanel *m_findings;
    SessionsPanel *m_sessions;
    RetainedPanel *m_retained;
    ConsumersPanel *m_consumers;
    QString m_account;
    bool m_hasAccount = false;
    QSet<int> m_stale; ///< tabs to read again when next opened
};

} // namespace MqttDoctor
