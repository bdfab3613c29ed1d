#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include "controllers/historycontroller.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace MqttDoctor {

class HistoryCharts;

/**
 * The History tab of an account: what the local history (HistoryController) holds for a window of time
 * (the last hour, 6 hours, 24 hours or 7 days): how many checks were recorded then (none: the history
 * cannot tell what happened), the findings open at any time in the window (open or closed, severity,
 * code, client, title, first and last seen, how long open), two charts of the window (findings by
 * severity and the account's sessions, retained and queued messages at each check: HistoryCharts) and
 * "What changed", oldest first. The
 * queries run on the controller's worker; the panel only shows their answers. Colours from the palette.
 * GUI thread.
 */
class HistoryPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryPanel)

public:
    enum FindingColumn {
        StateColumn,
        SeverityColumn,
        CodeColumn,
        ClientColumn,
        TitleColumn,
        FirstSeenColumn,
        LastSeenColumn,
        OpenForColumn
    };

    explicit HistoryPanel(HistoryController &controller, QWidget *parent = nullptr);
    ~HistoryPanel() override;

    /**
     * The cluster whose database to read (HistoryLocation::clusterName) and the profile's URLs (before the
     * servers are known). True when they changed: what the panel shows is another cluster's until reload().
     */
    bool setCluster(const QString &cluster, const QStringList &urls);
    /** The account shown; its history is read when the panel is next reloaded. True when it changed. */
    bool setAccount(const QString &account);
    QString account() const { return m_account; }
    /** Reads the window again (on the controller's worker). */
    void reload();
    /** The window chosen, in seconds. */
    qint64 windowSeconds() const;
    bool isLoading() const { return m_loading; }
    /** A window's answer for the current account has been shown since the last reload(). */
    bool isLoaded() const { return m_loaded; }

    QComboBox *windowChooser() const { return m_window; }
    QString summaryText() const;
    QTableWidget *findingsTable() const { return m_findings; }
    QTreeWidget *changesList() const { return m_changes; }
    HistoryCharts *charts() const { return m_charts; }

Q_SIGNALS:
    void loadFinished();

private:
    void show(const HistoryController::View &view);
    void showFindings(const QList<HistoryQuery::FindingSpan> &findings);
    void showChanges(const QList<HistoryQuery::Entry> &changes);

    HistoryController &m_controller;
    QComboBox *m_window;
    QPushButton *m_reload;
    QLabel *m_summary;
    QTableWidget *m_findings;
    HistoryCharts *m_charts;
    QTreeWidget *m_changes;
    QString m_cluster;
    QStringList m_urls;
    QString m_account;
    bool m_loading = false;
    bool m_loaded = false;
};

} // namespace MqttDoctor
