#pragma once

#include <QWidget>

#include "panels/panelloadstate.h"
#include "records/retainedloader.h"

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

namespace MqttDoctor {

class AccountDataController;
class Error;
class RetainedTableModel;
class RowActions;

/**
 * The retained MQTT messages of one account: topic, QoS, size, payload previewed as text, hex or JSON,
 * a topic filter, and the selected payload in full. Loads on first show (ensureLoaded). A reload of a
 * table that has rows keeps showing them until the new ones are all read, swaps them in one go and
 * keeps the selected topic and the scroll position (as the sessions table does).
 */
class RetainedPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetainedPanel)

public:
    explicit RetainedPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~RetainedPanel() override;

    void setAccount(const QString &account);
    void ensureLoaded();
    void reload();
    bool isLoading() const { return m_loadState->isLoading(); }
    bool isLoaded() const { return m_loadState->isLoaded(); }

    RetainedTableModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    QComboBox *modeBox() const { return m_mode; }
    QLineEdit *filterEdit() const { return m_filter; }
    QString payloadText() const;
    /** Selects the row of a topic (visible after filtering); false when not shown. */
    bool selectTopic(const QString &topic);
    /** The selected row's topic; empty without a selection (or on an undecodable message). */
    QString selectedTopic() const;
    QString statusText() const { return m_loadState->statusText(); }
    /** The actions on the selected rows (context menu, Actions button, Delete key: clear retained, Ctrl+A). */
    RowActions *rowActions() const { return m_rowActions; }
    QString noticeText() const { return m_loadState->noticeText(); }

Q_SIGNALS:
    void loadFinished();

private:
    void handleFinished(const QString &account, bool cancelled, const QString &note);
    void handleFailed(const Error &error);
    void showSelected();
    void updateStatus();
    /** Swaps the refresh's rows in, keeping the selected topic and the scroll position. */
    void applyRefresh();
    /** Ends a refresh's keeping of the old rows: its pending rows go (swapped in or not). */
    void dropPending();

    AccountDataController &m_controller;
    bool m_quiet = false; ///< a refresh of a table that has rows: batches go to m_pending
    QList<RetainedEntry> m_pending; ///< the refresh's rows until it has read them all
    QLineEdit *m_filter;
    QComboBox *m_mode;
    PanelLoadState *m_loadState;
    RetainedTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QPlainTextEdit *m_payload;
    RowActions *m_rowActions = nullptr;
};

} // namespace MqttDoctor
