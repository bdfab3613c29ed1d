#include "clustercontroller.h"

#include <utility>

#include <QFuture>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "controllers/connectioneventbridge.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"

namespace MqttDoctor {

template<typename T>
struct ClusterController::Outcome
{
    Result<T> result;
    QString connectedUrl; ///< the URL a connection of the set is connected to, when one is
};

namespace {

bool isConnectError(Error::Kind kind)
{
    switch (kind) {
    case Error::Kind::ConnectionRefused:
    case Error::Kind::Dns:
    case Error::Kind::NotNatsServer:
    case Error::Kind::AuthFailed:
    case Error::Kind::Tls:
    case Error::Kind::InvalidInput:
    case Error::Kind::NoSystemAccess: return true;
    default: return false;
    }
}

/** Discovery::accounts, prepared for the tree here on the pool (sorted, digests), not on the GUI thread. */
Result<AccountRows> accountRows(ConnectionSet &connections)
{
    Result<QList<AccountInfo>> accounts = Discovery::accounts(connections);
    if (!accounts)
        return accounts.error();
    return AccountRows::prepare(std::move(accounts).value());
}

} // namespace

ClusterController::ClusterController(QObject *parent) : QObject(parent), m_runner(std::make_unique<AsyncRunner>(4)) {}

ClusterController::~ClusterController()
{
    shutdown();
}

QString ClusterController::stateName(ConnectionState state)
{
    switch (state) {
    case ConnectionState::NotConnected: return tr("Not connected");
    case ConnectionState::Connecting: return tr("Connecting");
    case ConnectionState::Connected: return tr("Connected");
    case ConnectionState::Reconnecting: return tr("Reconnecting");
    case ConnectionState::Failed: return tr("Connection failed");
    }
    return {};
}

void ClusterController::connectTo(const Profile &profile)
{
    if (m_shutDown)
        return;
    dropConnections();
    m_profile = profile;
    m_hasProfile = true;
    ++m_epoch;
    m_sinceConnect.start();
    m_connections = std::make_shared<ConnectionSet>(profile);
    m_bridge = std::make_shared<ConnectionEventBridge>(this, m_epoch);
    m_servers.clear();
    QList<AccountInfo> previous = std::exchange(m_accounts, {});
    m_downRoles.clear();
    m_connectedUrl.clear();
    m_reconnects = 0;
    emit reconnectCountChanged(0);
    emit profileChanged(); // the tree lets go of the accounts
    releaseOnPool(std::move(previous));
    setState(ConnectionState::Connecting, tr("Connecting to %1…").arg(profile.servers.join(QStringLiteral(", "))));
    refresh();
}

void ClusterController::refresh()
{
    if (m_shutDown || !m_connections)
        return;
    ++m_generation;
    m_failureReported = false;
    m_serversDelivered = false;
    m_accountsDelivered = false;
    // A refresh counts the servers again: one that came back or joined is waited for from now on.
    m_connections->roster().forget();
    setPending(2);
    startLoad<QList<ServerInfo>>(&Discovery::servers, &ClusterController::deliverServers);
    startLoad<AccountRows>(&accountRows, &ClusterController::deliverAccounts);
}

void ClusterController::cancel()
{
    if (m_pending == 0)
        return;
    ++m_generation;
    setPending(0);
    if (m_state == ConnectionState::Connecting)
        setState(ConnectionState::NotConnected, tr("Connecting was canceled"));
}

void ClusterController::disconnectFromCluster()
{
    if (m_shutDown)
        return;
    ++m_generation;
    ++m_epoch;
    dropConnections();
    m_hasProfile = false;
    m_profile = {};
    m_servers.clear();
    QList<AccountInfo> previous = std::exchange(m_accounts, {});
    m_downRoles.clear();
    setPending(0);
    emit profileChanged();
    releaseOnPool(std::move(previous));
    setState(ConnectionState::NotConnected, {});
}

void ClusterController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    ++m_generation;
    ++m_epoch;
    // 1. No more connection events; 2. drain the pool (running requests end at their timeout);
    // 3. drop the connections on a worker (closing one waits for nats.c's threads).
    if (m_bridge)
        m_bridge->detach();
    m_runner->shutdown([connections = std::move(m_connections), bridge = std::move(m_bridge)]() mutable {
        if (bridge)
            bridge->clearHandlers();
        connections.reset();
        bridge.reset();
    });
    m_pending = 0;
}

void ClusterController::watchNewConnections()
{
    if (m_shutDown || !m_connections || !m_bridge)
        return;
    static_cast<void>(m_runner->run([connections = m_connections, bridge = m_bridge] { bridge->attach(connections->openConnections()); }));
}

template<typename T>
void ClusterController::startLoad(Result<T> (*load)(ConnectionSet &), void (ClusterController::*deliver)(const T &))
{
    const quint64 generation = m_generation;
    std::shared_ptr<ConnectionSet> connections = m_connections;
    std::shared_ptr<ConnectionEventBridge> bridge = m_bridge;
    auto work = m_runner->run([connections, bridge, load]() -> Outcome<T> {
        Outcome<T> out{load(*connections), {}};
        const QList<std::shared_ptr<NatsConnection>> open = connections->openConnections();
        bridge->attach(open);
        for (const auto &c : open) {
            if (c->isConnected()) {
                out.connectedUrl = c->connectedUrl();
                break;
            }
        }
        return out;
    });
    // Dropped when a refresh, reconnect, cancel or shutdown bumped the generation since.
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this, deliver](const Outcome<T> &out) {
        if (out.result)
            (this->*deliver)(out.result.value());
        finishLoad(out.result ? nullptr : &out.result.error(), out.connectedUrl);
    });
}

