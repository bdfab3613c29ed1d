#pragma once

#include <optional>

#include <QDateTime>
#include <QJsonValue>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * What is in flight for one MQTT session (docs/cli.md, `session`): the messages its durables still
 * have to deliver or see acknowledged (`$MQTT_msgs`), the QoS 2 messages it published and has not yet
 * released (`$MQTT_qos2in`, waiting for the client's PUBREL) and the PUBRELs the server sent it that
 * it has not completed (`$MQTT_out`, waiting for the client's PUBCOMP). Each list holds the first
 * `limit` of its kind, oldest first; the totals count them all. A value; any thread.
 */
struct SessionInflight
{
    /** A time as the JSON of docs/cli.md (RFC 3339, UTC, milliseconds); null when unknown. */
    static QJsonValue timeJson(const QDateTime &time);
    /** Keeps in `oldest` the older of it and `time` (an invalid time is no time). */
    static void keepOlder(QDateTime &oldest, const QDateTime &time);

    /** One message a durable of the session has not had acknowledged. */
    struct Queued
    {
        QString consumer; ///< the durable
        quint64 seq = 0; ///< stream sequence in `$MQTT_msgs`
        QString subject; ///< the NATS subject it was published on (`$MQTT.msgs.` removed)
        QString topic; ///< the MQTT topic
        int qos = 0; ///< the QoS it was published with (`Nmqtt-Pub`)
        qint64 size = 0; ///< payload bytes
        QDateTime time; ///< store time (UTC)
        /**
         * 0: not delivered yet; else how often the durable delivered it without an acknowledgement.
         * Counted from the durable's sequences: exact when nothing was redelivered or one message is
         * delivered (deliveredExact), else the average over the delivered ones.
         */
        int delivered = 0;
        bool deliveredExact = true;
        QString payloadPreview;
        QString problem; ///< "undecodable: ..." (the stored headers are not an MQTT copy)
    };
    /** A QoS 2 PUBLISH of the client, stored until its PUBREL. */
    struct Qos2Incoming
    {
        int packetId = 0;
        quint64 seq = 0;
        QString subject; ///< the stored subject `$MQTT.qos2.in.<client ID>.<packet ID>`
        QString topic; ///< from `Nmqtt-Subject`
        bool retain = false; ///< the flags digit of newer servers (`Nmqtt-Pub:25`)
        qint64 size = 0;
        QDateTime time;
        QString problem;
    };
    /** A PUBREL the server sent and the client has not completed (PUBCOMP). */
    struct PubRel
    {
        int packetId = 0;
        quint64 seq = 0;
        QDateTime time;
        QString problem;
    };

    QList<Queued> queued;
    qint64 queuedTotal = 0; ///< num_pending + num_ack_pending over the session's durables
    QList<Qos2Incoming> qos2Incoming;
    qint64 qos2IncomingTotal = 0;
    QList<PubRel> pubrelPending;
    qint64 pubrelTotal = 0;
    int limit = 100; ///< the first N of each kind (0: all)
    /**
     * `$MQTT_qos2in` and `$MQTT_out` exist. False on 2.9 servers (they have no QoS 2 streams: QoS 2
     * PUBLISH is refused and QoS 2 subscriptions are downgraded) or when they are missing; notes say which.
     */
    bool qos2Streams = true;
    bool messagesStream = true; ///< `$MQTT_msgs` exists (else nothing queued can be read; a note says so)
    bool qos2InStream = true; ///< `$MQTT_qos2in` exists
    bool outStream = true; ///< `$MQTT_out` exists
    QStringList notes; ///< what could not be read, and why

    /** The oldest store time of anything in flight (invalid: nothing). */
    QDateTime oldest() const;
    /**
     * The keys of docs/cli.md added to a session object: `queued`, `queued_total`, `qos2_incoming`,
     * `qos2_incoming_total`, `pubrel_pending`, `pubrel_pending_total`, `inflight_limit`, `qos2_streams`,
     * `inflight_notes`.
     */
    void addToJson(QJsonObject &session) const;
    static QJsonObject toJson(const Queued &q);
    static QJsonObject toJson(const Qos2Incoming &q);
    static QJsonObject toJson(const PubRel &p);
};

} // namespace MqttDoctor
