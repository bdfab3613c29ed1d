#pragma once

#include <optional>

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "activity/mqttclientevent.h"
#include "diagnosis/accountcoverage.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"

namespace MqttDoctor {

/**
 * What one check leaves in the history (HistoryRecorder::record): its time, coverage and findings,
 * each account's counts, and the state the next check is compared with (session records, MQTT stream
 * configs, servers). Never a secret and never a payload: a session is its subject, client ID, sequence
 * and subscription filters. Made from a gathered input and its findings (no network); any thread.
 */
struct CheckRecord
{
    struct FindingRow
    {
        QString identity; ///< Finding::identity(): the same problem in two checks
        QString code;
        QString severity;
        QString account;
        QString stream;
        QString subject;
        QString clientId;
        QString title;
    };
    struct Counts
    {
        QString account;
        std::optional<qint64> sessions; ///< records of `$MQTT_sess`
        std::optional<qint64> retained; ///< messages of `$MQTT_rmsgs`
        std::optional<qint64> queuedMessages; ///< messages of `$MQTT_msgs`
        std::optional<qint64> queuedBytes;
        std::optional<qint64> consumers; ///< consumers of the MQTT streams
        std::optional<qint64> connected; ///< MQTT clients connected (CONNZ)
    };
    struct SessionRow
    {
        QString subject;
        QString clientId; ///< empty: undecodable
        qint64 seq = 0;
        QString subscriptions; ///< "filter qos" per subscription, sorted, one per line
    };
    struct ServerRow
    {
        QString id;
        QString name;
        QString version;
    };

    QDateTime at; ///< when the state was read (UTC)
    QString source; ///< "cli", "recorder" or "gui"
    QString scope = QStringLiteral("*"); ///< "*": every account was checked; else the one account
    QString cluster; ///< HistoryLocation::clusterName
    QStringList urls; ///< the profile's server URLs (how the history is found without a connection)
    int exitCode = 0;
    bool complete = false; ///< every account checked at every level (no gap leaves the verdict open)
    QStringList gaps; ///< what could not be checked, one sentence each
    QList<AccountCoverage> coverage;
    QList<FindingRow> findings;
    QList<Counts> counts;
    /** Every record of the accounts whose records were read completely (others: absent, not compared). */
    QHash<QString, QList<SessionRow>> sessions;
    /** The MQTT streams' configs (compact JSON) of the accounts whose streams were read. */
    QHash<QString, QHash<QString, QString>> streamConfigs;
    QList<ServerRow> servers;
    /** Each account's sample (DiagnosisGatherer::samplesOf): the next check's two-sample checks compare with it. */
    QHash<QString, AccountSample> samples;
    /** Recently closed MQTT connections (disconnects and takeovers) the check read. */
    QList<MqttClientEvent> clientEvents;

    /** The record of `input` checked with `findings` (the exit code the check gave). */
    static CheckRecord of(const DiagnosisInput &input, const QList<Finding> &findings, int exitCode, const QString &source);
    /** "filter qos" lines of a record's subscriptions, sorted. */
    static QString subscriptionsText(const SessionEntry &entry);
};

} // namespace MqttDoctor
