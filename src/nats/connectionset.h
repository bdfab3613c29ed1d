#pragma once

#include <chrono>
#include <memory>

#include <QMap>
#include <QMutex>
#include <QString>

#include "common/result.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "nats/profile.h"
#include "nats/requestcounter.h"
#include "nats/serverroster.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * The connections of one profile, made on first use and shared: the primary connection (the
 * profile's own credentials), the system connection, and one per account with credentials.
 * Thread-safe; connecting blocks, so call from a worker thread. Callers that wait while another
 * thread's attempt at the same connection fails get that failure instead of trying again; a call
 * made after it tries again.
 */
class ConnectionSet final
{
public:
    static constexpr int kMaxAccountConnections = 16;

    explicit ConnectionSet(Profile profile);
    ~ConnectionSet();

    const Profile &profile() const { return m_profile; }
    bool hasSystem() const { return m_profile.hasSystem(); }
    /** True when the profile names credentials for the account. */
    bool hasAccountCredentials(const QString &account) const { return m_profile.accounts.contains(account); }

    /** The profile's own connection; the system connection when only system credentials exist. */
    Result<std::shared_ptr<NatsConnection>> primary();
    /** The system-account connection; a NoSystemAccess error when the profile has none. */
    Result<std::shared_ptr<NatsConnection>> system();
    /**
     * A client for system requests on the system connection, sharing the set's ServerRoster (so the
     * servers are learnt once per set and every request knows whom to wait for).
     */
    Result<SystemClient> systemClient();
    /** The servers the set's system requests expect and those that did not answer. Any thread. */
    ServerRoster &roster() { return *m_roster; }
    const ServerRoster &roster() const { return *m_roster; }
    /**
     * The connection for an account: its own credentials, else nothing (NotFound). The set keeps the
     * most recently used kMaxAccountConnections of them open; older ones close once their last user
     * lets go (a check of thousands of accounts must not keep thousands of connections and their
     * threads open).
     */
    Result<std::shared_ptr<NatsConnection>> account(const QString &name);
    /**
     * The account the primary connection's user belongs to (asked of the server through CONNZ),
     * empty when the server cannot tell. Cached.
     */
    Result<QString> primaryAccountName();

    /**
     * Every connection made so far (for status display and event handlers). Waits while another
     * thread is connecting (connections are made under the lock): worker threads only.
     */
    QList<std::shared_ptr<NatsConnection>> openConnections() const;

    /** Every request the set's connections sent, those closed since included (RequestCounter). Any thread. */
    RequestCounter &requests() const { return *m_requests; }

    /**
     * The servers as Discovery::servers() last found them, while the roster has not changed since
     * (no server came, went silent, came back or went offline): nullopt when never found or changed.
     * Any thread.
     */
    std::optional<QList<ServerInfo>> knownServers() const;
    /** Keeps `servers` as found while the roster was at `rosterGeneration` (Discovery::servers()). */
    void setKnownServers(const QList<ServerInfo> &servers, quint64 rosterGeneration);
    /** Held while the servers are discovered, so that concurrent loads discover them once. */
    QMutex &discoveryMutex() { return m_discovery; }

private:
    Result<std::shared_ptr<NatsConnection>> connectCached(const QString &key, const Credentials &creds, const QString &role);

    Profile m_profile;
    mutable QMutex m_mutex;
    QMap<QString, std::shared_ptr<NatsConnection>> m_connections;
    struct Failure
    {
        Error error;
        std::chrono::steady_clock::time_point ended;
    };
    QMap<QString, Failure> m_failures; ///< the last failed attempt per key, for the callers that waited for it
    QStringList m_accountUse; ///< keys of account connections, least recently used first
    std::optional<QString> m_primaryAccount;
    std::shared_ptr<ServerRoster> m_roster = std::make_shared<ServerRoster>();
    std::shared_ptr<RequestCounter> m_requests = std::make_shared<RequestCounter>();
    QMutex m_discovery;
    std::optional<QList<ServerInfo>> m_servers; ///< under m_mutex
    quint64 m_serversGeneration = 0;
};

} // namespace MqttDoctor
