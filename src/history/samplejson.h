#pragma once

#include <optional>

#include <QJsonObject>

#include "diagnosis/accountsample.h"

namespace MqttDoctor {

/**
 * An AccountSample as the history keeps it (the last one of each account), so that the next recorded
 * check runs the checks that compare two samples (CONSUMER_STUCK, JETSTREAM_API_ERRORS) without a second
 * sample of its own: `{"time", "api": {"total", "errors", "source", "servers"}, "consumers_known",
 * "consumers": {name: {"stream", "delivered": [consumer_seq, stream_seq], "ack_floor": [...], "ack_pending",
 * "redelivered", "pending", "max_ack_pending"}}}`.
 */
class SampleJson final
{
public:
    static QJsonObject toJson(const AccountSample &sample);
    /** nullopt when `json` is not a sample. */
    static std::optional<AccountSample> fromJson(const QString &account, const QJsonObject &json);
};

} // namespace MqttDoctor
