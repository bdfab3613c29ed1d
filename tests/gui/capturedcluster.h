#pragma once

#include <QList>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor::Test {

/**
 * A cluster as Discovery reports it, built from replies captured from nats-server 2.9.10 with the
 * test config of tests/gui (ACME with MQTT streams, BETA with limits, NOJS without JetStream, SYS)
 * through the core's own parsers. ACME also has a legacy `$MQTT_sess_X8bU3C1q` stream.
 */
class CapturedCluster final
{
public:
    /** gui1 (2.9.10, MQTT on 1883) and gui2 (2.10.4, MQTT on 1884). */
    static QList<ServerInfo> servers();
    /** ACME, BETA, NOJS, SYS (sorted by name, as Discovery::accounts returns them). */
    static QList<AccountInfo> accounts();
    static AccountInfo account(const QString &name);
    /**
     * A fleet of `count` accounts as Discovery reports it (sorted by name): copies of the captured ACME
     * (its MQTT streams with their real configs) named fleetName(i); every 7th has lost its
     * `$MQTT_sess` (a critical STREAM_MISSING), every 13th (not a 7th) has JetStream off.
     */
    static QList<AccountInfo> fleet(int count);
    /** "fleet-00042" */
    static QString fleetName(int i);
};

} // namespace MqttDoctor::Test
