#pragma once

#include <QList>

#include "diagnosis/finding.h"

namespace MqttDoctor {

struct CheckContext;

/**
 * What will keep the servers from creating the missing MQTT streams: replicas above the JetStream
 * peers, other streams that capture MQTT subjects, the account's limits. They run first and record
 * each blocked stream in CheckContext::blocked, which STREAM_MISSING then reports as critical.
 * Works on one account's CheckContext during one Checks::checkAccount call; each function appends its
 * findings to `out`. Pure: no I/O; any thread.
 */
class BlockerChecks final
{
public:
    explicit BlockerChecks(CheckContext &context);

    void replicasConfig(QList<Finding> &out);
    void overlap(QList<Finding> &out);
    void headroom(QList<Finding> &out);

private:
    CheckContext &m_ctx;
};

} // namespace MqttDoctor
