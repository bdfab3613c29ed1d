#pragma once

#include <memory>

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include "common/error.h"
#include "models/accountrows.h"
#include "models/healthmap.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "nats/natsconnection.h"
#include "nats/profile.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionEventBridge;
class ConnectionSet;

/**
 * The GUI's handle on one cluster: owns the worker pool and the profile's ConnectionSet, runs
 * discovery on the pool and delivers the results on the GUI thread as signals. Has no widgets (it
 * can move to the core when a second front end needs it).
 *
 * With a fleet of accounts in mind, the GUI thread gets results it can apply without further work:
 * the accounts prepared for the tree (AccountRows: sorted by name, digests of their rows), and, once a load has
 * both servers and accounts, the stream-level diagnosis of every account (Checks::diagnose, pure)
 * computed on the pool as a HealthMap (healthLoaded()); a load counts as running until then.
 *
 * Threads: every member function is for the GUI thread; the network is only touched on the pool.
 * A generation token drops results of loads that were superseded (refresh, reconnect, cancel).
 * Shutdown order (shutdown(), also run by the destructor): detach the nats.c event bridge, drain
 * the pool, drop the connections.
 */
class ClusterController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterController)

public:
    enum class ConnectionState {
        NotConnected, ///< no profile yet, or disconnected on purpose
        Connecting, ///< a profile was given; the first load is running
        Connected, ///< the last load reached the servers
        Reconnecting, ///< nats.c lost a connection and is reconnecting
        Failed, ///< could not connect (see failed())
    };
    Q_ENUM(ConnectionState)

    explicit ClusterController(QObject *parent = nullptr);
    ~ClusterController() override;

    /** Drops the current connections (on the pool) and starts loading the new profile's cluster. */
    void connectTo(const Profile &profile);
    /** Loads servers and accounts (then their badges) again; results of a load still running are dropped. */
    void refresh();
    /** Stops waiting for the running loads (their requests end at the nats timeout, unseen). */
    void cancel();
    /** Forgets the profile and closes its connections. */
    void disconnectFromCluster();
    /** The explicit teardown; idempotent. Blocks until running requests end (bounded by timeouts). */
    void shutdown();

    bool hasProfile() const { return m_hasProfile; }
    /** The profile in use (secrets included, in memory only). */
    const Profile &profile() const { return m_profile; }
    bool isLoading() const { return m_pending > 0; }
    ConnectionState connectionState() const { return m_state; }
    /** Why the state is what it is ("connected to nats://...", "lost connection to ..."). */
    QString connectionDetail() const { return m_stateDetail; }
    int reconnectCount() const { return m_reconnects; }
    /** Milliseconds since the last connectTo() (-1 before any). */
    qint64 msSinceConnect() const { return m_sinceConnect.isValid() ? m_sinceConnect.elapsed() : -1; }
    QList<ServerInfo> servers() const { return m_servers; }
    QList<AccountInfo> accounts() const { return m_accounts; }
    /**
     * The profile's connections, for the other GUI-side readers of the same cluster (the account data
     * controller): one set of connections, so the status bar's state and reconnect count cover them
     * all. Null without a profile. The set is thread-safe; destroy the last reference on a worker.
     */
    std::shared_ptr<ConnectionSet> connectionSet() const { return m_connections; }
    /**
     * Bridges the connection events of connections opened since the last load (e.g. by the account
     * data controller through connectionSet()). Runs on the pool; GUI thread.
     */
    void watchNewConnections();
    /** The worker pool, for other GUI-side helpers that need to run blocking core calls. */
    AsyncRunner &runner() { return *m_runner; }

    static QString stateName(ConnectionState state);

Q_SIGNALS:
    /** connectTo() or disconnectFromCluster() changed profile(). */
    void profileChanged();
    void loadingChanged(bool loading);
    void serversLoaded(const QList<MqttDoctor::ServerInfo> &servers);
    /** The accounts, prepared for the tree on the pool (sorted by AccountSort::nameLess, digests). */
    void accountsLoaded(const MqttDoctor::AccountRows &rows);
    /**
     * The stream-level badges of every account of the last servers and accounts delivered, after both
     * (the last signal of a successful load).
     */
    void healthLoaded(const MqttDoctor::HealthMap &health);
    /** A load failed; the error says what, why and what to do. */
    void failed(const MqttDoctor::Error &error);
    void connectionStateChanged(MqttDoctor::ClusterController::ConnectionState state, const QString &detail);
    void reconnectCountChanged(int count);

private:
    friend class ConnectionEventBridge;

    template<typename T>
    struct Outcome;

    void handleConnectionEvent(quint64 epoch, const QString &role, const ConnectionEvent &event);
    template<typename T>
    void startLoad(Result<T> (*load)(ConnectionSet &), void (ClusterController::*deliver)(const T &));
    void deliverServers(const QList<ServerInfo> &servers);
    void deliverAccounts(const AccountRows &rows);
    /** Once this load delivered both servers and accounts: their badges, computed on the pool. */
    void startHealth();
    /** Drops the last reference to an account list on the pool. */
    void releaseOnPool(QList<AccountInfo> accounts);
    void finishLoad(const Error *error, const QString &connectedUrl);
    void setState(ConnectionState state, const QString &detail);
    void setPending(int pending);
    void dropConnections();

    std::unique_ptr<AsyncRunner> m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    std::shared_ptr<ConnectionEventBridge> m_bridge;
    Profile m_profile;
    bool m_hasProfile = false;
    bool m_shutDown = false;
    quint64 m_generation = 0; ///< bumped by every refresh/cancel: older results are dropped
    quint64 m_epoch = 0; ///< bumped by every connectTo: older connection events are dropped
    int m_pending = 0;
    bool m_failureReported = false;
    bool m_serversDelivered = false; ///< by the running load
    bool m_accountsDelivered = false; ///< by the running load
    QElapsedTimer m_sinceConnect;
    ConnectionState m_state = ConnectionState::NotConnected;
    QString m_stateDetail;
    QString m_connectedUrl;
    QSet<QString> m_downRoles; ///< connections nats.c reported as disconnected
    int m_reconnects = 0;
    QList<ServerInfo> m_servers;
    QList<AccountInfo> m_accounts;
};

} // namespace MqttDoctor
