#pragma once

#include <chrono>
#include <functional>

#include <QList>
#include <QObject>

class QTimer;

namespace MqttDoctor {

/**
 * Refreshes on a timer: every `intervalSeconds()` (0: off) it emits refreshDue(), unless the busy
 * check says a load is still running, in which case that tick is skipped (a refresh never overlaps a
 * running one; the next tick tries again). The interval is remembered in QSettings
 * ("view/autoRefreshSeconds"). No network, no widgets; GUI thread only.
 */
class AutoRefresh final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AutoRefresh)

public:
    explicit AutoRefresh(QObject *parent = nullptr);
    ~AutoRefresh() override;

    /** The intervals offered in the View menu, in seconds (0 = off). */
    static QList<int> choices();
    /** "Off", "10 s", "1 min", ... */
    static QString choiceText(int seconds);
    static QString settingsKey();

    int intervalSeconds() const { return m_seconds; }
    /** Sets and remembers the interval (0 turns auto refresh off). */
    void setIntervalSeconds(int seconds);
    /** A period that is not remembered and need not be one of choices() (tests, demos). */
    void setPeriod(std::chrono::milliseconds period);
    bool isActive() const;
    /** Returns true while a load runs: that tick is skipped. */
    void setBusyCheck(std::function<bool()> busy) { m_busy = std::move(busy); }
    /** Ticks skipped because a load was still running. */
    int skippedTicks() const { return m_skipped; }

Q_SIGNALS:
    void refreshDue();
    void intervalChanged(int seconds);

private:
    void tick();

    QTimer *m_timer;
    std::function<bool()> m_busy;
    int m_seconds = 0;
    int m_skipped = 0;
};

} // namespace MqttDoctor
