#include "fleetsetup.h"

#include "mqttsessionbatch.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

#include <sys/resource.h>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

ServerConfig::User systemUser(const ServerConfig &config)
{
    return config.systemAccount()->users.constFirst();
}

} // namespace

QString FleetSetup::Report::describe(int maxErrors) const
{
    QString text = u"%1 of %2 accounts got their MQTT session in %3 ms; broken account %4: %5"_s.arg(sessionsCreated)
                       .arg(accounts)
                       .arg(elapsedMs)
                       .arg(brokenAccountName(), brokenOutcome.isEmpty() ? u"not tried"_s : brokenOutcome);
    if (!errors.isEmpty()) {
        text += u"\n%1 failed:"_s.arg(errors.size());
        for (qsizetype i = 0; i < std::min<qsizetype>(errors.size(), maxErrors); ++i)
            text += u"\n  "_s + errors.at(i);
        if (errors.size() > maxErrors)
            text += u"\n  ... and %1 more"_s.arg(errors.size() - maxErrors);
    }
    return text;
}

FleetSetup::FleetSetup(int count, int withMqttState)
    : m_count(std::max(0, count)), m_withMqttState(withMqttState < 0 ? m_count : std::min(withMqttState, m_count))
{}

QString FleetSetup::accountName(int index)
{
    return u"T%1"_s.arg(index, 5, 10, QLatin1Char('0'));
}

QString FleetSetup::userName(int index)
{
    return accountName(index).toLower();
}

QString FleetSetup::password(int index)
{
    return userName(index) + u"-pw"_s;
}

QString FleetSetup::clientId(int index)
{
    return u"fleet-"_s + userName(index);
}

QString FleetSetup::brokenAccountName()
{
    return u"BROKEN"_s;
}

QString FleetSetup::brokenUserName()
{
    return u"broken"_s;
}

QString FleetSetup::brokenPassword()
{
    return u"broken-pw"_s;
}

QStringList FleetSetup::accountNames() const
{
    QStringList names;
    names.reserve(m_count);
    for (int i = 0; i < m_count; ++i)
        names << accountName(i);
    return names;
}

ServerConfig FleetSetup::serverConfig() const
{
    ServerConfig config;
    for (int i = 0; i < m_count; ++i)
        config.addAccount(ServerConfig::jetStreamAccount(accountName(i), userName(i), password(i)));
    // Memory and file limits as an operator would set them beside max_streams; only max_streams bites.
    config.addAccount(ServerConfig::limitedAccount(brokenAccountName(), brokenUserName(), brokenPassword(),
                                                   {64LL << 20, 512LL << 20, brokenMaxStreams(), 100}));
    return config;
}

int FleetSetup::readyTimeoutMs() const
{
    // nats-server sets every account up (JetStream included) before it is ready; 10,000 accounts took
    // seconds, not milliseconds, on the 2-core CI machine.
    return 30000 + 10 * m_count;
}

namespace {

// The server's own files and sockets and the client connections of the set-up and of the tools under test.
constexpr qint64 OpenFilesBesideStreams = 512;

} // namespace

int FleetSetup::openFilesPerMqttAccount(const QVersionNumber &serverVersion)
{
    // Measured: 2.9.10 held 6,016 descriptors for 1,000 accounts (3 streams, 2 files each), 2.10.27 and
    // 2.15.1 1,513 for 300 (5 streams, 1 file each). Accounts without streams hold none.
    return serverVersion < QVersionNumber(2, 10) ? 3 * 2 : 5 * 1;
}

qint64 FleetSetup::openFilesNeeded(const QVersionNumber &serverVersion) const
{
    return qint64(m_withMqttState + 1) * openFilesPerMqttAccount(serverVersion) + OpenFilesBesideStreams;
}

int FleetSetup::mqttAccountsWithin(qint64 openFiles, const QVersionNumber &serverVersion)
{
    return int(std::max<qint64>(0, (openFiles - OpenFilesBesideStreams) / openFilesPerMqttAccount(serverVersion) - 1));
}

qint64 FleetSetup::openFileHardLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max == RLIM_INFINITY)
        return -1;
    return qint64(limit.rlim_max);
}

