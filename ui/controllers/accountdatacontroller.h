#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <memory>

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "diagnosis/accountsample.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/coveragegap.h"
#include "diagnosis/findinglist.h"
#include "diagnosis/interestholder.h"
#include "history/checkrecord.h"
#include "models/consumertablemodel.h"
#include "nats/profile.h"
#include "records/accountinflight.h"
#include "records/retainedloader.h"
#include "records/sessioninflight.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * The GUI's reads of one account's MQTT data. The findings, the sessions and the consumers with their
 * owners all come from one AccountSnapshot load (AccountSnapshotLoader): one refresh of an account
 * reads its streams, CONSUMER.LIST, CONNZ and `$MQTT_sess` once, with the servers the connection set
 * already knows, and the views agree (one orphan rule, ConsumerOwner). The sessions arrive batch by
 * batch as the snapshot reads them; a view opened later gets the batches read so far at once and the
 * rest as they come. loadFindings()/loadSessions()/loadConsumers() deliver from the current snapshot
 * of the account (loading or loaded), starting one when there is none; refresh() starts a new one.
 * Retained messages (RetainedLoader) and one session record's raw bytes are loads of their own.
 *
 * Every read runs on a worker pool through the profile's own ConnectionSet; results arrive as signals
 * on the GUI thread. Each kind of delivery and the snapshot have a generation token: starting again (a
 * refresh, another account) drops whatever the previous one still delivers. Records need the
 * account's credentials (AccountRecordAccess::resolve); without them the sessions and consumers fail with the
 * core's InvalidInput error and hint, and the findings say why the records were not checked.
 *
 * Threads: every member function is for the GUI thread. Shutdown (shutdown(), also from the
 * destructor): cancel the reads, drain the pool, drop the connections on a worker.
 */
class AccountDataController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountDataController)

public:
    enum class Load { Findings, Sessions, Retained, Consumers, RawSession, SessionInflight, AccountInflight };
    Q_ENUM(Load)

    explicit AccountDataController(QObject *parent = nullptr);
    ~AccountDataController() override;

    /** Uses this profile from now on (its own connections, made on first use); drops running loads. */
    void setProfile(const Profile &profile);
    /**
     * Uses connections shared with another reader of the same profile (ClusterController::connectionSet),
     * so there is one set of connections per cluster; drops running loads. Null: as clearProfile().
     */
    void setConnections(std::shared_ptr<ConnectionSet> connections);
    void clearProfile();
    /** The check options of the account views' findings (thresholds such as CheckOptions::pinnedWarnAt); defaults until set. */
    void setCheckOptions(const CheckOptions &options) { m_checkOptions = options; }
    const CheckOptions &checkOptions() const { return m_checkOptions; }
    /**
     * Whether each refresh also makes its CheckRecord (on the worker, with the profile's servers as its
     * URLs) and hands it over in checkRecorded for the local history; off until set.
     */
    void setHistoryRecording(bool on) { m_historyRecording = on; }
    bool hasProfile() const { return m_connections != nullptr; }
    /** The profile allows changes (repairs); false without a profile. */
    bool changesAllowed() const;
    /** Whether records of the account can be read (credentials, or the primary user's own account). */
    bool canReadRecords(const QString &account) const;
    void shutdown();

    /** Reads the account again: a new snapshot (refreshStarted); the views attached to it get its results. */
    void refresh(const QString &account);
    /** The account's findings from its current snapshot (findingsLoaded). */
    void loadFindings(const QString &account);
    /**
     * The account's sessions from its current snapshot, batch by batch (sessionsBatch per batch, then
     * sessionsFinished). `batchSize`: the batches of a snapshot this call starts.
     */
    void loadSessions(const QString &account, int batchSize = kDefaultBatchSize);
    void loadRetained(const QString &account);
    /**
     * The account's consumers and their owners from its current snapshot (consumersLoaded), and who holds
     * messages in the interest streams (interestHoldersLoaded), both from the same snapshot.
     */
    void loadConsumers(const QString &account);
    /** The stored bytes of `$MQTT_sess` message `seq` (rawSessionLoaded). */
    void loadRawSession(const QString &account, quint64 seq);
    /** What is in flight for one decoded session (message gets only; sessionInflightLoaded). */
    void loadSessionInflight(const QString &account, const SessionEntry &entry, int limit = 100);
    /** What is in flight in the account: sessions, oldest messages, QoS 2 records without a session (accountInflightLoaded). */
    void loadAccountInflight(const QString &account);
    /** Stops a running load (it still ends with its finished signal, `cancelled` set). */
    void cancel(Load load);
    bool isLoading(Load load) const;
    /** True while any load runs. */
    bool isBusy() const;
    /** How many account snapshots were started (for tests: one per refresh). */
    int snapshotLoads() const { return m_snapshotLoads; }

    static constexpr int kDefaultBatchSize = 2048;

