#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/** Where one durable's delivery stood when sampled (its consumer info). */
struct ConsumerProgress
{
    QString stream;
    qint64 deliveredConsumerSeq = 0; ///< `delivered.consumer_seq`: every delivery, redeliveries included
    qint64 deliveredStreamSeq = 0; ///< `delivered.stream_seq`
    qint64 ackFloorConsumerSeq = 0; ///< `ack_floor.consumer_seq`
    qint64 ackFloorStreamSeq = 0; ///< `ack_floor.stream_seq`
    qint64 numAckPending = 0;
    qint64 numRedelivered = 0;
    qint64 numPending = 0;
    qint64 maxAckPending = 0; ///< `config.max_ack_pending` (0: unknown)

    /** From a consumer info object (CONSUMER.LIST or JSZ consumer_detail). */
    static ConsumerProgress fromInfo(const QString &stream, const QJsonObject &info);
};

/**
 * What the checks that compare two samples need of one account: its JetStream API counters and where
 * the durables of `$MQTT_msgs`/`$MQTT_out` stood, at one time. Taken from a gathered AccountInfo (no
 * request of its own): `check --watch` and the application's auto-refresh keep the previous refresh's,
 * `check --sample-interval` takes one before its check. A value; any thread.
 */
struct AccountSample
{
    QString account;
    QDateTime time; ///< when it was taken (UTC)
    std::optional<JetStreamApiCounts> api;
    /** The durables by name; only meaningful when consumersKnown. */
    QHash<QString, ConsumerProgress> consumers;
    bool consumersKnown = false;

    /** The sample of a gathered account at `time`. */
    static AccountSample of(const AccountInfo &account, const QDateTime &time);
    /** Seconds from `earlier` to this one (at least 0). */
    qint64 secondsSince(const AccountSample &earlier) const;
};

} // namespace MqttDoctor
