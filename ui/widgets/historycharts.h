#pragma once

#include <QDateTime>
#include <QList>
#include <QWidget>

#include "diagnosis/finding.h"
#include "history/historyquery.h"

class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QPushButton;
class QValueAxis;

namespace MqttDoctor {

/**
 * The History tab's two charts of one account over a window of time: "Findings by severity over time"
 * (one line per severity, critical to info, in the badges' colours: HealthBadge::colour) and "Sessions,
 * retained and queued messages over time" (one line each, in steps: a count holds until it changes, as
 * the history writes it only then; a count not known then is left out).
 * X: local time (QDateTimeAxis over the window); Y: from 0. Dragging across a chart zooms into that
 * time range (a horizontal rubber band); "Reset zoom", a double-click or the right button go back.
 * Backgrounds, text and grid follow the palette. Shows points it is given; reads nothing. GUI thread.
 */
class HistoryCharts final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryCharts)

public:
    enum class Count { Sessions, Retained, QueuedMessages };

    explicit HistoryCharts(QWidget *parent = nullptr);
    ~HistoryCharts() override;

    /** Shows a window's points (from `since` to `until`, UTC; invalid `until`: now); resets the zoom. */
    void setPoints(const QDateTime &since, const QDateTime &until, const QList<HistoryQuery::SeverityPoint> &severities,
                   const QList<HistoryQuery::CountsPoint> &counts);
    /** No points (another account, a failed read). */
    void clear();
    /** Back to the whole window in both charts. */
    void resetZoom();
    /** Zooms both charts into `from` to `to` (what dragging across a chart does); resetZoom() goes back. */
    void zoomTo(const QDateTime &from, const QDateTime &to);

    QLineSeries *severitySeries(Finding::Severity severity) const;
    QLineSeries *countSeries(Count count) const;
    QChartView *severityView() const { return m_severityView; }
    QChartView *countsView() const { return m_countsView; }
    QDateTimeAxis *severityTimeAxis() const { return m_severityTime; }
    QDateTimeAxis *countsTimeAxis() const { return m_countsTime; }
    QPushButton *resetZoomButton() const { return m_reset; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QChartView *makeView(QChart *chart, const QString &objectName);
    void applyPalette();
    void setTimeRange(const QDateTime &since, const QDateTime &until);
    /** The time labels' format for what an axis shows now: seconds within minutes, dates over days. */
    static void fitFormat(QDateTimeAxis *axis);

    QChart *m_severityChart;
    QChart *m_countsChart;
    QChartView *m_severityView;
    QChartView *m_countsView;
    QDateTimeAxis *m_severityTime;
    QDateTimeAxis *m_countsTime;
    QValueAxis *m_severityY;
    QValueAxis *m_countsY;
    QLineSeries *m_severity[4]{}; ///< critical, error, warning, info
    QLineSeries *m_counts[3]{}; ///< sessions, retained, queued messages
    QPushButton *m_reset;
};

} // namespace MqttDoctor
