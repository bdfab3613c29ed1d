#pragma once

#include <QList>
#include <QString>

#include "activity/mqttclientevent.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

/**
 * The MQTT connections the servers closed recently (CONNZ with `state` closed or any: each server
 * keeps its last closed connections, 10,000 by default), as disconnect events with their reason,
 * address (ip:port) and stop time: what `check` judges takeovers of one client ID from (read in the
 * connected clients' walk, SessionLoader::loadConnected). Pure; any thread.
 */
namespace ClosedConnections {

/** The events of CONNZ replies (MQTT connections only). */
QList<MqttClientEvent> fromConnz(const QList<SystemClient::Reply> &replies, const QString &account);

} // namespace ClosedConnections
} // namespace MqttDoctor
