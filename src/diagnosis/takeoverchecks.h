#pragma once

#include <QList>

#include "activity/mqttclientevent.h"
#include "diagnosis/finding.h"

namespace MqttDoctor::Checks {

/**
 * CLIENT_ID_TAKEOVER (docs/findings.md): per client ID of `account` whose connections the servers
 * closed with "Duplicate Client ID" more than TakeoverWatch's threshold within its window, one
 * finding with the takeovers, the window and the addresses involved. `closed`: the account's recently
 * closed MQTT connections (ClosedConnections::fromConnz), oldest first. Pure; any thread.
 */
QList<Finding> checkTakeovers(const QString &account, const QList<MqttClientEvent> &closed);

} // namespace MqttDoctor::Checks
