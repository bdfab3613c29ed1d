#pragma once

#include <QJsonObject>
#include <QList>

#include <optional>

#include "diagnosis/checkoptions.h"
#include "mqtt/layoutchoice.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "records/mqttmanagers.h"

namespace MqttDoctor {

/** Everything Checks::checkAccount looks at, all gathered beforehand (no network). */
struct AccountCheckInput
{
    /**
     * The account with ALL its streams (not only $MQTT_*: other streams may overlap MQTT subjects)
     * and, where known, their consumers. For RETAINED_ORPHANED, the `$MQTT_rmsgs` state needs a
     * per-subject count map `subjects` (STREAM.INFO with `subjects_filter` "$MQTT.rmsgs" or ">"); without
     * it that check is skipped.
     */
    AccountInfo account;
    /** The servers of the cluster (versions, cluster names, JetStream, MQTT listener, domain). */
    QList<ServerInfo> servers;
    CheckOptions options;
    /** The expected layout when already chosen; else Layouts::choose(servers, options.layout, account.streams). */
    std::optional<LayoutChoice> layout;
    /**
     * Known JetStream limits of the account (`$JS.API.INFO` "limits": max_streams, max_storage,
     * max_bytes_required...); when absent, account.limits if account.limitsKnown. Without limits the
     * STREAM_LIMIT_HEADROOM check is skipped.
     */
    std::optional<QJsonObject> limits;
    /**
     * The account shows that it serves MQTT clients (Checks::showsMqttUse: diagnose() sets it so on every
     * path). When false, JETSTREAM_DISABLED is info and nothing is raised above warning: it would only
     * matter once MQTT clients use the account.
     */
    bool assumeMqtt = true;
    /**
     * The servers that set up MQTT for the account and where they take retained messages
     * (RETAINED_CONSUMER_MISSING); nullopt: unknown (no system connection).
     */
    std::optional<AccountManagers> managers;
};

} // namespace MqttDoctor
