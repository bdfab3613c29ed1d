#include "autorefresh.h"

#include <QSettings>
#include <QTimer>

namespace MqttDoctor {

AutoRefresh::AutoRefresh(QObject *parent) : QObject(parent), m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &AutoRefresh::tick);
    const int stored = QSettings().value(settingsKey(), 0).toInt();
    m_seconds = choices().contains(stored) ? stored : 0;
    if (m_seconds > 0)
        m_timer->start(std::chrono::seconds(m_seconds));
}

AutoRefresh::~AutoRefresh() = default;

QList<int> AutoRefresh::choices()
{
    return {0, 10, 30, 60, 300};
}

QString AutoRefresh::choiceText(int seconds)
{
    if (seconds <= 0)
        return tr("Off");
    if (seconds % 60 == 0)
        return tr("%1 min").arg(seconds / 60);
    return tr("%1 s").arg(seconds);
}

QString AutoRefresh::settingsKey()
{
    return QStringLiteral("view/autoRefreshSeconds");
}

void AutoRefresh::setIntervalSeconds(int seconds)
{
    seconds = std::max(0, seconds);
    QSettings().setValue(settingsKey(), seconds);
    const bool changed = seconds != m_seconds;
    m_seconds = seconds;
    if (seconds > 0)
        m_timer->start(std::chrono::seconds(seconds));
    else
        m_timer->stop();
    if (changed)
        emit intervalChanged(seconds);
}

void AutoRefresh::setPeriod(std::chrono::milliseconds period)
{
    if (period.count() > 0)
        m_timer->start(period);
    else
        m_timer->stop();
}

bool AutoRefresh::isActive() const
{
    return m_timer->isActive();
}

void AutoRefresh::tick()
{
    if (m_busy && m_busy()) {
        ++m_skipped;
        return;
    }
    emit refreshDue();
}

} // namespace MqttDoctor
