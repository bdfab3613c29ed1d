#include "activitypanel.h"

#include <QChart>
#include <QHBoxLayout>
#include <QChartView>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "controllers/activityfeed.h"
#include "models/clienteventmodel.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

ActivityPanel::ActivityPanel(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_banner(new NoticeLabel(this)), m_filter(new QLineEdit(this)),
      m_accountProxy(new QSortFilterProxyModel(this)), m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)),
      m_chart(new QChart), m_chartView(new QChartView(m_chart, this)), m_connects(new QLineSeries(m_chart)),
      m_disconnects(new QLineSeries(m_chart)), m_axisX(new QValueAxis(m_chart)), m_axisY(new QValueAxis(m_chart)),
      m_chartTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("activityPanel"));
    m_status->setObjectName(QStringLiteral("activityStatus"));
    m_status->setWordWrap(true);
    m_banner->setObjectName(QStringLiteral("takeoverBanner"));
    m_banner->hide();
    m_filter->setObjectName(QStringLiteral("activityFilter"));
    m_filter->setPlaceholderText(tr("Filter events (client ID, reason, server, address)"));
    m_filter->setClearButtonEnabled(true);
    m_accountProxy->setFilterRole(ClientEventModel::AccountRole);
    m_accountProxy->setFilterKeyColumn(ClientEventModel::AccountColumn);
    m_proxy->setSourceModel(m_accountProxy);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setObjectName(QStringLiteral("activityEvents"));
    m_table->setModel(m_proxy);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    // Widths that fit the usual values (sized to contents, 20,000 rows would be measured each time).
    const QFontMetrics metrics = m_table->fontMetrics();
    const auto width = [&metrics](const QString &sample) { return metrics.horizontalAdvance(sample) + 24; };
    m_table->horizontalHeader()->resizeSection(ClientEventModel::TimeColumn, width(QStringLiteral("00:00:00.000")));
    m_table->horizontalHeader()->resizeSection(ClientEventModel::ClientColumn, width(QStringLiteral("a-client-id-of-some-length")));
    m_table->horizontalHeader()->resizeSection(ClientEventModel::EventColumn, width(QStringLiteral("disconnect")));
    m_table->horizontalHeader()->resizeSection(ClientEventModel::ReasonColumn, width(QStringLiteral("Duplicate Client ID")));
    m_table->horizontalHeader()->resizeSection(ClientEventModel::ServerColumn, width(QStringLiteral("a-server-name-12")));

    // Connects and disconnects per minute, the last hour (x: minutes ago).
    m_connects->setName(tr("Connects"));
    m_disconnects->setName(tr("Disconnects"));
    m_chart->addSeries(m_connects);
    m_chart->addSeries(m_disconnects);
    m_axisX->setRange(-59, 0);
    m_axisX->setLabelFormat(QStringLiteral("%d"));
    m_axisX->setTitleText(tr("minutes ago"));
    m_axisX->setTickCount(7);
    m_axisY->setLabelFormat(QStringLiteral("%d"));
    m_axisY->setTitleText(tr("per minute"));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    for (QLineSeries *s : {m_connects, m_disconnects}) {
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_chartView->setObjectName(QStringLiteral("activityChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(170);
    m_chartView->setMaximumHeight(220);

    m_rowActions = new RowActions(m_table, QStringLiteral("activity"),
                                  RowActions::Disconnect | RowActions::DeleteSessions | RowActions::CopyClientId | RowActions::CopyJson
                                      | RowActions::ShowInSessions | RowActions::ShowInConsumers,
                                  [this](RowSelection::Detail detail) {
                                      if (!m_events)
                                          return RowSelection();
                                      const QList<int> rows = RowSelection::sourceRows(
                                          m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_events);
                                      return RowSelection::ofEvents(*m_events, rows, detail);
                                  });
    auto *tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addWidget(m_rowActions->makeToolButton(this));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_banner);
    layout->addWidget(m_chartView);
    layout->addLayout(tools);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_chartTimer->setInterval(5000);
    connect(m_chartTimer, &QTimer::timeout, this, &ActivityPanel::updateChart);
    updateStatus();
}

ActivityPanel::~ActivityPanel() = default;

void ActivityPanel::setSources(ActivityFeed *feed, ClientEventModel *events)
{
    m_feed = feed;
    m_events = events;
    m_accountProxy->setSourceModel(events);
    connect(events, &QAbstractItemModel::rowsInserted, this, [this] {
        // Follow the newest while the list is at its bottom (an operator scrolled up to read: leave it).
        QScrollBar *bar = m_table->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2)
            QTimer::singleShot(0, m_table, &QTableView::scrollToBottom);
        if (isVisible())
            updateChart();
    });
    connect(feed, &ActivityFeed::takeoverStorm, this, &ActivityPanel::showStorm);
    connect(feed, &ActivityFeed::failed, this, &ActivityPanel::updateStatus);
    m_chartTimer->start();
    updateStatus();
}

