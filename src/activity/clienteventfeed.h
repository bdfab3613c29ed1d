#pragma once

#include <memory>
#include <optional>

#include <QString>

#include "activity/mqttclientevent.h"
#include "common/result.h"

namespace MqttDoctor {

class ConnectionSet;
class NatsSubscription;

/**
 * The MQTT clients connecting and disconnecting, live: the servers' `$SYS.ACCOUNT.<account>.CONNECT`
 * and `.DISCONNECT` advisories read through the system connection (a system-account subscription
 * sees every account's events, from every server of the cluster), filtered to MQTT clients and, when
 * asked, to one account and one client ID. Blocking reads on the calling thread.
 */
class ClientEventFeed
{
public:
    struct Filter
    {
        QString account; ///< empty: every account
        QString clientId; ///< empty: every client
    };

    ~ClientEventFeed();
    ClientEventFeed(ClientEventFeed &&) noexcept;
    ClientEventFeed &operator=(ClientEventFeed &&) noexcept;

    /** Subscribes through the profile's system connection (an error naming what is missing without one). */
    static Result<ClientEventFeed> open(ConnectionSet &connections, const Filter &filter);

    /** The next MQTT event that passes the filter; nullopt when none came within `timeoutMs`. */
    Result<std::optional<MqttClientEvent>> next(int timeoutMs);
    /** Advisories lost because they came faster than they were read (since the last call). */
    qint64 dropped();

private:
    ClientEventFeed(std::unique_ptr<NatsSubscription> subscription, Filter filter);
    std::unique_ptr<NatsSubscription> m_subscription;
    Filter m_filter;
};

} // namespace MqttDoctor
