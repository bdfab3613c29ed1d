#pragma once

#include <QList>

#include "diagnosis/finding.h"

namespace MqttDoctor {

struct CheckContext;

/**
 * The retained messages' layout (2.9 single subject, 2.10+ per subject, mixed and downgraded clusters)
 * and the legacy per-session streams.
 * Works on one account's CheckContext during one Checks::checkAccount call; each function appends its
 * findings to `out`. Pure: no I/O; any thread.
 */
class RetainedChecks final
{
public:
    explicit RetainedChecks(const CheckContext &context);

    void retained(QList<Finding> &out) const;
    /**
     * RETAINED_CONSUMER_MISSING: a server that set up MQTT for the account has no consumer on
     * `$MQTT_rmsgs` delivering to it (AccountCheckInput::managers; without them, only when a connected
     * client's durable shows that some server set up MQTT while no retained consumer is bound). Not judged while a
     * replica of `$MQTT_rmsgs` is offline: the listing may leave out a consumer placed on it.
     */
    void retainedConsumers(QList<Finding> &out) const;
    void legacySessions(QList<Finding> &out) const;

private:
    const CheckContext &m_ctx;
};

} // namespace MqttDoctor