Q_SIGNALS:
    /** refresh() started reading `account` again: the views of it should attach to the new snapshot. */
    void refreshStarted(const QString &account);
    /** `gaps`: what the findings do not cover and why (CoverageGap). */
    void findingsLoaded(const QString &account, const MqttDoctor::FindingList &findings, const QList<MqttDoctor::CoverageGap> &gaps);
    void sessionsBatch(const QString &account, const QList<MqttDoctor::SessionEntry> &batch, quint64 done, quint64 total);
    /** `note`: what is unknown (connected state without a system connection, no `$MQTT_sess` yet). */
    void sessionsFinished(const QString &account, bool cancelled, const QString &note);
    void retainedBatch(const QString &account, const QList<MqttDoctor::RetainedEntry> &batch, quint64 done, quint64 total);
    void retainedFinished(const QString &account, bool cancelled, const QString &note);
    void consumersLoaded(const QString &account, const QList<MqttDoctor::ConsumerRow> &consumers);
    /** Right after consumersLoaded: the holders of `$MQTT_msgs`/`$MQTT_out` messages, most bytes first. */
    void interestHoldersLoaded(const QString &account, const QList<MqttDoctor::InterestHolder> &holders);
    void rawSessionLoaded(const QString &account, quint64 seq, const QByteArray &data);
    void sessionInflightLoaded(const QString &account, quint64 seq, const MqttDoctor::SessionInflight &inflight);
    void accountInflightLoaded(const QString &account, const MqttDoctor::AccountInflight &inflight);
    /** A load failed: what, why, what to do (the core's error, e.g. missing account credentials). */
    void failed(MqttDoctor::AccountDataController::Load load, const QString &account, const MqttDoctor::Error &error);
    void loadingChanged(MqttDoctor::AccountDataController::Load load, bool loading);
    /**
     * A refresh read the account and made its findings: what the history keeps of it (setHistoryRecording;
     * source "gui"), made on the worker after the findings went to the views.
     */
    void checkRecorded(const QString &account, std::shared_ptr<const MqttDoctor::CheckRecord> check);
    /** A load finished on the connections (it may have opened some: bridge their events). */
    void connectionsUsed();

private:
    struct Slot
    {
        quint64 generation = 0;
        bool loading = false;
        std::shared_ptr<std::atomic<bool>> cancel;
    };

    /** Starts a load of `kind`: a new generation, a fresh cancel flag; returns the generation. */
    quint64 begin(Load kind);
    /** Delivers on the GUI thread when `generation` is still current. */
    template<typename Fn>
    void post(Load kind, quint64 generation, Fn &&fn);
    void finish(Load kind, quint64 generation);
    void fail(Load kind, quint64 generation, const QString &account, const Error &error);
    Slot &slot(Load kind) { return m_slots[int(kind)]; }
    void dropAll();

    /** What a snapshot load gave, made on the worker (everything the views need, no connection). */
    struct Outcome
    {
        std::optional<Error> error; ///< the account could not be read at all
        std::optional<Error> recordsError; ///< its records could not be read
        FindingList findings;
        QList<CoverageGap> findingGaps;
        QList<ConsumerRow> consumers;
        QList<InterestHolder> holders;
        /** The snapshot's own sample: the next refresh of the account compares with it. */
        std::optional<AccountSample> sample;
        bool sessionsComplete = false;
        bool sessionsCancelled = false;
        QString sessionsNote;
    };
    /** The current snapshot as the GUI thread holds it: the session batches so far and, once done, the outcome. */
    struct Snapshot
    {
        QString account;
        quint64 generation = 0;
        bool started = false;
        bool done = false;
        bool sessionsRead = false; ///< the outcome's session part is in (before done: findings still to come)
        std::shared_ptr<std::atomic<bool>> cancel;
        QList<QList<SessionEntry>> batches; ///< shared with the sessions view's model
        QList<ReadProgress> progress; ///< per batch
        Outcome outcome;
    };

    /** A new snapshot of `account`; the views attached to the previous one, but `keep`, are let go. */
    void startSnapshot(const QString &account, int batchSize, std::optional<Load> keep);
    /** Delivery of `kind` attaches to the account's snapshot (starting one when there is none). */
    void attach(Load kind, const QString &account, int batchSize = kDefaultBatchSize);
    void deliver(Load kind);
    void deliverSessions();
    void snapshotBatch(quint64 generation, const QList<SessionEntry> &batch, const ReadProgress &progress);
    /** Every session is read (the findings and owners are still being made): the sessions view is done. */
    void snapshotSessionsRead(quint64 generation, const Outcome &sessionsRead);
    void snapshotDone(quint64 generation, const Outcome &outcome);
    static Outcome outcomeOf(ConnectionSet &connections, const QString &account, const std::atomic<bool> &cancel, int batchSize,
                             const std::function<bool(QList<SessionEntry> &&, const ReadProgress &)> &onBatch,
                             const std::function<void(const Outcome &sessionsRead)> &onSessionsRead,
                             const std::optional<AccountSample> &previous = std::nullopt, const CheckOptions &checkOptions = {},
                             std::optional<DiagnosisInput> *checked = nullptr);

    std::unique_ptr<AsyncRunner> m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    Slot m_slots[7];
    Snapshot m_snapshot;
    qsizetype m_sessionsDelivered = 0; ///< batches of the snapshot emitted to the attached sessions view
    int m_snapshotLoads = 0;
    /** Each account's sample of its last complete refresh (the two-sample checks of the next one). */
    QHash<QString, AccountSample> m_lastSamples;
    CheckOptions m_checkOptions;
    bool m_historyRecording = false;
    bool m_shutDown = false;
};

} // namespace MqttDoctor
