#include "coveragegap.h"

#include <algorithm>

namespace MqttDoctor {

bool CoverageGap::leavesVerdictOpen() const
{
    // Nothing else says when the servers' MQTT set-up is unknown: no finding depends on it and says so.
    if (level == Level::ServerState)
        return cause != Cause::NotAsked;
    switch (cause) {
    case Cause::Failed:
    case Cause::NoCredentials:
    case Cause::Cancelled: return true;
    case Cause::NoSystemConnection:
    case Cause::NotAsked: return false;
    }
    return true;
}

QString CoverageGap::levelName(Level level)
{
    switch (level) {
    case Level::Streams: return QStringLiteral("streams");
    case Level::Records: return QStringLiteral("records");
    case Level::Connections: return QStringLiteral("connections");
    case Level::Samples: return QStringLiteral("samples");
    case Level::ServerState: return QStringLiteral("server_state");
    }
    return {};
}

QString CoverageGap::causeName(Cause cause)
{
    switch (cause) {
    case Cause::Failed: return QStringLiteral("failed");
    case Cause::NoCredentials: return QStringLiteral("no_credentials");
    case Cause::NoSystemConnection: return QStringLiteral("no_system_connection");
    case Cause::Cancelled: return QStringLiteral("cancelled");
    case Cause::NotAsked: return QStringLiteral("not_asked");
    }
    return {};
}

QString CoverageGap::text() const
{
    switch (level) {
    case Level::Streams:
        return QStringLiteral("Streams of account %1 checked from the system account's view only: %2").arg(account, reason);
    case Level::Records: return QStringLiteral("Session records of account %1 not checked: %2").arg(account, reason);
    case Level::Connections: return QStringLiteral("Connected clients of account %1 not checked: %2").arg(account, reason);
    case Level::Samples: return QStringLiteral("Checks that compare two samples of account %1 not run: %2").arg(account, reason);
    case Level::ServerState: return QStringLiteral("The servers' MQTT set-up of account %1 not checked: %2").arg(account, reason);
    }
    return reason;
}

QJsonObject CoverageGap::toJson() const
{
    return QJsonObject{{QStringLiteral("account"), account},
                       {QStringLiteral("cause"), causeName(cause)},
                       {QStringLiteral("leaves_verdict_open"), leavesVerdictOpen()},
                       {QStringLiteral("level"), levelName(level)},
                       {QStringLiteral("reason"), reason}};
}

CoverageGap CoverageGap::recordsNeedCredentials(const QString &account)
{
    return CoverageGap{account, Level::Records, Cause::NoCredentials,
                       QStringLiteral("reading them needs the account's credentials (add them to the profile, or check the "
                                      "account as one of its users)")};
}

CoverageGap CoverageGap::recordsNotAsked(const QString &account)
{
    return CoverageGap{account, Level::Records, Cause::NotAsked, QStringLiteral("left out on request (stream-level checks only)")};
}

CoverageGap CoverageGap::noEarlierSample(const QString &account)
{
    return CoverageGap{account, Level::Samples, Cause::NotAsked,
                       QStringLiteral("CONSUMER_STUCK's delivery progress and JETSTREAM_API_ERRORS compare this refresh with the "
                                      "previous one, and there is none yet")};
}

bool CoverageGap::anyLeavesVerdictOpen(const QList<CoverageGap> &gaps)
{
    return std::any_of(gaps.cbegin(), gaps.cend(), [](const CoverageGap &g) { return g.leavesVerdictOpen(); });
}

QStringList CoverageGap::texts(const QList<CoverageGap> &gaps)
{
    QStringList out;
    for (const CoverageGap &g : gaps)
        out << g.text();
    return out;
}

} // namespace MqttDoctor
