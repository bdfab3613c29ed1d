#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

#include "common/flatmap.h"
#include "common/result.h"
#include "common/sharedoptional.h"
#include "mqtt/consumerconfigjson.h"
#include "mqtt/storedmessage.h"
#include "mqtt/topicmapping.h"

namespace MqttDoctor {

/**
 * A persisted MQTT session (`mqttPersistedSession`) as stored on `$MQTT.sess.[<domain>.]<cidHash>`
 * in `$MQTT_sess`: origin, id, clean, subs, cons and (2.10+) pubrel,
 * plus what a diagnosis derives from them (subject hash token, whether the ID hashes to it, the
 * subscriptions in NATS and MQTT form, the durables referenced).
 *
 * decode() is total: any bytes give a record or an Error of kind InvalidInput whose message names
 * the field and the reason (DecodeError); it never throws or crashes. encode() writes the JSON the
 * way nats-server does (Go field order, `\u003e` escapes) and round-trips: decode(encode(r)) == r.
 * Consumer configs are kept as JSON objects so unknown fields survive. A value type; pure and
 * thread-safe.
 */
class SessionRecord final
{
public:
    /** Which header block the stored message had (saves after the first carry the optimistic lock). */
    enum class HeaderForm {
        None, ///< no header block (decoded from a bare body, or a legacy record)
        Empty, ///< `NATS/1.0\r\n\r\n` (first save)
        ExpectedLastSequence, ///< `Nats-Expected-Last-Subject-Sequence:<n>`
        Other, ///< other headers only
    };

    /** One MQTT subscription of the session (one `subs` entry). */
    struct Subscription
    {
        QString natsSubject; ///< key in `subs`, e.g. "alerts.>"
        QString mqttFilter; ///< e.g. "alerts/#"
        int qos = 0;
        QString durableName; ///< from `cons[natsSubject]`, empty for QoS 0 or when missing
        QString levelUpDurable; ///< from `cons["<parent> fwc"]` for `x.>` subjects, else empty
        bool operator==(const Subscription &other) const = default;
    };

    /** Parses a record body (the JSON). */
    static Result<SessionRecord> decode(const QByteArray &json);
    /** Parses a stored message: the body, its header block and its subject (for the derived fields). */
    static Result<SessionRecord> decode(const StoredMessage &message);
    /** The reference decoder (QJsonDocument, NatsHeaders): what decode() must agree with; slower. */
    static Result<SessionRecord> decodeReference(const QByteArray &json);
    static Result<SessionRecord> decodeReference(const StoredMessage &message);

    /** The JSON body as nats-server writes it. */
    QByteArray encode() const;

    // --- stored fields ---
    QString origin; ///< serverHash of the server that last wrote it
    QString id; ///< MQTT client ID
    bool clean = false;
    FlatMap<QString, int> subs; ///< NATS subject filter → QoS (sorted, like the QMap it replaced)
    FlatMap<QString, ConsumerConfigJson> cons; ///< sid (subject or "<subject> fwc") → ConsumerConfig JSON
    SharedOptional<ConsumerConfigJson> pubrel; ///< 2.10+: the PUBREL durable's ConsumerConfig (shared, 16 bytes: most records have none)
    QJsonObject unknownFields; ///< top-level keys this version does not know (kept for encode)

    // --- from the stored message (decode(StoredMessage) only) ---
    QString subject; ///< e.g. "$MQTT.sess.kBmSuDPK"; empty for decode(json)
    quint64 seq = 0;
    HeaderForm headerForm = HeaderForm::None;
    std::optional<quint64> expectedLastSubjectSequence;

    // --- derived ---
    /** The last token of a `$MQTT.sess.[<domain>.]<hash>` subject, or the `<hash>` of a legacy `$MQTT_sess_<hash>`; empty otherwise. */
    QString subjectHash() const;
    /** subjectHash() of any subject, as a view into it (no string made). */
    static QStringView subjectHashOf(QStringView subject);
    /** The domain tokens between `$MQTT.sess.` and the hash ("hub"), empty without a domain. */
    QString subjectDomain() const;
    /** ClientIdHash::hash(id). */
    QString idHash() const;
    /** Whether idHash() equals subjectHash(); nullopt when the subject is unknown. False means SESSION_ID_MISMATCH. */
    std::optional<bool> idMatchesSubject() const;
    /** The `subs` entries with their MQTT filter and the durables serving them, in `subs` key order. */
    QList<Subscription> subscriptions(TopicMapping::Dialect dialect = TopicMapping::Dialect::V2_10) const;
    /** TopicMapping::subjectToTopic(subject, dialect), made once per distinct subject, dialect and thread (bounded). */
    static QString mqttFilterOf(const QString &subject, TopicMapping::Dialect dialect);
    /** Every `durable_name` referenced by `cons` and `pubrel`, sorted, without duplicates. */
    QStringList durableNames() const;
    /** `cons[sid].durable_name`, or an empty string. */
    QString durableOf(const QString &sid) const;

    bool operator==(const SessionRecord &other) const = default;
};

} // namespace MqttDoctor
