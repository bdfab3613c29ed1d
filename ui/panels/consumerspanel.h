#pragma once

#include <QWidget>

#include "models/consumertablemodel.h"
#include "panels/panelloadstate.h"

class QSortFilterProxyModel;
class QTableView;

namespace MqttDoctor {

class AccountDataController;
class Error;
class RowActions;

/**
 * The durables of `$MQTT_msgs`/`$MQTT_out` with pending counts and their owner session or "orphan".
 * A reload of a table that has rows keeps them until the new list arrives, then keeps the selected
 * consumer (by stream and name) and the scroll position.
 */
class ConsumersPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsumersPanel)

public:
    explicit ConsumersPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~ConsumersPanel() override;

    void setAccount(const QString &account);
    void ensureLoaded();
    void reload();
    bool isLoading() const { return m_loadState->isLoading(); }
    bool isLoaded() const { return m_loadState->isLoaded(); }
    ConsumerTableModel *model() const { return m_model; }
    /** Selects a stream's consumer; false when it is not in the table. */
    bool selectConsumer(const QString &stream, const QString &name);
    /** The selected consumer as {stream, name}; empty strings without a selection. */
    std::pair<QString, QString> selectedConsumer() const;
    QTableView *view() const { return m_table; }
    /**
     * Selects every durable `clientId`'s session owns ("Show in Consumers"), now or as soon as the list is in;
     * the notice says so when it owns none. The rows selected (0 until the list is in).
     */
    int revealOwner(const QString &clientId);
    /** The actions on the selected rows: they take the sessions that own the durables. */
    RowActions *rowActions() const { return m_rowActions; }
    QString statusText() const { return m_loadState->statusText(); }
    QString noticeText() const { return m_loadState->noticeText(); }

Q_SIGNALS:
    void loadFinished();

private:
    void handleLoaded(const QString &account, const QList<ConsumerRow> &rows);
    void handleFailed(const Error &error);

    AccountDataController &m_controller;
    PanelLoadState *m_loadState;
    ConsumerTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    RowActions *m_rowActions = nullptr;
    QString m_reveal; ///< revealOwner() before the list was in
};

} // namespace MqttDoctor
