#pragma once

#include "serverconfig.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace MqttDoctor::Test {
class NatsServerFixture;
}

namespace MqttDoctor::Demo {

// One account of the demo server (the system account SYS, sys/syspass, is not listed).
struct DemoAccount
{
    QString name;
    QString user;
    QString password;
    QString description; // for the banner: what the account is and what is wrong with it
};

// A problem the demo seeds (docs/findings.md), made the way it happens for real.
struct SeededProblem
{
    QString account;
    QStringList codes; // the finding codes `check` reports for it, sorted
    QString summary; // one line: what was done and what it breaks
    QString serverLog; // the server's error line it causes (empty when the server says nothing)
};

// The demo's accounts and the MQTT state it creates with mosquitto clients and JetStream API requests:
// * ACME    JetStream, healthy: persistent sessions with QoS 1 subscriptions (all offline afterwards),
//           retained QoS 0/QoS 1 messages, QoS 1 messages queued for the offline sessions
// * BETA    JetStream with limits, healthy: two sessions, a retained and a queued message
// * NOJS    no JetStream: an MQTT connect is refused (the server logs why)
// * OVERLAP a stream capturing $MQTT.> made before any MQTT client: no MQTT stream can be created
// * NOSESS  $MQTT_sess deleted after MQTT was set up: every connect fails loading the session record
// * GARBAGE a client's session record overwritten with bytes that are not a record
// * ORPHAN  a session record purged while its durables (and the message they pin) remain
class DemoScenario
{
public:
    static Test::ServerConfig serverConfig();
    static QList<DemoAccount> accounts();
    static DemoAccount accountNamed(const QString &name); // empty when there is none
    // A profile (docs/profile.md) with the system user and every account's user; changes allowed
    // (a throwaway local server: the repair wizard works on it without further settings).
    static QJsonObject profile(const QString &url);
    // Writes profile(url) to `path`, readable and writable by its owner only (0600: it holds every
    // password), also over a file that exists with wider permissions (they are narrowed before the
    // passwords are written). False with `error` set when the file cannot be written or restricted.
    static bool writeProfile(const QString &path, const QString &url, QString *error);

    // Runs the mosquitto clients and the JetStream requests. `cancelled` is checked between steps.
    // False: see errorString().
    bool populate(Test::NatsServerFixture &server, const std::function<bool()> &cancelled);
    QString errorString() const { return m_errorString; }

    // Human-readable lines: what exists in which account.
    QStringList summary() const { return m_summary; }
    // What was broken where, one entry per seeded problem.
    QList<SeededProblem> problems() const { return m_problems; }

private:
    bool createSession(const Test::NatsServerFixture &server, const QString &account, const QString &clientId, const QStringList &topics);
    bool publish(const Test::NatsServerFixture &server, const QString &account, const QString &topic, const QByteArray &payload, int qos,
                 bool retain);
    // Connects `clientId`, which the server must refuse; returns its error line from the log (empty on
    // failure). Tries a second time when the first line does not contain `expectedError`.
    QString refusedConnect(Test::NatsServerFixture &server, const QString &account, const QString &clientId, bool cleanSession,
                           const QString &expectedError = {});

    // The seeded problems (demoproblems.cpp).
    bool seedOverlap(Test::NatsServerFixture &server);
    bool seedMissingSessions(Test::NatsServerFixture &server);
    bool seedGarbageRecord(Test::NatsServerFixture &server);
    bool seedOrphanConsumers(Test::NatsServerFixture &server);

    bool fail(const QString &message);

    QString m_errorString;
    QStringList m_summary;
    QList<SeededProblem> m_problems;
};

} // namespace MqttDoctor::Demo
