#pragma once

#include <optional>

#include <QDateTime>
#include <QList>
#include <QString>

#include "diagnosis/mqttprobe.h"
#include "diagnosis/sessionchecks.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "records/mqttconnections.h"
#include "records/retainedloader.h"

namespace MqttDoctor {

/** What OperatorPlanner plans from: the account's state read right before (no network here). */
struct OperatorInput
{
    QString account;
    QString apiDomain; ///< JetStream API domain of the request subjects ("" none)
    QList<ServerInfo> servers;
    AccountInfo accountInfo; ///< the account's streams
    /** Sessions (joined with their durables), the durables, CONNZ, QoS 2 records; null when not read. */
    const SessionCheckInput *records = nullptr;
    /** The account's open MQTT connections on every server; nullopt: unknown (no server answered CONNZ). */
    std::optional<QList<MqttConnection>> connections;
    /** The retained messages (ClearRetained); nullopt: not read. */
    std::optional<QList<RetainedEntry>> retained;
    /** A system connection exists: the servers' kick request can be sent. */
    bool hasSystem = false;
    /** The account's MQTT listener and user (the profile's `mqtt_probe`); nullopt: none. */
    std::optional<MqttProbeRequest> mqtt;
    QDateTime now; ///< UTC: the policy's "not seen for"
};

} // namespace MqttDoctor
