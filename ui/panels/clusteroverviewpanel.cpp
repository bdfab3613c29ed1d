#include "clusteroverviewpanel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "models/clusterfindingsmodel.h"
#include "models/displayformat.h"
#include "widgets/accountrecordschart.h"
#include "widgets/severitybars.h"

namespace MqttDoctor {

ClusterOverviewPanel::ClusterOverviewPanel(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_bars(new SeverityBars(this)), m_records(new AccountRecordsChart(this)),
      m_codes(new QLabel(this)), m_servers(new QLabel(this)), m_filter(new QLineEdit(this)), m_model(new ClusterFindingsModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)), m_repair(new QPushButton(tr("&Repair These…"), this))
{
    setObjectName(QStringLiteral("clusterOverview"));
    m_summary->setObjectName(QStringLiteral("clusterSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_codes->setObjectName(QStringLiteral("clusterCodes"));
    m_codes->setTextFormat(Qt::RichText);
    m_codes->setWordWrap(true);
    m_servers->setObjectName(QStringLiteral("clusterServers"));
    m_servers->setTextFormat(Qt::RichText);
    m_servers->setWordWrap(true);
    m_filter->setObjectName(QStringLiteral("clusterFindingsFilter"));
    m_filter->setPlaceholderText(tr("Filter findings (account, code, stream, client ID, text)"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ClusterFindingsModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setObjectName(QStringLiteral("clusterFindings"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ClusterFindingsModel::SeverityColumn, Qt::DescendingOrder);
    m_repair->setObjectName(QStringLiteral("repairTheseButton"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    // The two charts side by side, each under its title: findings by severity, MQTT state per account.
    auto *charts = new QGridLayout;
    auto *barsTitle = new QLabel(tr("<b>Findings by severity</b>"), this);
    auto *recordsTitle = new QLabel(tr("<b>Session records and retained messages per account</b>"), this);
    recordsTitle->setToolTip(tr("Messages in each account's $MQTT_sess (one per session record) and $MQTT_rmsgs (one per "
                                "retained message) streams, as the last refresh read them"));
    charts->addWidget(barsTitle, 0, 0);
    charts->addWidget(recordsTitle, 0, 1);
    charts->addWidget(m_bars, 1, 0, Qt::AlignTop);
    charts->addWidget(m_records, 1, 1, Qt::AlignTop);
    charts->setColumnStretch(0, 2);
    charts->setColumnStretch(1, 3);
    charts->setHorizontalSpacing(24);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(charts);
    layout->addWidget(m_codes);
    layout->addWidget(m_servers);
    // The findings' clients and records, across accounts: each action takes one account's rows.
    m_rowActions =
        new RowActions(m_table, QStringLiteral("findings"),
                       RowActions::DeleteSessions | RowActions::Disconnect | RowActions::DropBacklog | RowActions::CopyClientId
                           | RowActions::CopyJson | RowActions::BackUp | RowActions::ShowInSessions | RowActions::ShowInConsumers,
                       [this](RowSelection::Detail detail) {
                           const QList<int> rows =
                               RowSelection::sourceRows(m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_model);
                           return RowSelection::ofFindings(*m_model, rows, detail);
                       });
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_rowActions->makeToolButton(this));
    filterRow->addWidget(m_repair);
    layout->addLayout(filterRow);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const QString account = index.data(ClusterFindingsModel::AccountRole).toString();
        if (!account.isEmpty())
            emit accountActivated(account);
    });
    connect(m_records, &AccountRecordsChart::accountActivated, this, &ClusterOverviewPanel::accountActivated);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ClusterOverviewPanel::updateRepairButton);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ClusterOverviewPanel::updateRepairButton);
    connect(m_repair, &QPushButton::clicked, this, [this] {
        QList<Finding> repairable;
        for (const Finding &f : selectedFindings())
            if (!f.repair.isEmpty())
                repairable << f;
        if (!repairable.isEmpty())
            emit repairRequested(repairable);
    });
    updateRepairButton();
    connect(m_records, &AccountRecordsChart::keyRequested, this, [this](AccountRecordRanking::Key key) {
        m_recordsKey = key;
        m_records->setRanking(m_records->ranking().withKey(key));
    });
}

ClusterOverviewPanel::~ClusterOverviewPanel() = default;

void ClusterOverviewPanel::setState(const QString &cluster, const QList<ServerInfo> &servers, int accounts, const FindingList &findings,
                                    const QHash<HealthBadge::Coverage, int> &coverage, const QDateTime &refreshed)
{
    QMap<Finding::Severity, int> bySeverity;
    QMap<QString, int> byCode;
    QHash<QString, Finding::Severity> codeSeverity;
    QStringList withProblems;
    for (qsizetype i = 0; i < findings.size(); ++i) {
        const Finding &f = findings.summaryAt(i); // severity, code and account: no finding is made
        ++bySeverity[f.severity];
        ++byCode[f.code];
        if (!codeSeverity.contains(f.code) || int(f.severity) > int(codeSeverity.value(f.code)))
            codeSeverity.insert(f.code, f.severity);
        if (f.severity != Finding::Severity::Info && !f.account.isEmpty() && !withProblems.contains(f.account))
            withProblems << f.account; // in the findings' order: the most severe first
    }
    m_bars->setCounts(bySeverity);

    const int full = coverage.value(HealthBadge::Coverage::Full);
    const int streamsOnly = coverage.value(HealthBadge::Coverage::StreamsOnly);
    const int checking = coverage.value(HealthBadge::Coverage::Checking);
    const int couldNot = coverage.value(HealthBadge::Coverage::CouldNotCheck);
    QString covered = tr("Checked fully (streams and session records, or nothing more to read): %1 of %2 accounts").arg(full).arg(accounts);
    if (checking > 0)
        covered += tr("; %1 being checked").arg(checking);
    if (streamsOnly > 0)
        covered += tr("; %1 streams only").arg(streamsOnly);
    if (couldNot > 0)
        covered += tr("; <b>%1 could not be checked</b> (their badges are crossed out; the tooltip says why)").arg(couldNot);
    const QString verdict = findings.isEmpty() && couldNot == 0 && streamsOnly == 0 && checking == 0 ? tr("No problem found.")
        : findings.isEmpty()
        ? tr("No problem found in what was checked.")
        : tr("%n account(s) with problems: %1", nullptr, int(withProblems.size()))
              .arg(withProblems.mid(0, 12).join(QStringLiteral(", ")) + (withProblems.size() > 12 ? tr(", …") : QString()));
    m_summary->setText(tr("<h3>Cluster %1</h3>%2, nats-server %3. %4, last read %5.<br>%6<br><b>%7</b>")
                           .arg(cluster.toHtmlEscaped(), DisplayFormat::serverCount(int(servers.size())),
                                DisplayFormat::serverVersions(servers).toHtmlEscaped(), DisplayFormat::accountCount(accounts),
                                refreshed.isValid() ? refreshed.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : tr("never"), covered,
                                verdict.toHtmlEscaped()));
    // The servers with their MQTT settings from VARZ: what decides redeliveries and what a client may hold.
    QStringList serverLines;
    for (const ServerInfo &s : servers) {
        QString line = QStringLiteral("<b>%1</b> %2").arg((s.name.isEmpty() ? s.id : s.name).toHtmlEscaped(), s.version.toHtmlEscaped());
        if (!s.mqttKnown) {
            line += tr(": MQTT settings unknown (no system connection)");
        } else if (s.mqttPort <= 0) {
            line += tr(": no MQTT listener");
        } else {
            QStringList settings{tr("MQTT %1:%2").arg(s.mqttHost.isEmpty() ? QStringLiteral("0.0.0.0") : s.mqttHost).arg(s.mqttPort)};
            if (const qint64 ackWait = s.mqtt.value(QLatin1String("ack_wait")).toInteger(); ackWait > 0)
                settings << tr("ack_wait %1 s").arg(double(ackWait) / 1e9, 0, 'g', 4);
            if (const qint64 pending = s.mqtt.value(QLatin1String("max_ack_pending")).toInteger(); pending > 0)
                settings << tr("max_ack_pending %1").arg(pending);
            if (const double tls = s.mqtt.value(QLatin1String("tls_timeout")).toDouble(); tls > 0)
                settings << tr("TLS timeout %1 s").arg(tls);
            if (!s.jsDomain.isEmpty())
                settings << tr("JetStream domain %1").arg(s.jsDomain.toHtmlEscaped());
            line += QStringLiteral(": ") + settings.join(QStringLiteral(", "));
        }
        serverLines << line;
    }
    m_servers->setText(serverLines.join(QStringLiteral("<br>")));

    QStringList codes;
    for (auto it = byCode.cbegin(); it != byCode.cend(); ++it)
        codes
            << QStringLiteral("%1&nbsp;×&nbsp;%2 (%3)").arg(it.value()).arg(it.key(), Finding::severityName(codeSeverity.value(it.key())));
    m_codes->setText(codes.isEmpty() ? QString() : tr("By code: %1").arg(codes.join(QStringLiteral(", "))));
    m_model->setFindings(findings);
    m_table->resizeColumnsToContents();
}

void ClusterOverviewPanel::setAccounts(const QList<AccountInfo> &accounts, bool wholeCluster)
{
    // Both orders in one pass; no copy of the accounts is kept.
    m_records->setRanking(AccountRecordRanking::rank(accounts, m_recordsKey, AccountRecordRanking::kDefaultTop, wholeCluster));
}

void ClusterOverviewPanel::setChangesAllowed(bool allowed, const QString &why)
{
    m_changesAllowed = allowed;
    m_whyNoChanges = why;
    updateRepairButton();
}

QList<Finding> ClusterOverviewPanel::selectedFindings() const
{
    QList<Finding> out;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : std::as_const(rows)) {
        const int source = m_proxy->mapToSource(row).row();
        if (source >= 0 && source < m_model->findings().size())
            out << m_model->findings().at(source);
    }
    return out;
}

void ClusterOverviewPanel::updateRepairButton()
{
    int repairable = 0;
    QStringList accounts;
    for (const Finding &f : selectedFindings())
        if (!f.repair.isEmpty()) {
            ++repairable;
            if (!accounts.contains(f.account))
                accounts << f.account;
        }
    m_repair->setEnabled(m_changesAllowed && repairable > 0);
    if (!m_changesAllowed)
        m_repair->setToolTip(tr("Repair is unavailable. %1").arg(m_whyNoChanges));
    else if (repairable == 0)
        m_repair->setToolTip(tr("Select findings with an automatic repair in the list (Ctrl+A selects every row shown)."));
    else
        m_repair->setToolTip(tr("Check %n account(s) afresh and plan the repair of the %1 selected finding(s) with a repair: %2", nullptr,
                                int(accounts.size()))
                                 .arg(repairable)
                                 .arg(accounts.join(QStringLiteral(", "))));
}

QString ClusterOverviewPanel::summaryText() const
{
    return m_summary->text();
}

QString ClusterOverviewPanel::serversText() const
{
    return m_servers->text();
}

} // namespace MqttDoctor
