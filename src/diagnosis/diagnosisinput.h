#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "activity/mqttclientevent.h"
#include "diagnosis/accountsample.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/coveragegap.h"
#include "diagnosis/sessionchecks.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "records/mqttmanagers.h"

namespace MqttDoctor {

/** Everything Checks::diagnose looks at: the gathered cluster state (no network). */
struct DiagnosisInput
{
    QList<ServerInfo> servers; ///< Discovery::servers()
    QList<AccountInfo> accounts; ///< Discovery::accounts() or the one Discovery::account()
    CheckOptions options;
    QHash<QString, QJsonObject> limits; ///< known JetStream limits per account name (see AccountCheckInput::limits)
    bool includeSystemAccount = false; ///< the system account is skipped unless set
    /** The records of accounts whose record-level checks run (Checks::checkSessions), by account name. */
    QHash<QString, SessionCheckInput> sessions;
    /** What could not be checked and why (CoverageGap::texts for one sentence each). */
    QList<CoverageGap> gaps;
    /** Recently closed MQTT connections by account name (CONNZ state=closed): CLIENT_ID_TAKEOVER. */
    QHash<QString, QList<MqttClientEvent>> closedConnections;
    /**
     * The servers' MQTT set-up of each account (MqttManagers, through the system account's SUBSZ): an
     * account without an entry has none. nullopt: not read (no system connection, or the read failed: see gaps).
     */
    std::optional<QHash<QString, AccountManagers>> mqttManagers;
    /** When the state above was read (UTC): the time of its sample (AccountSample::of). */
    QDateTime sampledAt;
    /**
     * An earlier sample of accounts by name (`check --watch`'s previous round, the application's previous
     * refresh, `check --sample-interval`'s first look): CONSUMER_STUCK's delivery comparison and
     * JETSTREAM_API_ERRORS run for the accounts that have one.
     */
    QHash<QString, AccountSample> previousSamples;
};

} // namespace MqttDoctor
