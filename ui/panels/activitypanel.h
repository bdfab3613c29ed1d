#pragma once

#include <QWidget>

#include "activity/takeoverwatch.h"

class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QLineSeries;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QValueAxis;

namespace MqttDoctor {

class ActivityFeed;
class ClientEventModel;
class NoticeLabel;
class RowActions;

/**
 * The Activity tab of an account: its MQTT clients connecting and disconnecting as they happen (a
 * filterable list, newest at the bottom and followed while the view is at the bottom), a chart of the
 * connects and disconnects per minute over the last hour, and a banner when a client ID of the
 * account is in a takeover storm (two devices sharing it). Reads the main window's ActivityFeed and
 * ClientEventModel (one feed for every account). GUI thread.
 */
class ActivityPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActivityPanel)

public:
    explicit ActivityPanel(QWidget *parent = nullptr);
    ~ActivityPanel() override;

    void setSources(ActivityFeed *feed, ClientEventModel *events);
    void setAccount(const QString &account);
    QString account() const { return m_account; }

    QTableView *view() const { return m_table; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QLineEdit *filterEdit() const { return m_filter; }
    /** The actions on the selected events' clients (disconnect, delete the session, show it, ...). */
    RowActions *rowActions() const { return m_rowActions; }
    /** The takeover banner's text (empty when hidden) and the feed's state line. */
    QString bannerText() const;
    QString statusText() const;
    /** The chart's totals over the hour: connects, disconnects. */
    std::pair<int, int> chartTotals() const { return m_totals; }

private:
    void updateChart();
    void updateStatus();
    void showStorm(const TakeoverWatch::Storm &storm);

    ActivityFeed *m_feed = nullptr;
    ClientEventModel *m_events = nullptr;
    QString m_account;
    QLabel *m_status;
    NoticeLabel *m_banner;
    QLineEdit *m_filter;
    QSortFilterProxyModel *m_accountProxy;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QChart *m_chart;
    QChartView *m_chartView;
    QLineSeries *m_connects;
    QLineSeries *m_disconnects;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    QTimer *m_chartTimer;
    RowActions *m_rowActions = nullptr;
    std::pair<int, int> m_totals{0, 0};
};

} // namespace MqttDoctor
