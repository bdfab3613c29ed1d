#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include "diagnosis/consumerowner.h"
#include "diagnosis/sessionchecks.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Who keeps messages in `$MQTT_msgs` and `$MQTT_out`: both streams have interest retention, so a message
 * stays while any durable on its subject has not acknowledged it. One holder per session (the durables
 * its record names), per connected clean-session client, and per hash of durables no record names
 * (orphans); with the messages its durables hold (num_pending + num_ack_pending) and an estimate of their
 * bytes (the stream's average message size: the servers report no bytes per consumer). A message that
 * several durables wait for counts for each of them, so holders' messages may add up to more than the
 * stream holds. Pure; any thread.
 */
struct InterestHolder
{
    enum class Kind { Session, ConnectedClient, Orphan, UndecodableRecord, NotMqtt };

    Kind kind = Kind::Session;
    QString clientId; ///< the record's (Session) or the connected client's; empty otherwise
    QString hash; ///< the client-ID hash of its durables; empty for NotMqtt
    QString subject; ///< the session record's subject (Session), else empty
    quint64 seq = 0; ///< the record's sequence (Session)
    QDateTime written; ///< when the record was last written (Session), else invalid
    bool clean = false;
    std::optional<bool> connected; ///< nullopt: unknown (no system connection)
    QString server; ///< the server the client is connected to
    QStringList durables; ///< its durables that hold messages, sorted
    qint64 messages = 0; ///< num_pending + num_ack_pending of its durables
    qint64 unacknowledged = 0; ///< num_ack_pending of its durables (delivered, waiting for PUBACK)
    qint64 bytes = 0; ///< estimated: each durable's messages times its stream's average message size

    static QString kindName(Kind kind);
    /** {"kind", "client_id", "hash", "subject", "seq", "written", "clean", "connected", "server", "durables", "messages", "unacknowledged", "bytes"} (docs/cli.md). */
    QJsonObject toJson() const;

    /**
     * The holders of an account with at least one message, most bytes first (then most messages, then
     * client ID and hash). `account` gives the streams' sizes; empty unless the consumers are known.
     */
    static QList<InterestHolder> ofAccount(const SessionCheckInput &input, const AccountInfo &account);
    /** The same with the durables' owners already worked out (ConsumerOwner::ofAccount(input)). */
    static QList<InterestHolder> ofAccount(const SessionCheckInput &input, const AccountInfo &account, const QList<ConsumerOwner> &owners);
};

} // namespace MqttDoctor
