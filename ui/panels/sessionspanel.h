#pragma once

#include <QWidget>

#include "panels/panelloadstate.h"
#include "records/sessionloader.h"

class QCheckBox;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace MqttDoctor {

class AccountDataController;
class Error;
class LoadProgressWidget;
class RowActions;
class SessionDetailsView;
class SessionFilterProxyModel;
class SessionTableModel;

/**
 * The MQTT sessions of one account: a table filled batch by batch while `$MQTT_sess` is read (progress
 * and Cancel after a second), a filter (the CLI's `--filter`), "problems only", sortable columns, and
 * the selected session's decoded record beside its stored JSON. Loads on first show (ensureLoaded).
 */
class SessionsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionsPanel)

public:
    explicit SessionsPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~SessionsPanel() override;

    /** Shows the account (empty until ensureLoaded()). */
    void setAccount(const QString &account);
    QString account() const { return m_loadState->account(); }
    /** Starts the load unless this account is loaded or loading. */
    void ensureLoaded();
    /**
     * Loads again; what the previous load still delivers is dropped. A table that has rows keeps
     * showing them until the new rows are all read (then swapped in one go), and keeps its selected
     * client and scroll position.
     */
    void reload();
    bool isLoading() const { return m_loadState->isLoading(); }
    /**
     * During a load, batches that arrive within this many milliseconds of the last rows shown are
     * handed to the table together: each hand-over costs the GUI thread a repaint of the table, so
     * fewer of them keep it free to react (the first rows are shown at once).
     */
    static constexpr int kShowIntervalMs = 150;
    bool isLoaded() const { return m_loadState->isLoaded(); }

    SessionTableModel *model() const { return m_model; }
    SessionFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    SessionDetailsView *detailsView() const { return m_details; }
    LoadProgressWidget *progress() const { return m_loadState->progress(); }
    QString statusText() const { return m_loadState->statusText(); }
    QString noticeText() const { return m_loadState->noticeText(); }
    /** Selects the row of a client ID (visible after filtering); false when not shown. */
    bool selectClient(const QString &clientId);
    /**
     * Selects the session of `clientId` as soon as the table is loaded, clearing a filter that hides it; the
     * notice says so when the account has no such session ("Show in Sessions").
     */
    void revealClient(const QString &clientId);
    /** The actions on the selected rows (context menu, Actions button, Delete key, Ctrl+A). */
    RowActions *rowActions() const { return m_rowActions; }

Q_SIGNALS:
    /** A load ended (finished, canceled or failed). */
    void loadFinished();
    /** The table got its first rows of a load that started empty (a refresh keeps the old rows instead). */
    void firstRowsShown(qsizetype rows);

private:
    void handleBatch(const QString &account, const QList<SessionEntry> &batch, quint64 done, quint64 total);
    /** Hands the batches received since the last time to the table (or the refresh's pending list) and updates progress and status. */
    void showReceived();
    void dropReceived();
    void handleFinished(const QString &account, bool cancelled, const QString &note);
    void handleFailed(const Error &error);
    void showSelected();
    void updateStatus();
    void completeLoad();
    /** Notes the selected client and the scroll position (restoreView() brings them back). */
    void keepView();
    /** Rows are final (loaded, sorted): select the remembered client again and scroll back. */
    void restoreView();
    /** revealClient(): select the client now if the rows allow. */
    void revealPending();

    AccountDataController &m_controller;
    bool m_cancelled = false;
    QLineEdit *m_filter;
    QCheckBox *m_problemsOnly;
    QPushButton *m_reload;
    PanelLoadState *m_loadState;
    SessionTableModel *m_model;
    SessionFilterProxyModel *m_proxy;
    QTableView *m_table;
    SessionDetailsView *m_details;
    QTimer *m_filterDelay;
    QTimer *m_showDelay; ///< runs while received batches wait for showReceived()
    QList<QList<SessionEntry>> m_received; ///< batches not handed over yet (shared, not copied)
    quint64 m_receivedDone = 0;
    quint64 m_receivedTotal = 0;
    quint64 m_shownSeq = 0;
    bool m_quiet = false; ///< a refresh of a table that has rows: batches go to m_pending
    QList<QList<SessionEntry>> m_pending; ///< the refresh's batches, as they came (shared, not copied)
    qsizetype m_pendingRows = 0;
    RowActions *m_rowActions = nullptr;
    QString m_reveal; ///< revealClient(), until it is selected
    QString m_keepClient; ///< selected before the refresh
    int m_keepScroll = -1;
};

} // namespace MqttDoctor
