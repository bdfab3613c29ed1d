#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

#include "nats/streaminfo.h"

namespace MqttDoctor {

/**
 * The JetStream API counters of an account: requests the servers answered for it and how many of those
 * were error replies (`api` of `$JS.API.INFO`, or of each server's JSZ account details, summed). Counted
 * since each server started; only their growth between two samples says something.
 */
struct JetStreamApiCounts
{
    qint64 total = 0;
    qint64 errors = 0;
    /** "jsz": summed over the JSZ replies of `servers` servers; "api": the one server that answered `$JS.API.INFO`. */
    QString source;
    int servers = 0;
    /** The two samples count the same servers the same way (a restart or a server more makes them incomparable). */
    bool comparableWith(const JetStreamApiCounts &earlier) const
    {
        return source == earlier.source && servers == earlier.servers && total >= earlier.total && errors >= earlier.errors;
    }
};

/** An account with its JetStream state. */
struct AccountInfo
{
    QString name;
    bool isSystem = false;
    bool jetstream = false;
    bool jetstreamKnown = true; ///< false when no source could tell
    QJsonObject limits; ///< {max_memory, max_storage, max_streams, max_consumers, ...} when known
    bool limitsKnown = false;
    qint64 memory = 0;
    qint64 storage = 0;
    int streamCount = 0;
    int consumerCount = 0;
    QList<StreamInfo> streams; ///< every stream of the account (not only MQTT ones)
    bool streamsKnown = false;
    QString source; ///< "jsz", "api" or "accountz"
    /** The account's JetStream API counters; nullopt: not read. */
    std::optional<JetStreamApiCounts> api;
    /**
     * The JetStream domain the account's streams were read in (its JetStream API's account info:
     * the domain asked for, else the connected server's); empty for none. Known only with source "api".
     */
    QString readDomain;
    bool readDomainKnown = false;

    QList<StreamInfo> mqttStreams() const
    {
        QList<StreamInfo> out;
        for (const StreamInfo &s : streams)
            if (s.isMqtt())
                out.append(s);
        return out;
    }
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::AccountInfo)