void ActivityPanel::setAccount(const QString &account)
{
    if (account == m_account)
        return;
    m_account = account;
    m_accountProxy->setFilterRegularExpression(QRegularExpression(QStringLiteral("^%1$").arg(QRegularExpression::escape(account))));
    m_banner->clearNotice();
    m_banner->hide();
    if (m_feed)
        for (const TakeoverWatch::Storm &s : m_feed->takeovers().storms())
            if (s.account == account)
                showStorm(s);
    updateStatus();
    updateChart();
    m_table->scrollToBottom();
}

QString ActivityPanel::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

QString ActivityPanel::statusText() const
{
    return m_status->text();
}

void ActivityPanel::showStorm(const TakeoverWatch::Storm &storm)
{
    if (storm.account != m_account)
        return;
    m_banner->showNotice(tr("Takeover storm: client ID \"%1\" was replaced by a new connection with the same ID %2 times within "
                            "%3 minutes (from %4). Two devices (or two instances of one app) share this client ID and close each "
                            "other's connection at every CONNECT: give each device its own client ID.")
                             .arg(storm.clientId)
                             .arg(storm.takeovers)
                             .arg(m_feed ? m_feed->takeovers().options().windowMs / 60000 : 5)
                             .arg(storm.addresses.isEmpty() ? tr("unknown addresses") : storm.addresses.join(QStringLiteral(", "))),
                         NoticeLabel::Kind::Warning);
    m_banner->show();
}

void ActivityPanel::updateStatus()
{
    if (!m_feed)
        m_status->setText(tr("Live client events are not followed."));
    else if (m_feed->isRunning())
        m_status->setText(tr("Following the MQTT clients of account %1 as they connect and disconnect (the servers' system "
                             "advisories). The list keeps the last %2 events of every account.")
                              .arg(m_account)
                              .arg(ClientEventModel::kMaxEvents));
    else
        m_status->setText(tr("Live client events unavailable: %1").arg(m_feed->error()));
}

void ActivityPanel::updateChart()
{
    if (!m_events)
        return;
    const QList<ClientEventModel::Minute> minutes = m_events->perMinute(m_account, QDateTime::currentDateTimeUtc());
    QList<QPointF> connects, disconnects;
    int top = 1;
    m_totals = {0, 0};
    for (int i = 0; i < minutes.size(); ++i) {
        const qreal x = i - (minutes.size() - 1);
        connects << QPointF(x, minutes.at(i).connects);
        disconnects << QPointF(x, minutes.at(i).disconnects);
        top = std::max({top, minutes.at(i).connects, minutes.at(i).disconnects});
        m_totals.first += minutes.at(i).connects;
        m_totals.second += minutes.at(i).disconnects;
    }
    m_connects->replace(connects);
    m_disconnects->replace(disconnects);
    m_axisY->setRange(0, top + std::max(1, top / 10));
    m_chart->setTitle(tr("Last hour: %1 connects, %2 disconnects").arg(m_totals.first).arg(m_totals.second));
}

} // namespace MqttDoctor
