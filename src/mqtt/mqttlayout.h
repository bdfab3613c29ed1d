#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

#include "mqtt/mqttstreamspec.h"

namespace MqttDoctor {

/**
 * The MQTT streams the servers of a cluster expect in an account, with their exact configs.
 * A value type; pure and thread-safe.
 *
 * - **2.9 layout**: `$MQTT_sess` [`$MQTT.sess.<domainTk>>`] limits, max_msgs_per_subject 1;
 *   `$MQTT_msgs` [`$MQTT.msgs.>`] interest; `$MQTT_rmsgs` [`$MQTT.rmsgs`] limits, max_msgs_per_subject -1.
 * - **2.10+ layout**: the same sessions and messages streams, plus `$MQTT_qos2in` [`$MQTT.qos2.in.>`]
 *   limits, discard new, max_msgs_per_subject 1, discard_new_per_subject; `$MQTT_out` [`$MQTT.out.>`]
 *   interest; and `$MQTT_rmsgs` [`$MQTT.rmsgs.>`] max_msgs_per_subject 1.
 * - **mixed** (servers of both layouts serve MQTT): what the account's servers enforce together. The
 *   2.10+ servers create the two QoS2 streams (harmless to 2.9 servers), while the retained stream must
 *   keep the 2.9 shape: a 2.9 server cannot build its retained consumer on `$MQTT.rmsgs.>` (10093).
 *
 * All streams use file storage and the same replicas. Streams are listed in the order the server
 * looks them up and creates them (sess, msgs, qos2in, out, rmsgs).
 */
class MqttLayout final
{
public:
    enum class Kind { V2_9, V2_10, Mixed };

    /** The 2.10+ layout, no domain, one replica. */
    MqttLayout() : MqttLayout(Kind::V2_10) {}
    /** `domain` is the JetStream domain whose token goes into the sessions subject ("hub" → `$MQTT.sess.hub.>`). */
    explicit MqttLayout(Kind kind, const QString &domain = {}, int replicas = 1);

    Kind kind() const { return m_kind; }
    QString domain() const { return m_domain; }
    /** "hub." for domain "hub", empty without a domain (the server's `domainTk`). */
    QString domainToken() const;
    int replicas() const { return m_replicas; }

    const QList<MqttStreamSpec> &streams() const { return m_streams; }
    std::optional<MqttStreamSpec> stream(const QString &name) const;
    bool contains(const QString &name) const { return stream(name).has_value(); }
    QStringList streamNames() const;

    /** The subject of a session record: `$MQTT.sess.<domainTk><hash>`. */
    QString sessionSubject(const QString &clientIdHash) const { return sessionSubject(m_domain, clientIdHash); }
    /** "$MQTT.sess.<hash>" or "$MQTT.sess.<domain>.<hash>": the one place that spells a session record's subject. */
    static QString sessionSubject(const QString &domain, const QString &clientIdHash);

    /** For the CLI's "layout" key: {kind, domain, domain_token, replicas, streams: [{name, label, config}]}. */
    QJsonObject toJson() const;

    /** "2.9", "2.10+", "mixed". */
    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);

    static QString sessionsStream() { return QStringLiteral("$MQTT_sess"); }
    static QString messagesStream() { return QStringLiteral("$MQTT_msgs"); }
    static QString qos2InStream() { return QStringLiteral("$MQTT_qos2in"); }
    static QString outStream() { return QStringLiteral("$MQTT_out"); }
    static QString retainedStream() { return QStringLiteral("$MQTT_rmsgs"); }
    /** Prefix of the per-session streams of servers up to 2.4.x. */
    static QString legacySessionPrefix() { return QStringLiteral("$MQTT_sess_"); }
    /**
     * The single retained subject of the 2.9 layout, where a 2.10+ migration cut short leaves orphans
     * (docs/internals.md, "Retained messages: the 2.10 migration").
     */
    static QString retainedLegacySubject() { return QStringLiteral("$MQTT.rmsgs"); }
    /** The retained subjects of the 2.10+ layout. */
    static QString retainedSubjects() { return QStringLiteral("$MQTT.rmsgs.>"); }

    /**
     * The client-ID hash a server-made durable belongs to: `<hash>_<nuid>` on `$MQTT_msgs`,
     * `$MQTT_PUBREL_<hash>` on `$MQTT_out`; empty for any other consumer.
     */
    static QString durableOwnerHash(const QString &stream, const QString &consumer);

    /** One of the five stream names any version creates. */
    static bool isMqttStreamName(const QString &name);
    static bool isLegacySessionStream(const QString &name) { return name.startsWith(legacySessionPrefix()); }

    /** The retained stream in the shape of `kind` (mixed: the 2.9 shape). */
    static MqttStreamSpec retainedSpec(Kind kind, int replicas = 1);

    bool operator==(const MqttLayout &) const = default;

private:
    Kind m_kind = Kind::V2_10;
    QString m_domain;
    int m_replicas = 1;
    QList<MqttStreamSpec> m_streams;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::MqttLayout)
