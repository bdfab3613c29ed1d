#pragma once

#include <QHash>
#include <QList>
#include <QWidget>

#include "diagnosis/findinglist.h"
#include "diagnosis/interestholder.h"
#include "panels/panelloadstate.h"

class QChart;
class QChartView;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace MqttDoctor {

class AccountDataController;
class Error;
class PinnedTableModel;
class RowActions;

/**
 * Who keeps messages in `$MQTT_msgs`/`$MQTT_out` (interest retention): a table of every holder (sessions,
 * connected clean-session clients, orphaned durables by hash) with messages, estimated bytes, connected
 * and when the record was written, beside a bar chart of the 20 holders with the most bytes. Offline
 * sessions that an INTEREST_PINNED finding names are marked; for the selected one, "Delete Session…"
 * opens the repair (delete_session, backed up first) with that finding. Same snapshot as the consumers
 * view (AccountDataController::loadConsumers). GUI thread.
 */
class PinnedPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PinnedPanel)

public:
    /** How many holders the chart shows. */
    static constexpr int kChartedHolders = 20;

    explicit PinnedPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~PinnedPanel() override;

    void setAccount(const QString &account);
    void ensureLoaded();
    void reload();
    bool isLoading() const { return m_loadState->isLoading(); }
    bool isLoaded() const { return m_loadState->isLoaded(); }
    PinnedTableModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    QChart *chart() const { return m_chart; }
    QPushButton *repairButton() const { return m_repair; }
    /** The actions on the selected holders' sessions (drop the backlog, delete, disconnect, ...). */
    RowActions *rowActions() const { return m_rowActions; }
    QString statusText() const { return m_loadState->statusText(); }
    /** The chart's categories, top bar first. */
    QStringList chartedNames() const { return m_charted; }
    /** Selects the holder named `name` (client ID or "(hash …)"); false when absent. */
    bool selectHolder(const QString &name);

Q_SIGNALS:
    void loadFinished();
    /** The repair of these findings was asked for (the main window opens the repair wizard). */
    void repairRequested(const QList<MqttDoctor::Finding> &findings);

private:
    void handleLoaded(const QString &account, const QList<InterestHolder> &holders);
    void handleFindings(const QString &account, const FindingList &findings);
    void handleFailed(const Error &error);
    void updateChart();
    void updateRepairButton();
    /** The INTEREST_PINNED finding of the selected row, if any. */
    const Finding *selectedFinding() const;

    AccountDataController &m_controller;
    PanelLoadState *m_loadState;
    PinnedTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QChart *m_chart;
    QChartView *m_chartView;
    QPushButton *m_repair;
    RowActions *m_rowActions = nullptr;
    QHash<QString, Finding> m_pinnedFindings; ///< INTEREST_PINNED findings by client ID
    QStringList m_charted;
};

} // namespace MqttDoctor
