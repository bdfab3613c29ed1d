#pragma once

#include <optional>

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace MqttDoctor {

/**
 * One MQTT client connecting or disconnecting, from the servers' system advisories
 * (`$SYS.ACCOUNT.<account>.CONNECT` / `.DISCONNECT`, `io.nats.server.advisory.v1.client_connect` and
 * `client_disconnect`). The advisories of non-MQTT connections are not events here.
 */
struct MqttClientEvent
{
    enum class Kind { Connect, Disconnect };

    Kind kind = Kind::Connect;
    QDateTime time; ///< the advisory's timestamp (UTC)
    QString account;
    QString clientId; ///< the MQTT client ID (client.client_id; 2.5.0+)
    QString server; ///< the server's name (its ID when it has none)
    QString address; ///< the client's host:port
    QString user;
    quint64 connectionId = 0; ///< the server's connection id (cid)
    QString reason; ///< Disconnect: why ("Client Closed", "Duplicate Client ID", ...)

    /** From an advisory's JSON; nullopt for other advisories, non-MQTT clients and malformed ones. */
    static std::optional<MqttClientEvent> fromAdvisory(const QByteArray &json);
    /** The reason nats-server gives a connection that another connection with its client ID replaced. */
    static QString takeoverReason();
    /** "host:port" ("[v6]:port"); the host alone without a port. */
    static QString formatAddress(const QString &host, int port);
    bool isTakeover() const { return kind == Kind::Disconnect && reason == takeoverReason(); }

    /** {"time", "event": "connect"|"disconnect", "account", "client_id", "server", "address", "user", "cid", "reason"} */
    QJsonObject toJson() const;
    /** One line: time, account, client ID, server, address, connect or disconnect and its reason. */
    QString text() const;
};

} // namespace MqttDoctor
