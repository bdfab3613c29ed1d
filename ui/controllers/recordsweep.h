#pragma once

#include <atomic>
#include <memory>

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include "diagnosis/checkoptions.h"
#include "diagnosis/coveragegap.h"
#include "diagnosis/findinglist.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * The record-level checks of every account whose credentials the profile holds, in the background,
 * so the tree's badges converge to the whole truth without a click: each account's snapshot
 * (AccountSnapshotLoader: its streams, durables, CONNZ and session records) read and diagnosed on a
 * pool of kParallel lowest-priority threads, one result at a time on the GUI thread. Accounts without
 * credentials are reported as not checked, and why (at once, or, when the profile has a user of its own,
 * once a worker has asked which account that user belongs to: that account is checked); accounts with
 * more than kMaxRecords session records are left to the account view (reading them all is an explicit
 * act). start() drops a sweep still running; cancel() stops it (a snapshot being read ends at its
 * next batch). GUI thread only.
 */
class RecordSweep final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordSweep)

public:
    static constexpr int kParallel = 2;
    static constexpr qint64 kMaxRecords = 200000;

    explicit RecordSweep(QObject *parent = nullptr);
    ~RecordSweep() override;

    /**
     * Checks the records of `accounts` (those with JetStream and `$MQTT_sess`) through `connections`,
     * except `skip` (e.g. the account open in the window: its own view reads them already).
     */
    void start(std::shared_ptr<ConnectionSet> connections, const QList<ServerInfo> &servers, const QList<AccountInfo> &accounts,
               const QStringList &skip = {});
    void cancel();
    /** The options of the checks (the operator's thresholds) for the accounts started from now on. */
    void setCheckOptions(const CheckOptions &options) { m_checkOptions = options; }
    /** Cancels and waits for the reads (bounded by the nats timeouts). */
    void shutdown();
    bool isRunning() const { return m_running > 0 || !m_queue.isEmpty(); }
    int done() const { return m_done; }
    int total() const { return m_total; }

Q_SIGNALS:
    /** `account`'s records are being read now. */
    void accountStarted(const QString &account);
    /** `account`'s full findings and what they do not cover. */
    void accountChecked(const QString &account, const MqttDoctor::FindingList &findings, const QList<MqttDoctor::CoverageGap> &gaps);
    /** `account`'s records are not read by the sweep, and why (no credentials; too many records). */
    void accountSkipped(const QString &account, bool couldNotCheck, const QString &why);
    void progress(int done, int total);
    /** Every account of the sweep was checked (or skipped); not after cancel(). */
    void finished(int accounts, qint64 ms);

private:
    void startNext();

    std::unique_ptr<AsyncRunner> m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QList<ServerInfo> m_servers;
    CheckOptions m_checkOptions;
    QList<AccountInfo> m_queue;
    quint64 m_generation = 0;
    int m_running = 0;
    int m_done = 0;
    int m_total = 0;
    QElapsedTimer m_elapsed;
};

} // namespace MqttDoctor
