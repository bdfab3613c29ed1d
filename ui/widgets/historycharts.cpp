#include "historycharts.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPushButton>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

#include "models/healthbadge.h"

namespace MqttDoctor {

namespace {

constexpr Finding::Severity kSeverities[] = {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning,
                                             Finding::Severity::Info};
/** Up to this many points a series marks each check (a single check is a visible dot). */
constexpr qsizetype kMarkedPoints = 60;

int severityIndex(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Critical: return 0;
    case Finding::Severity::Error: return 1;
    case Finding::Severity::Warning: return 2;
    case Finding::Severity::Info: break;
    }
    return 3;
}

int severityCount(const HistoryQuery::SeverityPoint &p, Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Critical: return p.critical;
    case Finding::Severity::Error: return p.error;
    case Finding::Severity::Warning: return p.warning;
    case Finding::Severity::Info: break;
    }
    return p.info;
}

qint64 countOf(const HistoryQuery::CountsPoint &p, HistoryCharts::Count count)
{
    switch (count) {
    case HistoryCharts::Count::Sessions: return p.sessions;
    case HistoryCharts::Count::Retained: return p.retained;
    case HistoryCharts::Count::QueuedMessages: break;
    }
    return p.queuedMessages;
}

/** 0 to `top` with whole-number ticks. */
void setCountRange(QValueAxis *axis, qint64 top)
{
    if (top <= 5) {
        const qint64 end = std::max<qint64>(1, top);
        axis->setRange(0, qreal(end));
        axis->setTickCount(int(end) + 1);
        return;
    }
    axis->setTickCount(6);
    axis->setRange(0, qreal(top) * 1.05);
    axis->applyNiceNumbers();
}

void setSeriesPoints(QLineSeries *series, const QList<QPointF> &points)
{
    series->replace(points);
    series->setPointsVisible(points.size() <= kMarkedPoints);
}

} // namespace

HistoryCharts::HistoryCharts(QWidget *parent)
    : QWidget(parent), m_severityChart(new QChart), m_countsChart(new QChart),
      m_severityView(makeView(m_severityChart, QStringLiteral("historySeverityChart"))),
      m_countsView(makeView(m_countsChart, QStringLiteral("historyCountsChart"))), m_severityTime(new QDateTimeAxis(m_severityChart)),
      m_countsTime(new QDateTimeAxis(m_countsChart)), m_severityY(new QValueAxis(m_severityChart)),
      m_countsY(new QValueAxis(m_countsChart)), m_reset(new QPushButton(tr("Reset zoom"), this))
{
    setObjectName(QStringLiteral("historyCharts"));
    m_severityChart->setTitle(tr("Findings by severity over time"));
    m_countsChart->setTitle(tr("Sessions, retained and queued messages over time"));
    m_severityY->setTitleText(tr("open findings"));

    for (Finding::Severity s : kSeverities) {
        auto *series = new QLineSeries(m_severityChart);
        series->setName(Finding::severityName(s));
        QPen pen(HealthBadge::colour(HealthBadge::fromSeverity(s)));
        pen.setWidthF(2);
        series->setPen(pen);
        series->setColor(pen.color());
        m_severity[severityIndex(s)] = series;
        m_severityChart->addSeries(series);
    }
    const QString countNames[] = {tr("sessions"), tr("retained"), tr("queued messages")};
    for (int i = 0; i < 3; ++i) {
        // The chart theme's series colours: no colour of our own for these.
        m_counts[i] = new QLineSeries(m_countsChart);
        m_counts[i]->setName(countNames[i]);
        m_countsChart->addSeries(m_counts[i]);
    }

    const auto setUp = [](QChart *chart, QDateTimeAxis *time, QValueAxis *y) {
        time->setFormat(QStringLiteral("HH:mm"));
        time->setTickCount(5);
        y->setLabelFormat(QStringLiteral("%d"));
        chart->addAxis(time, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries *series : chart->series()) {
            series->attachAxis(time);
            series->attachAxis(y);
        }
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->setBackgroundRoundness(0);
        chart->setAnimationOptions(QChart::NoAnimation);
    };
    setUp(m_severityChart, m_severityTime, m_severityY);
    setUp(m_countsChart, m_countsTime, m_countsY);

    for (QDateTimeAxis *axis : {m_severityTime, m_countsTime})
        connect(axis, &QDateTimeAxis::rangeChanged, this, [axis] { fitFormat(axis); });
    m_reset->setObjectName(QStringLiteral("historyResetZoom"));
    m_reset->setToolTip(tr("Show the whole window again (or double-click a chart). Drag across a chart to zoom into a time range."));
    connect(m_reset, &QPushButton::clicked, this, &HistoryCharts::resetZoom);

    auto *charts = new QHBoxLayout;
    charts->setContentsMargins(0, 0, 0, 0);
    charts->addWidget(m_severityView, 1);
    charts->addWidget(m_countsView, 1);
    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addStretch(1);
    buttons->addWidget(m_reset);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(charts, 1);
    layout->addLayout(buttons);

    applyPalette();
    clear();
}

