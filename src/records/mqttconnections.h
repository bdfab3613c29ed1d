#pragma once

#include <memory>

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

/** One open MQTT connection as a server's CONNZ lists it: where it is, so that it can be closed (KICK takes `cid`). */
struct MqttConnection
{
    QString clientId; ///< `mqtt_client`
    QString serverId; ///< the answering server's id (`$SYS.REQ.SERVER.<id>.KICK`)
    QString serverName;
    QString serverVersion;
    quint64 cid = 0; ///< the server's connection id
    QString address; ///< ip:port of the client
    QDateTime start; ///< when it connected (UTC); invalid when the server did not say

    QJsonObject toJson() const;
};

/**
 * The open MQTT connections of an account, with where they are (CONNZ `acc` + `mqtt_client` on every server,
 * paged), through the system connection or an account connection's CONNZ import. Only `mqtt_client`, `cid`,
 * `ip`, `port` and `start` are read from a connection (never `jwt`, which can hold a password).
 */
namespace MqttConnections {

/** Every open connection of `clientIds` (empty: of every MQTT client) in `account`. Blocking: worker thread. */
Result<QList<MqttConnection>> find(SystemClient &system, const QString &account, const QStringList &clientIds = {});
/** The open MQTT connections in CONNZ replies (closed ones, with a `stop`, are left out). Pure. */
QList<MqttConnection> fromConnz(const QList<SystemClient::Reply> &replies);

} // namespace MqttConnections
} // namespace MqttDoctor
