#pragma once

#include <QList>

#include "diagnosis/finding.h"

namespace MqttDoctor {

struct CheckContext;

/**
 * Checks of the expected MQTT streams themselves: missing, subjects and config fields, replicas,
 * health.
 * Works on one account's CheckContext during one Checks::checkAccount call; each function appends its
 * findings to `out`. Pure: no I/O; any thread.
 */
class StreamChecks final
{
public:
    explicit StreamChecks(const CheckContext &context);

    void missing(QList<Finding> &out) const;
    void subjectsAndConfig(QList<Finding> &out) const;
    void replicas(QList<Finding> &out) const;
    void health(QList<Finding> &out) const;

private:
    const CheckContext &m_ctx;
};

} // namespace MqttDoctor
