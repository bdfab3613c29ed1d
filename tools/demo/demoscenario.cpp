#include "demoscenario.h"

#include "mqttclient.h"
#include "natsserverfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Demo {

namespace {

const QString kAcme = u"ACME"_s;
const QString kBeta = u"BETA"_s;
const QString kNoJs = u"NOJS"_s;

} // namespace

QList<DemoAccount> DemoScenario::accounts()
{
    return {
        {kAcme, u"acme"_s, u"acmepass"_s, u"JetStream; healthy: sessions, queued and retained messages"_s},
        {kBeta, u"beta"_s, u"betapass"_s, u"JetStream with limits (64 MB memory, 512 MB file, 20 streams, 100 consumers); healthy"_s},
        {kNoJs, u"nojs"_s, u"nojspass"_s, u"no JetStream: MQTT clients are refused"_s},
        {u"OVERLAP"_s, u"overlap"_s, u"overlappass"_s, u"seeded: a stream captures $MQTT.> (SUBJECTS_OVERLAP)"_s},
        {u"NOSESS"_s, u"nosess"_s, u"nosesspass"_s, u"seeded: $MQTT_sess deleted (STREAM_MISSING)"_s},
        {u"GARBAGE"_s, u"garbage"_s, u"garbagepass"_s, u"seeded: an undecodable session record (SESSION_UNDECODABLE)"_s},
        {u"ORPHAN"_s, u"orphan"_s, u"orphanpass"_s, u"seeded: durables without a session record (ORPHAN_CONSUMER)"_s},
    };
}

DemoAccount DemoScenario::accountNamed(const QString &name)
{
    for (const DemoAccount &account : accounts())
        if (account.name == name)
            return account;
    return {};
}

Test::ServerConfig DemoScenario::serverConfig()
{
    Test::ServerConfig config; // SYS with sys/syspass is the default system account
    config.setServerName(u"mqttdoctor-demo"_s);
    for (const DemoAccount &account : accounts()) {
        if (account.name == kBeta) {
            Test::ServerConfig::JetStreamLimits limits;
            limits.maxMemory = 64LL * 1024 * 1024;
            limits.maxFile = 512LL * 1024 * 1024;
            limits.maxStreams = 20;
            limits.maxConsumers = 100;
            config.addAccount(Test::ServerConfig::limitedAccount(account.name, account.user, account.password, limits));
        } else if (account.name == kNoJs) {
            config.addAccount(Test::ServerConfig::plainAccount(account.name, account.user, account.password));
        } else {
            config.addAccount(Test::ServerConfig::jetStreamAccount(account.name, account.user, account.password));
        }
    }
    return config;
}

QJsonObject DemoScenario::profile(const QString &url)
{
    const auto credentials = [](const QString &user, const QString &password) {
        return QJsonObject{{u"user"_s, user}, {u"password"_s, password}};
    };
    QJsonObject perAccount;
    // The same users for the end-to-end MQTT probe (Tools > Probe MQTT, the end of a repair), through the MQTT listener
    // the server reports.
    QJsonObject probes;
    for (const DemoAccount &account : accounts()) {
        perAccount.insert(account.name, credentials(account.user, account.password));
        probes.insert(account.name, credentials(account.user, account.password));
    }
    return QJsonObject{{u"name"_s, u"demo"_s},
                       {u"description"_s, u"The local demo server of nats-mqtt-doctor-demo"_s},
                       {u"servers"_s, QJsonArray{url}},
                       {u"system"_s, credentials(u"sys"_s, u"syspass"_s)},
                       {u"accounts"_s, perAccount},
                       {u"mqtt_probe"_s, probes},
                       {u"allow_changes"_s, true},
                       {u"_comment"_s, u"Demo passwords only; changes allowed so that the repair wizard works on the demo server"_s}};
}

bool DemoScenario::writeProfile(const QString &path, const QString &url, QString *error)
{
    constexpr QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    constexpr QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
        | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
    QFile file(path);
    const auto failed = [&](const QString &what) {
        if (error)
            *error = u"%1 %2 (%3)"_s.arg(what, path, file.errorString());
        return false;
    };
    // A new file is created 0600; an existing one is truncated and narrowed before anything is written.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate, ownerOnly))
        return failed(u"cannot write"_s);
    if (!file.setPermissions(ownerOnly) || (file.permissions() & others))
        return failed(u"cannot make readable by its owner only (0600)"_s);
    const QByteArray json = QJsonDocument(profile(url)).toJson();
    if (file.write(json) != json.size() || !file.flush())
        return failed(u"cannot write"_s);
    file.close();
    return true;
}

