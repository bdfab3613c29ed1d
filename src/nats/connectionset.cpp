#include "connectionset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "nats/natsconnection.h"
#include "nats/replygatherer.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

ConnectionSet::ConnectionSet(Profile profile) : m_profile(std::move(profile)) {}

ConnectionSet::~ConnectionSet() = default;

Result<std::shared_ptr<NatsConnection>> ConnectionSet::connectCached(const QString &key, const Credentials &creds, const QString &role)
{
    QList<std::shared_ptr<NatsConnection>> evicted; // closed after the lock is let go (closing waits for nats.c's threads)
    const auto arrived = std::chrono::steady_clock::now();
    // Connecting under the lock keeps two workers from opening the same connection twice.
    QMutexLocker lock(&m_mutex);
    const bool isAccount = key.startsWith(QLatin1String("account:"));
    if (auto it = m_connections.constFind(key); it != m_connections.constEnd()) {
        if (isAccount) {
            m_accountUse.removeOne(key);
            m_accountUse.append(key);
        }
        return *it;
    }
    // An attempt at the same connection that failed while this caller waited for the lock failed for it
    // too: concurrent loads do not try (and explain) a failing connection once each. A later call tries again.
    if (auto f = m_failures.constFind(key); f != m_failures.constEnd() && f->ended >= arrived)
        return f->error;
    ConnectionSettings settings;
    settings.servers = m_profile.servers;
    settings.credentials = creds;
    settings.tls = m_profile.tls;
    settings.timeoutMs = m_profile.timeoutMs;
    settings.role = role;
    settings.counter = m_requests;
    auto conn = NatsConnection::connect(settings);
    if (!conn) {
        m_failures.insert(key, {conn.error(), std::chrono::steady_clock::now()});
        return conn.error();
    }
    m_failures.remove(key);
    m_connections.insert(key, *conn);
    if (isAccount) {
        m_accountUse.append(key);
        while (m_accountUse.size() > kMaxAccountConnections)
            evicted.append(m_connections.take(m_accountUse.takeFirst()));
    }
    lock.unlock();
    evicted.clear();
    return *conn;
}

Result<std::shared_ptr<NatsConnection>> ConnectionSet::primary()
{
    if (!m_profile.auth.isSet() && m_profile.hasSystem())
        return system();
    return connectCached(QStringLiteral("primary"), m_profile.auth, QStringLiteral("connection"));
}

Result<std::shared_ptr<NatsConnection>> ConnectionSet::system()
{
    if (!m_profile.hasSystem())
        return Error(Error::Kind::NoSystemAccess, QStringLiteral("no system connection is configured"),
                     QStringLiteral("give the credentials of a system-account user for the system connection (a user and "
                                    "password, a credentials file or a natscli context)"));
    return connectCached(QStringLiteral("system"), m_profile.system, QStringLiteral("system connection"));
}

Result<std::shared_ptr<NatsConnection>> ConnectionSet::account(const QString &name)
{
    const auto it = m_profile.accounts.constFind(name);
    if (it == m_profile.accounts.constEnd())
        return Error(Error::Kind::NotFound, QStringLiteral("no credentials for account %1").arg(name),
                     QStringLiteral("add the account's credentials to the profile"));
    return connectCached(QStringLiteral("account:") + name, *it, QStringLiteral("account ") + name);
}

Result<SystemClient> ConnectionSet::systemClient()
{
    return system().transform([&](auto &&value) { return SystemClient(value, m_roster); });
}

Result<QString> ConnectionSet::primaryAccountName()
{
    {
        QMutexLocker lock(&m_mutex);
        if (m_primaryAccount)
            return *m_primaryAccount;
    }
    auto conn = primary();
    if (!conn)
        return conn.error();
    QString name;
    if (!m_profile.auth.isSet() && m_profile.hasSystem()) {
        // The primary is the system connection: its account is the system account.
        SystemClient sys(*conn, m_roster);
        auto replies = sys.ping(QStringLiteral("ACCOUNTZ"));
        if (replies && !replies->isEmpty())
            name = replies->first().data.value(QLatin1String("system_account")).toString();
    } else {
        // Every account imports $SYS.REQ.ACCOUNT.PING.CONNZ, mapped to itself: find our own client on
        // the server we are connected to (its reply is the one that matters; the others are not awaited).
        // The reply's "jwt" field can hold a password; only the account name is read from it.
        const QJsonObject options{{QStringLiteral("cid"), static_cast<qint64>((*conn)->clientId())}, {QStringLiteral("auth"), true}};
        const QString ownServer = (*conn)->connectedServerId();
        ReplyGatherer gatherer(**conn, SystemClient::kDefaultQuietMs);
        static_cast<void>(
            gatherer.run({{QStringLiteral("$SYS.REQ.ACCOUNT.PING.CONNZ"), QJsonDocument(options).toJson(QJsonDocument::Compact)}},
                         [&name, &ownServer](int, NatsReply &&raw) -> Result<ReplyGatherer::Verdict> {
                             auto parsed = SystemClient::parse(raw.data);
                             if (!parsed)
                                 return ReplyGatherer::Verdict::More;
                             for (const QJsonValue &c : parsed->data.value(QLatin1String("connections")).toArray()) {
                                 const QString acc = c.toObject().value(QLatin1String("account")).toString();
                                 if (!acc.isEmpty())
                                     name = acc;
                             }
                             const bool own = parsed->server.value(QLatin1String("id")).toString() == ownServer && !ownServer.isEmpty();
                             return own && !name.isEmpty() ? ReplyGatherer::Verdict::Enough : ReplyGatherer::Verdict::More;
                         }));
    }
    QMutexLocker lock(&m_mutex);
    m_primaryAccount = name;
    return name;
}

std::optional<QList<ServerInfo>> ConnectionSet::knownServers() const
{
    QMutexLocker lock(&m_mutex);
    if (!m_servers || m_serversGeneration != m_roster->generation())
        return std::nullopt;
    return m_servers;
}

void ConnectionSet::setKnownServers(const QList<ServerInfo> &servers, quint64 rosterGeneration)
{
    QMutexLocker lock(&m_mutex);
    m_servers = servers;
    m_serversGeneration = rosterGeneration;
}

QList<std::shared_ptr<NatsConnection>> ConnectionSet::openConnections() const
{
    QMutexLocker lock(&m_mutex);
    return m_connections.values();
}

} // namespace MqttDoctor
