#pragma once

#include <atomic>
#include <memory>

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "diagnosis/finding.h"
#include "models/consumertablemodel.h"
#include "nats/profile.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * The GUI's reads of one account's MQTT data: findings (DiagnosisGatherer + Checks), sessions
 * (SessionLoader, batch by batch), retained messages (RetainedLoader), the consumers of
 * `$MQTT_msgs`/`$MQTT_out` with their owner sessions, and one session record's raw bytes. Every read
 * runs on its own worker pool through the profile's own ConnectionSet; results arrive as signals on
 * the GUI thread. Each kind of load has a generation token: starting it again (a refresh, another
 * account) drops whatever the previous one still delivers. Records need the account's credentials
 * (RecordSource::resolve); without them the load fails with the core's InvalidInput error and hint.
 *
 * Threads: every member function is for the GUI thread. Shutdown (shutdown(), also from the
 * destructor): cancel the reads, drain the pool, drop the connections on a worker.
 */
class AccountDataController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountDataController)

public:
    enum class Load { Findings, Sessions, Retained, Consumers, RawSession };
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
    bool hasProfile() const { return m_connections != nullptr; }
    /** Whether records of the account can be read (credentials, or the primary user's own account). */
    bool canReadRecords(const QString &account) const;
    void shutdown();

    void loadFindings(const QString &account);
    /** Sessions in batches of `batchSize` (sessionsBatch per batch, then sessionsFinished). */
    void loadSessions(const QString &account, int batchSize = 2048);
    void loadRetained(const QString &account);
    void loadConsumers(const QString &account);
    /** The stored bytes of `$MQTT_sess` message `seq` (rawSessionLoaded). */
    void loadRawSession(const QString &account, quint64 seq);
    /** Stops a running load (it still ends with its finished signal, `cancelled` set). */
    void cancel(Load load);
    bool isLoading(Load load) const;
    /** True while any load runs. */
    bool isBusy() const;

Q_SIGNALS:
    void findingsLoaded(const QString &account, const QList<MqttDoctor::Finding> &findings, const QStringList &notes);
    void sessionsBatch(const QString &account, const QList<MqttDoctor::SessionEntry> &batch, quint64 done, quint64 total);
    /** `note`: what is unknown (connected state without a system connection, no `$MQTT_sess` yet). */
    void sessionsFinished(const QString &account, bool cancelled, const QString &note);
    void retainedBatch(const QString &account, const QList<MqttDoctor::RetainedEntry> &batch, quint64 done, quint64 total);
    void retainedFinished(const QString &account, bool cancelled, const QString &note);
    void consumersLoaded(const QString &account, const QList<MqttDoctor::ConsumerRow> &consumers);
    void rawSessionLoaded(const QString &account, quint64 seq, const QByteArray &data);
    /** A load failed: what, why, what to do (the core's error, e.g. missing account credentials). */
    void failed(MqttDoctor::AccountDataController::Load load, const QString &account, const MqttDoctor::Error &error);
    void loadingChanged(MqttDoctor::AccountDataController::Load load, bool loading);
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

    std::unique_ptr<AsyncRunner> m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    Slot m_slots[5];
    bool m_shutDown = false;
};

} // namespace MqttDoctor
