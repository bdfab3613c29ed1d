#pragma once

#include <QList>

#include "diagnosis/accountsample.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"
#include "diagnosis/sessionchecks.h"

namespace MqttDoctor::Checks {

/**
 * CONSUMER_STUCK (docs/findings.md): sessions whose client is connected while a durable of theirs on
 * `$MQTT_msgs` does not get its deliveries acknowledged. With `previous` (an earlier sample of the
 * account): a durable whose deliveries advanced since while its ack floor did not, with messages waiting
 * for acknowledgement. Without it, only what one sample shows: a durable at its max_ack_pending with
 * redeliveries. One finding per session, naming its stuck durables. Needs the connected clients (skipped
 * without them). Pure; any thread. Sorted.
 */
QList<Finding> checkStuckConsumers(const SessionCheckInput &input, const AccountSample *previous, const CheckOptions &options = {});

/**
 * INTEREST_PINNED: sessions whose client is not connected and whose durables hold more than
 * CheckOptions::pinnedWarnAt messages (interest retention keeps them in `$MQTT_msgs`/`$MQTT_out`), with
 * the bytes estimated from `account`'s stream sizes. Needs the connected clients. Pure; any thread. Sorted.
 */
QList<Finding> checkInterestPinned(const SessionCheckInput &input, const AccountInfo &account, const CheckOptions &options = {});

} // namespace MqttDoctor::Checks
