#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * One thing a check did not look at: a level (the account's streams, its session records, its
 * connected clients) of one account, why, and whether that leaves the verdict open. A check whose
 * result has a gap that leaves the verdict open never says "no problem" and never exits 0 or 1
 * (docs/cli.md, "Coverage").
 */
struct CoverageGap
{
    enum class Level { Streams, Records, Connections, Samples, ServerState };
    enum class Cause {
        Failed, ///< tried and could not (timeout, permission, lost connection, ...)
        NoCredentials, ///< the account's own credentials are not in the profile
        NoSystemConnection, ///< no system connection was given (connected clients unknown)
        Cancelled, ///< stopped before it finished
        NotAsked, ///< the operator asked to leave it out (check --no-records)
    };

    QString account;
    Level level = Level::Records;
    Cause cause = Cause::Failed;
    QString reason; ///< what happened, one sentence without the account (e.g. the error text)

    /**
     * The level might hide problems the result does not show: failures, missing credentials and
     * cancellations do; an operator's own choice (NotAsked) and unknown connected clients do not (the
     * findings that depend on them say so themselves). The servers' MQTT set-up left unread does, whatever
     * the cause: no finding would say that retained delivery is broken.
     */
    bool leavesVerdictOpen() const;
    /** "streams", "records", "connections", "samples" (the checks that compare two samples), "server_state" (the servers' MQTT set-up). */
    static QString levelName(Level level);
    /** "failed", "no_credentials", "no_system_connection", "cancelled", "not_asked". */
    static QString causeName(Cause cause);
    /** One sentence: "Session records of account GARBAGE not checked: <reason>". */
    QString text() const;
    /** {"account", "level", "cause", "reason", "leaves_verdict_open"} (docs/cli.md). */
    QJsonObject toJson() const;

    /** The records of `account` cannot be read: the profile lacks its credentials. */
    static CoverageGap recordsNeedCredentials(const QString &account);
    /** The records of `account` were left out on purpose. */
    static CoverageGap recordsNotAsked(const QString &account);

    /** The checks that compare two samples of `account` did not run: there is no earlier sample yet. */
    static CoverageGap noEarlierSample(const QString &account);

    static bool anyLeavesVerdictOpen(const QList<CoverageGap> &gaps);
    static QStringList texts(const QList<CoverageGap> &gaps);
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::CoverageGap)
