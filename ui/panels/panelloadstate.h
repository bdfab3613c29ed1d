#pragma once

#include <QObject>
#include <QString>

#include "controllers/accountdatacontroller.h"

class QLabel;
class QWidget;

namespace MqttDoctor {

class LoadProgressWidget;
class NoticeLabel;

/**
 * The load of one account's data as a panel shows it (sessions, retained messages, consumers, what is
 * in flight, who pins messages): which account, whether its load runs or has ended, and the three
 * widgets that tell the person about it: a status line, a notice (what the load said, or why it
 * failed) and the progress with Cancel, which cancels the panel's kind of load.
 *
 * The panel lays the widgets out and keeps its own rows. It starts a load with begin() before asking
 * the controller, drops deliveries that accepts() refuses (another account, or a load that has
 * ended), and ends the load with finish() or fail(). A failure of its kind of load arrives as
 * loadFailed() only while it is accepted. The status line gets the plain texts ("Not loaded yet",
 * "Loading…", "Not loaded"); a panel that counts its rows sets its own text after each step.
 * GUI thread.
 */
class PanelLoadState final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PanelLoadState)

public:
    /** What setAccount() does with a load of the previous account that still runs. */
    enum class RunningLoad { Cancel, LetRun };

    /**
     * The widgets are children of `panel`; `name` starts their object names ("session":
     * sessionStatus, sessionNotice).
     */
    PanelLoadState(AccountDataController &controller, AccountDataController::Load load, const QString &name, QWidget *panel);
    ~PanelLoadState() override;

    QLabel *status() const { return m_status; }
    NoticeLabel *notice() const { return m_notice; }
    LoadProgressWidget *progress() const { return m_progress; }

    const QString &account() const { return m_account; }
    bool isLoading() const { return m_loading; }
    bool isLoaded() const { return m_loaded; }
    /** Neither loaded nor loading: what ensureLoaded() starts a load for. */
    bool needsLoad() const { return !m_loaded && !m_loading; }

    /**
     * Shows `account` from now on, not loaded. False, and nothing changes, when it is the account shown
     * and it is loaded or loading; the panel then keeps its rows.
     */
    bool setAccount(const QString &account, RunningLoad running = RunningLoad::Cancel);
    /** A load of the account starts: the notice goes, `what` is the progress text (shown after a second). */
    void begin(const QString &what);
    /** A delivery for `account` belongs to the running load. */
    bool accepts(const QString &account) const { return account == m_account && m_loading; }
    /** The load ended with what it read. */
    void finish();
    /**
     * The load failed; it counts as loaded (ensureLoaded() does not retry it, Reload does). The notice
     * says `text` with the account (or "this account") as %1, the error's message as %2 and its hint,
     * on a line of its own, as %3.
     */
    void fail(const QString &text, const Error &error);

    QString statusText() const;
    /** The notice's text; empty while it is hidden. */
    QString noticeText() const;

Q_SIGNALS:
    /** The running load failed (its kind, its account). The panel ends it with fail(). */
    void loadFailed(const MqttDoctor::Error &error);

private:
    AccountDataController &m_controller;
    const AccountDataController::Load m_load;
    QString m_account;
    bool m_loading = false;
    bool m_loaded = false;
    QLabel *m_status;
    NoticeLabel *m_notice;
    LoadProgressWidget *m_progress;
};

} // namespace MqttDoctor
