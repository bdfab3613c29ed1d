#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace MqttDoctor::Test {

// Describes a nats-server configuration for the fixtures; toConfigText() renders the config file.
// Ports left at 0 are filled in by assignFreePorts() (NatsServerFixture does that before the first
// start and keeps them for restarts). Monitoring (http) is always on: the fixtures need /healthz.
class ServerConfig
{
public:
    enum class JetStream { Off, Enabled, Limited };

    struct User
    {
        QString name;
        QString password;
        QString nkey; // a public NKey ("U..."): the user authenticates with its seed instead
    };

    // -1 = no limit (not written).
    struct JetStreamLimits
    {
        qint64 maxMemory = -1;
        qint64 maxFile = -1;
        int maxStreams = -1;
        int maxConsumers = -1;
    };

    struct Account
    {
        QString name;
        QList<User> users;
        JetStream jetStream = JetStream::Off;
        JetStreamLimits limits; // used with JetStream::Limited
    };

    struct Tls
    {
        QString certFile;
        QString keyFile;
        QString caFile; // empty: not written
        bool verify = false; // require and verify client certificates
        bool clientListener = true; // tls{} for the NATS client port
        bool mqttListener = false; // tls{} inside mqtt{}
    };

    struct Cluster
    {
        QString name = QStringLiteral("mqttdoctor");
        quint16 port = 0; // this node's route listener; 0 = pick a free one
        QList<quint16> routePorts; // route listeners of all nodes (listing itself is fine)
    };

    // A cluster of a supercluster: this node's gateway listener and the gateways of every cluster
    // (listing its own cluster is fine, the server skips it).
    struct Gateway
    {
        QString name; // this cluster's gateway name (the cluster name)
        quint16 port = 0; // this node's gateway listener; 0 = pick a free one
        struct Remote
        {
            QString name;
            QList<quint16> ports; // gateway listeners of that cluster's nodes
        };
        QList<Remote> remotes;
    };

    // Leaf node connections: a listener for leaf nodes (hub side) and/or remotes (leaf side).
    struct LeafNodes
    {
        bool listen = false; // hub side: accept leaf node connections
        quint16 port = 0; // the listener; 0 = pick a free one
        struct Remote
        {
            quint16 port = 0; // the hub's leaf node listener
            QString user; // credentials of a hub user; the leaf's local account is `account`
            QString password;
            QString account; // local account bound to this remote (empty: the global account)
        };
        QList<Remote> remotes;
    };

    // Server "mqttdoctor-test", JetStream on, MQTT on, system account SYS with sys/syspass, no
    // other accounts.
    ServerConfig();

    // The usual test setup: the defaults + ACME (JetStream, user acme/acmepass, no system rights).
    static ServerConfig standard();

    static Account jetStreamAccount(const QString &name, const QString &user, const QString &password);
    static Account limitedAccount(const QString &name, const QString &user, const QString &password, const JetStreamLimits &limits);
    static Account plainAccount(const QString &name, const QString &user, const QString &password); // no JetStream

    QString serverName() const { return m_serverName; }
    void setServerName(const QString &name) { m_serverName = name; }

    quint16 clientPort() const { return m_clientPort; }
    void setClientPort(quint16 port) { m_clientPort = port; }
    quint16 httpPort() const { return m_httpPort; }
    void setHttpPort(quint16 port) { m_httpPort = port; }

    bool isMqttEnabled() const { return m_mqttEnabled; }
    void setMqttEnabled(bool enabled) { m_mqttEnabled = enabled; }
    quint16 mqttPort() const { return m_mqttPort; }
    void setMqttPort(quint16 port) { m_mqttPort = port; }
    int mqttStreamReplicas() const { return m_mqttStreamReplicas; } // 0 = not written (server decides)
    void setMqttStreamReplicas(int replicas) { m_mqttStreamReplicas = replicas; }
    int mqttConsumerReplicas() const { return m_mqttConsumerReplicas; } // 0 = not written
    void setMqttConsumerReplicas(int replicas) { m_mqttConsumerReplicas = replicas; }
    // Extra "key: value" lines inside mqtt{}, e.g. "max_ack_pending: 100".
    void addMqttSetting(const QString &line) { m_extraMqttLines << line; }

    bool isJetStreamEnabled() const { return m_jetStreamEnabled; } // the server-wide jetstream{} block
    void setJetStreamEnabled(bool enabled) { m_jetStreamEnabled = enabled; }
    QString jetStreamDomain() const { return m_jetStreamDomain; }
    void setJetStreamDomain(const QString &domain) { m_jetStreamDomain = domain; }

    std::optional<Account> systemAccount() const { return m_systemAccount; }
    void setSystemAccount(const Account &account) { m_systemAccount = account; }
    void clearSystemAccount() { m_systemAccount.reset(); }

    QList<Account> accounts() const { return m_accounts; } // without the system account
    void addAccount(const Account &account) { m_accounts.append(account); }
    std::optional<Account> account(const QString &name) const; // also finds the system account

    std::optional<Tls> tls() const { return m_tls; }
    void setTls(const Tls &tls) { m_tls = tls; }

    std::optional<Cluster> cluster() const { return m_cluster; }
    void setCluster(const Cluster &cluster) { m_cluster = cluster; }

    std::optional<Gateway> gateway() const { return m_gateway; }
    void setGateway(const Gateway &gateway) { m_gateway = gateway; }
    std::optional<LeafNodes> leafNodes() const { return m_leafNodes; }
    void setLeafNodes(const LeafNodes &leafNodes) { m_leafNodes = leafNodes; }

    // Extra top-level lines, e.g. "max_payload: 65536".
    void addSetting(const QString &line) { m_extraLines << line; }

    // Fills every port that is 0 (client, http, mqtt if enabled, cluster, gateway and leaf node
    // listener if set). False if the
    // system gave no free ports.
    bool assignFreePorts();

    // The config file text; storeDir is the JetStream store_dir.
    QString toConfigText(const QString &storeDir) const;

private:
    QString m_serverName;
    quint16 m_clientPort = 0;
    quint16 m_httpPort = 0;
    bool m_mqttEnabled = true;
    quint16 m_mqttPort = 0;
    int m_mqttStreamReplicas = 0;
    int m_mqttConsumerReplicas = 0;
    QStringList m_extraMqttLines;
    bool m_jetStreamEnabled = true;
    QString m_jetStreamDomain;
    std::optional<Account> m_systemAccount;
    QList<Account> m_accounts;
    std::optional<Tls> m_tls;
    std::optional<Cluster> m_cluster;
    std::optional<Gateway> m_gateway;
    std::optional<LeafNodes> m_leafNodes;
    QStringList m_extraLines;
};

} // namespace MqttDoctor::Test
