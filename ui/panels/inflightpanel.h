#pragma once

#include <QWidget>

#include "records/accountinflight.h"

class QLabel;
class QTableView;

namespace MqttDoctor {

class AccountDataController;
class Error;
class InflightTableModel;
class LoadProgressWidget;
class NoticeLabel;

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
    bool isLoading() const { return m_loading; }
    bool isLoaded() const { return m_loaded; }
    InflightTableModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    QString statusText() const;
    QString noticeText() const;

Q_SIGNALS:
    void loadFinished();

private:
    void handleLoaded(const QString &account, const AccountInflight &inflight);
    void handleFailed(const QString &account, const Error &error);

    AccountDataController &m_controller;
    QString m_account;
    bool m_loading = false;
    bool m_loaded = false;
    QLabel *m_status;
    NoticeLabel *m_notice;
    LoadProgressWidget *m_progress;
    InflightTableModel *m_model;
    QTableView *m_table;
};

} // namespace MqttDoctor
