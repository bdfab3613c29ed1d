#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>

namespace MqttDoctor {

/**
 * Every record of an account's `$MQTT_qos2in` (QoS 2 PUBLISHes waiting for the client's PUBREL) and
 * `$MQTT_out` (PUBRELs waiting for the client's PUBCOMP), decoded, with the session each belongs to
 * (the client ID's hash). Read by InflightReader without a consumer; the `inflight` command, the GUI's
 * in-flight view and the QOS2_ORPHANED check use it. A value; any thread.
 */
struct Qos2Records
{
    struct Record
    {
        QString stream; ///< `$MQTT_qos2in` or `$MQTT_out`
        quint64 seq = 0;
        QString subject; ///< the stored subject
        QString clientId; ///< `$MQTT_qos2in`: the raw client ID of the subject; `$MQTT_out`: empty (only its hash is stored)
        QString hash; ///< the session's client-ID hash
        int packetId = 0;
        QString topic; ///< `$MQTT_qos2in`: the MQTT topic of `Nmqtt-Subject`
        bool retain = false;
        qint64 size = 0;
        QDateTime time;
        QString problem; ///< "undecodable: ..." (still owned by the subject's client)
    };
    /** Records of one session no `$MQTT_sess` record exists for (QOS2_ORPHANED), per stream. */
    struct Orphans
    {
        QString stream;
        QString clientId; ///< `$MQTT_qos2in` only
        QString hash;
        /** The subjects the records are on (`$MQTT.qos2.in.<client ID>.*`, `$MQTT.out.pubrel.<hash>`); empty when the ID makes no valid filter. */
        QString subjectFilter;
        QList<quint64> sequences;
        QList<int> packetIds;
        qint64 bytes = 0;
        QDateTime oldest;
        QJsonObject toJson() const;
    };

    QList<Record> records; ///< `$MQTT_qos2in`'s, then `$MQTT_out`'s, each by sequence
    bool qos2InExists = false;
    bool outExists = false;

    /** The records without a session: grouped per stream and session, `$MQTT_qos2in` first, then by hash. Pure. */
    QList<Orphans> orphans(const QSet<QString> &sessionHashes) const;
    /** `$MQTT.qos2.in.<client ID>.*`, empty when the ID holds a character a subject filter cannot (space, `*`, `>`, an empty token). */
    static QString qos2InFilter(const QString &clientId);
};

} // namespace MqttDoctor
