#pragma once

#include <QList>
#include <QString>

#include "activity/mqttclientevent.h"
#include "common/result.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

/**
 * The MQTT connections the servers closed recently (CONNZ `state=closed`: each server keeps its last
 * closed connections, 10,000 by default), as disconnect events with their reason, address (ip:port)
 * and stop time: what `check` judges takeovers of one client ID from. Blocking: a worker thread.
 */
namespace ClosedConnections {

/** The account's closed MQTT connections (every reason), paged until no server has more. */
Result<QList<MqttClientEvent>> ofAccount(SystemClient &system, const QString &account, int pageSize = 1024);
/** The events of CONNZ replies (MQTT connections only). */
QList<MqttClientEvent> fromConnz(const QList<SystemClient::Reply> &replies, const QString &account);

} // namespace ClosedConnections
} // namespace MqttDoctor
