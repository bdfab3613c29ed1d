#pragma once

#include <optional>

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include "activity/mqttclientevent.h"
#include "common/error.h"
#include "diagnosis/accountsample.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/consumerowner.h"
#include "diagnosis/coveragegap.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "diagnosis/findinglist.h"
#include "diagnosis/sessionchecks.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "records/accountrecordaccess.h"

namespace MqttDoctor {

/**
 * What one load of one account read (AccountSnapshotLoader), for every view of it to share: the
 * servers (as the connection set knows them), the account with its streams and their consumers, CONNZ
 * of its MQTT clients and the session records of `$MQTT_sess`. The findings (Checks), the consumers
 * with their owners (ConsumerOwner) and the sessions all come from here, so one refresh asks the
 * servers once and its views agree. A value; any thread (the connection in `source` is shared).
 */
struct AccountSnapshot
{
    QList<ServerInfo> servers;
    /** The account with all its streams (the account's own view where the profile can read it). */
    AccountInfo account;
    /** The access its records are read with; nullopt when they cannot be (no credentials: see recordsError). */
    std::optional<AccountRecordAccess> recordAccess;
    /**
     * The records: `$MQTT_sess` (legacy streams' records are in legacySessions), the durables of
     * `$MQTT_msgs`/`$MQTT_out` (consumersKnown), CONNZ (connected; nullopt: unknown, see connectedWhy)
     * and, where the stream may keep several messages per subject, its subject counts.
     */
    SessionCheckInput records;
    QList<SessionEntry> legacySessions;
    /** Every record of `$MQTT_sess` was read (or the account has none); false: not asked, cancelled or failed. */
    bool sessionsComplete = false;
    /** The account has no `$MQTT_sess` stream. */
    bool noSessionsStream = false;
    /** Why the connected clients are unknown (records.connected is nullopt). */
    QString connectedWhy;
    /** Why the records (consumers, CONNZ, sessions) could not be read; nullopt when they were, or not asked for. */
    std::optional<Error> recordsError;
    /** What the findings could not check and why (DiagnosisInput::gaps). */
    QList<CoverageGap> gaps;
    /** The account's recently closed MQTT connections (CONNZ state=closed); nullopt: not read (no system connection). */
    std::optional<QList<MqttClientEvent>> closed;
    /** The servers' MQTT set-up of the account (DiagnosisInput::mqttManagers); nullopt: not read. */
    std::optional<AccountManagers> managers;
    /** When the load began (UTC): the time of this snapshot's sample. */
    QDateTime loadedAt;
    /** An earlier sample of the account (the previous refresh's) for the checks that compare two; nullopt: none. */
    std::optional<AccountSample> previous;

    /** This snapshot's own sample (AccountSample::of the account at loadedAt), what the next refresh compares with. */
    AccountSample sample() const { return AccountSample::of(account, loadedAt); }

    /** The account has a `$MQTT_sess` stream and JetStream: its records are checked. */
    bool wantsRecordChecks() const;
    /**
     * The check input of this one account (the operator asked about it: it is meant to serve MQTT; the
     * system account included), with its records when every one was read.
     */
    DiagnosisInput diagnosisInput(const CheckOptions &options = {}) const;
    /**
     * Checks::diagnose(diagnosisInput()), only this account's findings and the cluster's; the per-session
     * SESSION_MISSING_CONSUMER findings kept as references to the records (FindingList).
     */
    FindingList findings(const CheckOptions &options = {}) const;
    /** The durables and their owners (ConsumerOwner::ofAccount of the records); none unless consumersKnown. */
    QList<ConsumerOwner> consumerOwners() const { return records.owners ? *records.owners : ConsumerOwner::ofAccount(records); }
    /** Makes consumerOwners() once and keeps them in `records`, where findings() uses them too. */
    void keepConsumerOwners() { records.owners = std::make_shared<const QList<ConsumerOwner>>(ConsumerOwner::ofAccount(records)); }
};

} // namespace MqttDoctor
