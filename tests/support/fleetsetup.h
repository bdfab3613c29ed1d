#pragma once

#include "serverconfig.h"

#include <QString>
#include <QStringList>
#include <QVersionNumber>

namespace MqttDoctor::Test {

// A fleet of MQTT accounts on one server, as operators with thousands of tenants run it:
// `count` healthy accounts T00000, T00001, ... (JetStream enabled, one user t00000/t00000-pw each) and
// one broken account BROKEN whose JetStream limit (max_streams 2) keeps the server from creating all
// of its MQTT streams: its MQTT CONNECT is refused, it keeps the first two streams (sessions and
// messages) and `check` has something real to report.
//
//     FleetSetup fleet(1000);
//     NatsServerFixture server;
//     server.start(u"2.9"_s, fleet.serverConfig(), fleet.readyTimeoutMs());
//     const FleetSetup::Report report = fleet.createMqttState(server.mqttPort());
//     QVERIFY2(report.ok(), qPrintable(report.describe()));
//
// createMqttState() makes each account's real MQTT state with MQTT exchanges (MqttSessionBatch): one
// persistent session per account with one QoS 1 subscription, so the server creates the account's
// streams, the session record and a durable, exactly as a device would.
class FleetSetup
{
public:
    static constexpr int DefaultParallel = 48;
    static constexpr int DefaultExchangeTimeoutMs = 60000;

    struct Report
    {
        int accounts = 0; // healthy accounts tried (those given MQTT state)
        int sessionsCreated = 0; // healthy accounts whose exchange completed
        QStringList errors; // one line per failed healthy account; the broken account's if it was not refused
        QString brokenOutcome; // what the server did with the broken account's CONNECT
        qint64 elapsedMs = 0;

        bool ok() const { return errors.isEmpty(); }
        QString describe(int maxErrors = 20) const;
    };

    // withMqttState < count: only the first withMqttState healthy accounts get MQTT state, the others
    // have JetStream and nothing in it (a partial fleet, for machines whose open-file limit cannot hold
    // every account's streams; see raiseOpenFileLimit()). -1: every account.
    explicit FleetSetup(int count, int withMqttState = -1);

    int count() const { return m_count; }
    int withMqttState() const { return m_withMqttState; }
    bool isPartial() const { return m_withMqttState < m_count; }

    static QString accountName(int index); // "T00042"
    static QString userName(int index); // "t00042"
    static QString password(int index);
    static QString clientId(int index);
    static QString brokenAccountName();
    static QString brokenUserName();
    static QString brokenPassword();
    static int brokenMaxStreams() { return 2; }

    QStringList accountNames() const; // the healthy accounts, in order

    // ServerConfig() (SYS with sys/syspass) plus every account of the fleet. Servers with thousands of
    // accounts need longer to start than the fixture's default ready timeout: see readyTimeoutMs().
    ServerConfig serverConfig() const;
    int readyTimeoutMs() const;

    // One MQTT exchange per account (of the first withMqttState()) against the server's MQTT listener, `parallel` at once; the broken
    // account's is expected to be refused (its CONNECT gets no CONNACK) and is reported in brokenOutcome.
    Report createMqttState(quint16 mqttPort, int parallel = DefaultParallel, int exchangeTimeoutMs = DefaultExchangeTimeoutMs) const;

    // nats-server keeps files open for every stream it holds (2.9.10: two per stream, 2.10+: one; each
    // MQTT stream counts), plus its sockets: a fleet of thousands of accounts needs
    // far more than the usual soft limit of 1,024, and 10,000 accounts more than many hard limits.
    qint64 openFilesNeeded(const QVersionNumber &serverVersion) const;
    static int openFilesPerMqttAccount(const QVersionNumber &serverVersion);
    // The most accounts with MQTT state whose streams fit in `openFiles` descriptors of the server.
    static int mqttAccountsWithin(qint64 openFiles, const QVersionNumber &serverVersion);
    // RLIMIT_NOFILE's hard limit; -1 when unlimited.
    static qint64 openFileHardLimit();
    // Raises this process's soft RLIMIT_NOFILE, which the servers and tools it starts inherit, to what
    // openFilesNeeded() asks for. False, with the reason in *why, when the hard limit is lower (raising
    // that needs CAP_SYS_RESOURCE).
    bool raiseOpenFileLimit(const QVersionNumber &serverVersion, QString *why) const;

    // A CLI profile (docs/profile.md) with the system user and every account's user, created with file
    // mode 0600 (it holds passwords); an existing file is replaced. `timeout` is the profile's
    // request timeout ("5s").
    bool writeProfile(const QString &path, const QString &serverUrl, QString *error, const QString &timeout = QStringLiteral("5s")) const;

private:
    int m_count;
    int m_withMqttState;
};

} // namespace MqttDoctor::Test