void ClusterController::deliverServers(const QList<ServerInfo> &servers)
{
    m_servers = servers;
    m_serversDelivered = true;
    emit serversLoaded(servers);
    startHealth();
}

void ClusterController::deliverAccounts(const AccountRows &rows)
{
    QList<AccountInfo> previous = std::exchange(m_accounts, rows.accounts());
    m_accountsDelivered = true;
    emit accountsLoaded(rows); // the tree moves to the new list
    releaseOnPool(std::move(previous));
    startHealth();
}

void ClusterController::releaseOnPool(QList<AccountInfo> accounts)
{
    // Discovery's data of a fleet is thousands of JSON objects: freeing it took ~25 ms of the GUI
    // thread for 10,000 accounts. Called once the tree let go of it, so this is the last reference.
    if (accounts.isEmpty() || m_shutDown)
        return;
    static_cast<void>(m_runner->run([accounts = std::move(accounts)] {}));
}

void ClusterController::startHealth()
{
    if (!m_serversDelivered || !m_accountsDelivered)
        return;
    // Counted as part of the load (isLoading() until the badges are in); called before the delivering
    // load's finishLoad(), so the count never touches zero in between.
    setPending(m_pending + 1);
    const quint64 generation = m_generation;
    GuiDelivery::whenReady(m_runner->run([servers = m_servers, accounts = m_accounts] { return HealthMap::diagnose(servers, accounts); }),
                           this, m_generation, generation, [this](const HealthMap &health) {
                               emit healthLoaded(health);
                               setPending(m_pending - 1);
                           });
}

void ClusterController::finishLoad(const Error *error, const QString &connectedUrl)
{
    setPending(m_pending - 1);
    if (error) {
        // Both loads usually fail for the same reason (the connection): report it once.
        if (m_failureReported)
            return;
        m_failureReported = true;
        if (m_state != ConnectionState::Connected || isConnectError(error->kind()))
            setState(ConnectionState::Failed, error->message());
        emit failed(*error);
        return;
    }
    if (!connectedUrl.isEmpty())
        m_connectedUrl = connectedUrl;
    if (m_downRoles.isEmpty() && m_state != ConnectionState::Failed) {
        // Servers that did not answer the system requests: what they alone hold is not in the tree.
        QStringList silent;
        if (m_connections)
            for (const ServerRoster::Unanswered &u : m_connections->roster().unanswered())
                silent << (u.name.isEmpty() ? u.reason : u.name);
        setState(ConnectionState::Connected,
                 silent.isEmpty() ? tr("Connected to %1").arg(m_connectedUrl)
                                  : tr("Connected to %1; no answer from %2: what only they hold is not shown")
                                        .arg(m_connectedUrl, silent.join(QStringLiteral(", "))));
    }
}

void ClusterController::handleConnectionEvent(quint64 epoch, const QString &role, const ConnectionEvent &event)
{
    if (epoch != m_epoch || m_shutDown)
        return;
    switch (event.type) {
    case ConnectionEvent::Type::Disconnected:
        m_downRoles.insert(role);
        setState(ConnectionState::Reconnecting,
                 tr("Lost the %1 to %2; reconnecting…").arg(role, event.url.isEmpty() ? tr("the server") : event.url));
        break;
    case ConnectionEvent::Type::Reconnected:
        m_downRoles.remove(role);
        ++m_reconnects;
        emit reconnectCountChanged(m_reconnects);
        if (!event.url.isEmpty())
            m_connectedUrl = event.url;
        if (m_downRoles.isEmpty())
            setState(ConnectionState::Connected, tr("Reconnected to %1").arg(m_connectedUrl));
        break;
    case ConnectionEvent::Type::Closed:
        setState(ConnectionState::Failed, tr("The %1 was closed: the server stayed unreachable").arg(role));
        emit failed(Error(
            Error::Kind::ConnectionRefused,
            tr("The %1 to %2 was closed after the reconnect attempts ran out").arg(role, m_profile.servers.join(QStringLiteral(", "))),
            tr("check that nats-server is running, then connect again")));
        break;
    case ConnectionEvent::Type::AsyncError: {
        const bool permissions = event.text.contains(QLatin1String("ermission"));
        emit failed(
            Error(permissions ? Error::Kind::PermissionDenied : Error::Kind::Protocol,
                  tr("The server reported an error on the %1: %2").arg(role, event.text),
                  permissions ? tr("the user lacks a permission the check needs; see the server's authorization config") : QString()));
        break;
    }
    }
}

void ClusterController::setState(ConnectionState state, const QString &detail)
{
    if (state == m_state && detail == m_stateDetail)
        return;
    m_state = state;
    m_stateDetail = detail;
    emit connectionStateChanged(state, detail);
}

void ClusterController::setPending(int pending)
{
    const bool wasLoading = m_pending > 0;
    m_pending = std::max(0, pending);
    if (wasLoading != (m_pending > 0))
        emit loadingChanged(m_pending > 0);
}

void ClusterController::dropConnections()
{
    if (m_bridge)
        m_bridge->detach();
    std::shared_ptr<ConnectionSet> connections = std::move(m_connections);
    std::shared_ptr<ConnectionEventBridge> bridge = std::move(m_bridge);
    if (!connections && !bridge)
        return;
    // Closing a nats.c connection waits for its threads: never on the GUI thread.
    static_cast<void>(m_runner->run([connections = std::move(connections), bridge = std::move(bridge)]() mutable {
        if (bridge)
            bridge->clearHandlers();
        connections.reset();
        bridge.reset();
    }));
}

} // namespace MqttDoctor
