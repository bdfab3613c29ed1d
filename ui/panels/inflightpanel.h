#pragma once

#include <QWidget>

#include "panels/panelloadstate.h"
#include "records/accountinflight.h"

class QTableView;

namespace MqttDoctor {

class AccountDataController;
class Error;
class InflightTableModel;
class RowActions;

/**
 * The account's "In flight" tab: every session with queued messages, QoS 2 messages waiting for a
 * PUBREL or PUBRELs waiting for a PUBCOMP, oldest first, and the QoS 2 records of sessions that are gone
 * (QOS2_ORPHANED). Read on the worker pool (AccountDataController::loadAccountInflight) with message
 * gets only; the GUI thread never waits on the network.
 */
class InflightPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InflightPanel)

public:
    explicit InflightPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~InflightPanel() override;

    void setAccount(const QString &account);
    void ensureLoaded();
    void reload();
    bool isLoading() const { return m_loadState->isLoading(); }
    bool isLoaded() const { return m_loadState->isLoaded(); }
    InflightTableModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    /** The actions on the selected rows (their sessions: drop the backlog, delete, disconnect, ...). */
    RowActions *rowActions() const { return m_rowActions; }
    QString statusText() const { return m_loadState->statusText(); }
    QString noticeText() const { return m_loadState->noticeText(); }

Q_SIGNALS:
    void loadFinished();

private:
    void handleLoaded(const QString &account, const AccountInflight &inflight);
    void handleFailed(const Error &error);

    AccountDataController &m_controller;
    PanelLoadState *m_loadState;
    InflightTableModel *m_model;
    QTableView *m_table;
    RowActions *m_rowActions = nullptr;
};

} // namespace MqttDoctor