HistoryCharts::~HistoryCharts() = default;

QChartView *HistoryCharts::makeView(QChart *chart, const QString &objectName)
{
    auto *view = new QChartView(chart, this);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setRubberBand(QChartView::HorizontalRubberBand);
    view->setMinimumHeight(200);
    view->viewport()->installEventFilter(this);
    return view;
}

void HistoryCharts::setPoints(const QDateTime &since, const QDateTime &until, const QList<HistoryQuery::SeverityPoint> &severities,
                              const QList<HistoryQuery::CountsPoint> &counts)
{
    resetZoom();
    int severityTop = 0;
    for (Finding::Severity s : kSeverities) {
        QList<QPointF> points;
        points.reserve(severities.size());
        for (const HistoryQuery::SeverityPoint &p : severities) {
            const int n = severityCount(p, s);
            severityTop = std::max(severityTop, n);
            points.append(QPointF(qreal(p.at.toMSecsSinceEpoch()), qreal(n)));
        }
        setSeriesPoints(m_severity[severityIndex(s)], points);
    }
    qint64 countsTop = 0;
    for (int i = 0; i < 3; ++i) {
        QList<QPointF> points;
        points.reserve(counts.size());
        for (const HistoryQuery::CountsPoint &p : counts) {
            const qint64 n = countOf(p, Count(i));
            if (n < 0)
                continue; // not known then: no point rather than a false zero
            countsTop = std::max(countsTop, n);
            const qreal x = qreal(p.at.toMSecsSinceEpoch());
            // A count holds until it changes (the history writes it only then): a step, not a slope.
            if (!points.isEmpty() && points.last().y() != qreal(n))
                points.append(QPointF(x, points.last().y()));
            points.append(QPointF(x, qreal(n)));
        }
        setSeriesPoints(m_counts[i], points);
    }
    setCountRange(m_severityY, severityTop);
    setCountRange(m_countsY, countsTop);
    setTimeRange(since, until);
}

void HistoryCharts::clear()
{
    resetZoom();
    for (QLineSeries *s : m_severity)
        s->clear();
    for (QLineSeries *s : m_counts)
        s->clear();
    setCountRange(m_severityY, 0);
    setCountRange(m_countsY, 0);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setTimeRange(now.addSecs(-3600), now);
}

void HistoryCharts::resetZoom()
{
    m_severityChart->zoomReset();
    m_countsChart->zoomReset();
}

QLineSeries *HistoryCharts::severitySeries(Finding::Severity severity) const
{
    return m_severity[severityIndex(severity)];
}

QLineSeries *HistoryCharts::countSeries(Count count) const
{
    return m_counts[int(count)];
}

void HistoryCharts::setTimeRange(const QDateTime &since, const QDateTime &until)
{
    const QDateTime end = until.isValid() ? until : QDateTime::currentDateTimeUtc();
    // QDateTimeAxis shows local time.
    for (QDateTimeAxis *axis : {m_severityTime, m_countsTime})
        axis->setRange(since.toLocalTime(), end.toLocalTime());
}

void HistoryCharts::fitFormat(QDateTimeAxis *axis)
{
    const qint64 span = axis->min().secsTo(axis->max());
    const QString format = span > 24 * 3600 ? QStringLiteral("MM-dd HH:mm")
        : span > 15 * 60                    ? QStringLiteral("HH:mm")
                                            : QStringLiteral("HH:mm:ss");
    if (axis->format() != format)
        axis->setFormat(format);
}

void HistoryCharts::zoomTo(const QDateTime &from, const QDateTime &to)
{
    for (QChart *chart : {m_severityChart, m_countsChart}) {
        QAbstractSeries *series = chart->series().constFirst();
        const QRectF plot = chart->plotArea();
        const qreal left = chart->mapToPosition(QPointF(qreal(from.toMSecsSinceEpoch()), 0), series).x();
        const qreal right = chart->mapToPosition(QPointF(qreal(to.toMSecsSinceEpoch()), 0), series).x();
        if (right > left)
            chart->zoomIn(QRectF(left, plot.top(), right - left, plot.height()));
    }
}

bool HistoryCharts::eventFilter(QObject *watched, QEvent *event)
{
    const auto isViewport = [watched](QChartView *view) { return view && watched == view->viewport(); };
    if (event->type() == QEvent::MouseButtonDblClick && (isViewport(m_severityView) || isViewport(m_countsView))) {
        resetZoom();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void HistoryCharts::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void HistoryCharts::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    for (QChart *chart : {m_severityChart, m_countsChart}) {
        chart->setBackgroundBrush(pal.brush(QPalette::Base));
        chart->setBackgroundPen(QPen(grid));
        chart->setTitleBrush(text);
        chart->legend()->setLabelColor(text);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsColor(text);
            axis->setTitleBrush(text);
            axis->setLinePenColor(grid);
            axis->setGridLineColor(grid);
        }
    }
    for (QChartView *view : {m_severityView, m_countsView})
        view->setBackgroundBrush(pal.brush(QPalette::Window));
}

} // namespace MqttDoctor
