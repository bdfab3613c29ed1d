#pragma once

#include <memory>
#include <optional>

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "history/checkrecord.h"
#include "history/historyquery.h"

namespace MqttDoctor {

class AsyncRunner;

/**
 * The GUI's local history (HistoryDatabase, one SQLite file per cluster in a folder): record() writes
 * the check of a refresh (HistoryRecorder), load() reads what a window of time holds for an account
 * (HistoryQuery: the checks, the findings with first and last seen, what changed, the counts and the
 * findings by severity at each check for the charts).
 *
 * A Qt SQL connection belongs to the thread that opened it, so every task opens, uses and closes its
 * own HistoryDatabase on this controller's worker (one thread: the writes of two refreshes queue up
 * instead of waiting on SQLite's lock); the GUI thread never touches the database. Results arrive as
 * signals on the GUI thread; a load superseded by a newer one (or shutdown) is dropped.
 *
 * Threads: every member function is for the GUI thread.
 */
class HistoryController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryController)

public:
    /** What a window of the history holds for one account. */
    struct View
    {
        QString account;
        QString cluster;
        HistoryQuery::Window window;
        HistoryQuery::Checks checks;
        QList<HistoryQuery::FindingSpan> findings;
        QList<HistoryQuery::Entry> changes;
        /**
         * The account's counts over the window, oldest first (HistoryQuery::counts: where they changed, the
         * value at the window's start, the last value again at the last check): the counts chart.
         */
        QList<HistoryQuery::CountsPoint> counts;
        /**
         * The account's open findings by severity at each check of the window that saw one, oldest first, and
         * points of zeros at the window's first and last checks when they saw none: the severity chart.
         */
        QList<HistoryQuery::SeverityPoint> severities;
        /** The database could not be read (a missing database is no error: no checks). */
        std::optional<Error> error;
    };

    explicit HistoryController(QObject *parent = nullptr);
    ~HistoryController() override;

    /** The folder of the databases (HistoryLocation::folder of it: empty is the default folder). */
    void setFolder(const QString &folder);
    QString folder() const { return m_folder; }
    /** Whether record() writes (on by default). */
    void setRecording(bool on) { m_recording = on; }
    bool isRecording() const { return m_recording; }

    /** Writes `check` into its cluster's database on the worker (recorded or recordFailed). */
    void record(std::shared_ptr<const CheckRecord> check);
    /**
     * Reads the last `seconds` of `account`'s history in the database of `cluster` (or, when the
     * cluster is not known yet, the one recorded through one of `urls`) on the worker (loaded).
     */
    void load(const QString &cluster, const QStringList &urls, const QString &account, qint64 seconds);
    bool isLoading() const { return m_loading; }
    /**
     * Reads when the history first saw each of `account`'s findings that are open at its last check (the
     * cluster's own included), keyed by Finding::identity() (code|account|stream|subject|client|title), on
     * the worker (firstSeenLoaded). Nothing recorded, or the database unreadable: an empty map (the
     * Findings tab's column stays empty; never a made-up time).
     */
    void loadFirstSeen(const QString &cluster, const QStringList &urls, const QString &account);
    /** How many checks record() wrote (for tests). */
    int recordedCount() const { return m_recorded; }
    /** Drops what is queued and waits for the running task. */
    void shutdown();

Q_SIGNALS:
    void recorded(const QString &cluster, const QString &databasePath);
    /** The check was not written: why (the refresh itself is not affected). */
    void recordFailed(const MqttDoctor::Error &error);
    void loaded(const MqttDoctor::HistoryController::View &view);
    void loadingChanged(bool loading);
    void firstSeenLoaded(const QString &account, const QHash<QString, QDateTime> &firstSeen);

private:
    static View read(const QString &folder, const QString &cluster, const QStringList &urls, const QString &account, qint64 seconds);

    std::unique_ptr<AsyncRunner> m_runner;
    QString m_folder;
    bool m_recording = true;
    bool m_loading = false;
    bool m_shutDown = false;
    int m_recorded = 0;
    quint64 m_recordGeneration = 0; ///< bumped only by shutdown
    quint64 m_loadGeneration = 0;
    quint64 m_firstSeenGeneration = 0;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::HistoryController::View)