bool FleetSetup::raiseOpenFileLimit(const QVersionNumber &serverVersion, QString *why) const
{
    const qint64 needed = openFilesNeeded(serverVersion);
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        *why = u"cannot read the open-file limit"_s;
        return false;
    }
    if (limit.rlim_cur == RLIM_INFINITY || qint64(limit.rlim_cur) >= needed)
        return true;
    if (limit.rlim_max != RLIM_INFINITY && qint64(limit.rlim_max) < needed) {
        *why = u"%1 accounts with MQTT state on nats-server %2 need about %3 open files in the server process; "
               "the hard limit here is %4 (ulimit -Hn; raising it needs CAP_SYS_RESOURCE)"_s.arg(m_withMqttState)
                   .arg(serverVersion.toString())
                   .arg(needed)
                   .arg(qint64(limit.rlim_max));
        return false;
    }
    limit.rlim_cur = rlim_t(needed);
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        *why = u"cannot raise the open-file limit to %1"_s.arg(needed);
        return false;
    }
    return true;
}

FleetSetup::Report FleetSetup::createMqttState(quint16 mqttPort, int parallel, int exchangeTimeoutMs) const
{
    QList<MqttSessionBatch::Exchange> exchanges;
    exchanges.reserve(m_withMqttState + 1);
    for (int i = 0; i < m_withMqttState; ++i)
        exchanges.append({clientId(i), userName(i), password(i), u"fleet/%1/cmd"_s.arg(accountName(i)), 1});
    // Last, so that it never holds up the healthy accounts' slots.
    exchanges.append({u"fleet-broken"_s, brokenUserName(), brokenPassword(), u"fleet/broken/cmd"_s, 1});

    Report report;
    report.accounts = m_withMqttState;
    QElapsedTimer clock;
    clock.start();
    const QList<MqttSessionBatch::Outcome> outcomes = MqttSessionBatch::run(mqttPort, exchanges, parallel, exchangeTimeoutMs);
    report.elapsedMs = clock.elapsed();

    for (int i = 0; i < m_withMqttState; ++i) {
        const MqttSessionBatch::Outcome &o = outcomes.at(i);
        if (o.completed())
            ++report.sessionsCreated;
        else
            report.errors << u"%1 (user %2, client %3): %4"_s.arg(accountName(i), userName(i), clientId(i), o.failure);
    }
    const MqttSessionBatch::Outcome &broken = outcomes.constLast();
    if (broken.connackCode == 0) {
        report.brokenOutcome = u"accepted (CONNACK 0)"_s;
        report.errors << u"%1: the server accepted the MQTT CONNECT although max_streams %2 leaves no room for the "
                         "MQTT streams"_s.arg(brokenAccountName())
                             .arg(brokenMaxStreams());
    } else if (broken.refusedAtConnect) {
        report.brokenOutcome = u"refused as expected: "_s + broken.failure;
    } else {
        // Not a refusal: the server did not answer or could not be reached, which says nothing about the limit.
        report.brokenOutcome = broken.failure;
        report.errors << u"%1: expected its CONNECT to be refused, but: %2"_s.arg(brokenAccountName(), broken.failure);
    }
    return report;
}

bool FleetSetup::writeProfile(const QString &path, const QString &serverUrl, QString *error, const QString &timeout) const
{
    const ServerConfig config = serverConfig();
    const ServerConfig::User sys = systemUser(config);
    QJsonObject accounts;
    for (int i = 0; i < m_count; ++i)
        accounts.insert(accountName(i), QJsonObject{{u"user"_s, userName(i)}, {u"password"_s, password(i)}});
    accounts.insert(brokenAccountName(), QJsonObject{{u"user"_s, brokenUserName()}, {u"password"_s, brokenPassword()}});
    const QJsonObject profile{
        {u"name"_s, u"fleet-%1"_s.arg(m_count)},
        {u"description"_s, u"test fleet: %1 accounts and %2"_s.arg(m_count).arg(brokenAccountName())},
        {u"servers"_s, QJsonArray{serverUrl}},
        {u"system"_s, QJsonObject{{u"user"_s, sys.name}, {u"password"_s, sys.password}}},
        {u"accounts"_s, accounts},
        {u"timeout"_s, timeout},
    };

    // Created with 0600 from the start: the passwords are never readable by others, not even briefly.
    QFile::remove(path);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(QJsonDocument(profile).toJson(QJsonDocument::Compact)) < 0 || !file.flush()) {
        if (error)
            *error = u"cannot write the fleet profile %1: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace MqttDoctor::Test