bool DemoScenario::populate(Test::NatsServerFixture &server, const std::function<bool()> &cancelled)
{
    m_summary.clear();
    m_problems.clear();
    m_errorString.clear();
    const QString acme = kAcme;
    const QString beta = kBeta;

    // Each step is one mosquitto run or one seeded problem; stop at the first failure or on Ctrl-C.
    const QList<std::function<bool()>> steps = {
        [&] {
            return createSession(server, acme, u"sensor-sub-1"_s, {u"sensors/+/temp"_s, u"alerts/#"_s});
        },
        [&] { return createSession(server, acme, u"dashboard-2"_s, {u"sensors/#"_s}); },
        [&] {
            return createSession(server, acme, u"offline-logger"_s, {u"alerts/#"_s, u"status/#"_s});
        },
        [&] { return publish(server, acme, u"sensors/kitchen/temp"_s, "21.5", 1, true); },
        [&] { return publish(server, acme, u"sensors/garage/temp"_s, "9.0", 0, true); },
        [&] { return publish(server, acme, u"status/gateway"_s, "online", 1, true); },
        [&] { return publish(server, acme, u"alerts/smoke"_s, "smoke!", 1, false); },
        [&] { return publish(server, acme, u"alerts/door"_s, "front door open", 1, false); },
        [&] { return createSession(server, beta, u"beta-app-1"_s, {u"beta/cmd/+"_s}); },
        [&] {
            return createSession(server, beta, u"beta-app-2"_s, {u"beta/telemetry/#"_s, u"beta/cmd/#"_s});
        },
        [&] { return publish(server, beta, u"beta/config"_s, R"({"interval":5})", 1, true); },
        [&] { return publish(server, beta, u"beta/cmd/reboot"_s, "now", 1, false); },
        [&] { return publish(server, beta, u"beta/telemetry/t1"_s, "42", 1, false); },
        [&] {
            // NOJS has no JetStream: nats-server refuses MQTT clients of such accounts.
            const QString logLine = refusedConnect(server, kNoJs, u"nojs-client"_s, true);
            if (!logLine.isEmpty())
                m_summary << u"NOJS: MQTT client \"nojs-client\" was refused (no JetStream)"_s;
            return !logLine.isEmpty();
        },
        [&] { return seedOverlap(server); },
        [&] { return seedMissingSessions(server); },
        [&] { return seedGarbageRecord(server); },
        [&] { return seedOrphanConsumers(server); },
    };
    for (const auto &step : steps) {
        if (cancelled())
            return fail(u"cancelled"_s);
        if (!step())
            return false;
    }
    return true;
}

bool DemoScenario::createSession(const Test::NatsServerFixture &server, const QString &account, const QString &clientId,
                                 const QStringList &topics)
{
    const DemoAccount credentials = DemoScenario::accountNamed(account);
    const Test::MqttClient client(server.mqttPort(), credentials.user, credentials.password);
    const Test::MqttResult result = client.createPersistentSession(clientId, topics, 1);
    if (!result.connected() || !result.subscribed()) {
        m_errorString = u"creating the session \"%1\" in %2 failed:\n%3"_s.arg(clientId, account, result.describe());
        return false;
    }
    m_summary << u"%1: persistent session \"%2\" (offline), QoS 1 subscriptions %3"_s.arg(account, clientId, topics.join(u", "_s));
    return true;
}

bool DemoScenario::publish(const Test::NatsServerFixture &server, const QString &account, const QString &topic, const QByteArray &payload,
                           int qos, bool retain)
{
    const DemoAccount credentials = DemoScenario::accountNamed(account);
    const Test::MqttClient client(server.mqttPort(), credentials.user, credentials.password);
    const Test::MqttResult result = client.publish(topic, payload, qos, retain, u"demo-publisher"_s);
    if (!result.acknowledged) {
        m_errorString = u"publishing to \"%1\" in %2 failed:\n%3"_s.arg(topic, account, result.describe());
        return false;
    }
    m_summary << u"%1: %2 QoS %3 message on \"%4\": %5"_s.arg(account, retain ? u"retained"_s : u"queued"_s)
                     .arg(qos)
                     .arg(topic, QString::fromUtf8(payload));
    return true;
}

QString DemoScenario::refusedConnect(Test::NatsServerFixture &server, const QString &account, const QString &clientId, bool cleanSession,
                                     const QString &expectedError)
{
    const DemoAccount credentials = DemoScenario::accountNamed(account);
    // "[ERR] 127.0.0.1:port - mid:N - "<clientId>" - unable to connect: <why>"
    const QRegularExpression pattern(u"\"%1\" - unable to connect: .*"_s.arg(QRegularExpression::escape(clientId)));
    QString line;
    // A server that still holds the client's session in memory fails its first connect differently (it
    // expected the record it wrote) and drops the session: the second connect reads the record.
    for (int attempt = 0; attempt < 2 && (line.isEmpty() || !line.contains(expectedError)); ++attempt) {
        const qsizetype from = server.logSize();
        const Test::MqttResult result =
            Test::MqttClient(server.mqttPort(), credentials.user, credentials.password).connectOnce(clientId, cleanSession);
        if (result.connected()) {
            fail(u"MQTT client \"%1\" of %2 connected, but the server should have refused it:\n%3"_s.arg(clientId, account,
                                                                                                         result.describe()));
            return {};
        }
        if (!server.waitForLog(pattern, 10000, from)) {
            fail(u"the server did not log why it refused \"%1\" of %2:\n%3"_s.arg(clientId, account, server.logTail(10)));
            return {};
        }
        line = pattern.match(server.logLinesMatching(pattern, from).constLast()).captured(0);
    }
    return line;
}

bool DemoScenario::fail(const QString &message)
{
    m_errorString = message;
    return false;
}

} // namespace MqttDoctor::Demo
