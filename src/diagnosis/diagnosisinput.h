#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "diagnosis/checkoptions.h"
#include "diagnosis/sessionchecks.h"
#include "nats/clusterinfo.h"

namespace MqttDoctor {

/** Everything Checks::diagnose looks at: the gathered cluster state (no network). */
struct DiagnosisInput
{
    QList<ServerInfo> servers;      ///< Discovery::servers()
    QList<AccountInfo> accounts;    ///< Discovery::accounts() or the one Discovery::account()
    CheckOptions options;
    QHash<QString, QJsonObject> limits; ///< known JetStream limits per account name (see AccountCheckInput::limits)
    /**
     * Accounts known to serve MQTT, e.g. the `--account A` the user asked about, or the connection's own
     * account. Accounts with MQTT streams count anyway; the others are checked with assumeMqtt false.
     */
    QStringList mqttAccounts;
    bool includeSystemAccount = false; ///< the system account is skipped unless set
    /** The records of accounts whose record-level checks run (Checks::checkSessions), by account name. */
    QHash<QString, SessionCheckInput> sessions;
    /** What could not be checked and why, one sentence each ("record-level checks of account X skipped: ..."). */
    QStringList notes;
};

} // namespace MqttDoctor
