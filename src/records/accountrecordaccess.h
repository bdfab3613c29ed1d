#pragma once

#include <memory>
#include <optional>

#include <QString>

#include "common/result.h"
#include "mqtt/topicmapping.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

class ConnectionSet;
class NatsConnection;

/**
 * Access to an account's MQTT records: the connection that reads them, which is the account's own
 * (records can only be read with the account's credentials; the system connection sees summaries
 * only), and what reading them needs besides (the JetStream API domain, the session subjects' domain
 * token, the topic dialect of the servers). resolve() picks that connection. Shared by the CLI's
 * record commands, the record-level checks and the GUI.
 */
struct AccountRecordAccess
{
    std::shared_ptr<NatsConnection> connection;
    QString account; ///< may be empty when the server cannot tell
    QString apiDomain; ///< JetStream domain of the API subjects (profile)
    QString sessionDomain; ///< the domain token in `$MQTT.sess.<domain>.<hash>`
    TopicMapping::Dialect dialect = TopicMapping::Dialect::V2_10;

    /**
     * The connection to read `accountName`'s records with: its credentials from the profile, else the
     * primary connection when it belongs to that account (or `accountName` is empty). A clear
     * InvalidInput error (with a hint) when there is none. Blocking (connects, asks the servers).
     */
    static Result<AccountRecordAccess> resolve(ConnectionSet &connections, const QString &accountName);
    /**
     * The same with the cluster's servers already discovered (their versions choose the topic dialect)
     * and, when not null, the account's streams already read (the downgrade check looks at their
     * `$MQTT_rmsgs` instead of asking for it).
     */
    static Result<AccountRecordAccess> resolve(ConnectionSet &connections, const QString &accountName, const QList<ServerInfo> &servers,
                                               const QList<StreamInfo> *knownStreams = nullptr);
    /** True when resolve() can succeed without asking the network: credentials or a primary user. */
    static bool canResolve(const ConnectionSet &connections, const QString &accountName);
    /**
     * CONNZ of this account through the system connection (`clientId` empty: every MQTT client). nullopt
     * (connected state unknown) without a system connection or when CONNZ fails; then `why` says so.
     */
    std::optional<SessionLoader::ConnectedClients> connectedClients(ConnectionSet &connections, const QString &clientId = {},
                                                                    QString *why = nullptr, QList<MqttClientEvent> *closed = nullptr) const;
};

} // namespace MqttDoctor
