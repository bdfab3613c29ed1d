#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QWidget>

#include "diagnosis/finding.h"
#include "models/accountrecordranking.h"
#include "models/healthbadge.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace MqttDoctor {

class AccountRecordsChart;
class ClusterFindingsModel;
class RowActions;
class SeverityBars;

/**
 * What is wrong in this cluster, and where: the page shown when the cluster (or its Accounts node) is
 * selected. The findings by severity (a small chart) and by code, how far the accounts were checked
 * (streams only, records, could not), the accounts with the most session records and retained messages (a
 * small chart whose rows open their account), the servers and versions, the last refresh; then every finding
 * of every account in one sortable, filterable table, the most severe first. Double-clicking a row
 * opens its account (accountActivated); "Repair These…" asks for the repair of the selected rows
 * across their accounts (repairRequested). GUI thread.
 */
class ClusterOverviewPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterOverviewPanel)

public:
    explicit ClusterOverviewPanel(QWidget *parent = nullptr);
    ~ClusterOverviewPanel() override;

    /**
     * `findings`: every finding (ClusterTreeModel::allFindings); `coverage`: how many accounts have each
     * coverage; `accounts`: how many there are; `refreshed`: when the cluster was last read.
     */
    void setState(const QString &cluster, const QList<ServerInfo> &servers, int accounts, const FindingList &findings,
                  const QHash<HealthBadge::Coverage, int> &coverage, const QDateTime &refreshed);

    /**
     * The accounts as discovery lists them, with their stream infos: the chart of session records and
     * retained messages per account. `wholeCluster`: a system connection listed every account.
     */
    void setAccounts(const QList<AccountInfo> &accounts, bool wholeCluster);

    QString summaryText() const;
    /** The servers with their MQTT settings (VARZ). */
    QString serversText() const;
    ClusterFindingsModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QLineEdit *filterEdit() const { return m_filter; }
    SeverityBars *bars() const { return m_bars; }
    AccountRecordsChart *recordsChart() const { return m_records; }
    QTableView *findingsView() const { return m_table; }
    QPushButton *repairButton() const { return m_repair; }
    /** The actions on the selected findings' clients and records (one account's at a time). */
    RowActions *rowActions() const { return m_rowActions; }

    /** Whether repairs are possible (the profile allows changes); `why` says how to turn them on when not. */
    void setChangesAllowed(bool allowed, const QString &why);
    /** The findings of the selected rows (in the table's order). */
    QList<Finding> selectedFindings() const;

Q_SIGNALS:
    void accountActivated(const QString &account);
    /** "Repair These…": the selected findings, with an automatic repair, across their accounts. */
    void repairRequested(const QList<Finding> &findings);

private:
    QLabel *m_summary;
    SeverityBars *m_bars;
    AccountRecordsChart *m_records;
    AccountRecordRanking::Key m_recordsKey = AccountRecordRanking::Key::Sessions; ///< the order the user chose
    QLabel *m_codes;
    QLabel *m_servers;
    QLineEdit *m_filter;
    ClusterFindingsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QPushButton *m_repair;
    RowActions *m_rowActions = nullptr;
    bool m_changesAllowed = false;
    QString m_whyNoChanges;

    void updateRepairButton();
};

} // namespace MqttDoctor
