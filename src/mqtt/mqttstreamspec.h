#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * One MQTT stream exactly as nats-server creates it: the fields the
 * server sets, everything else left to JetStream's defaults. A value type; pure and thread-safe.
 */
struct MqttStreamSpec
{
    /** One compared field whose value differs. Values are normalised (defaults filled in). */
    struct Difference
    {
        QString field; ///< "subjects", "retention", "storage", "discard", "max_msgs_per_subject", "discard_new_per_subject", "num_replicas"
        QJsonValue expected;
        QJsonValue actual;
    };

    QString name; ///< "$MQTT_sess"
    QString
        label; ///< the server's word for it in its logs: "sessions", "messages", "QoS2 incoming messages", "QoS2 outgoing PUBREL", "retained messages"
    QStringList subjects;
    QString retention = QStringLiteral("limits");
    QString storage = QStringLiteral("file");
    QString discard = QStringLiteral("old");
    qint64 maxMsgsPerSubject = -1; ///< -1: unlimited
    bool discardNewPerSubject = false;
    int replicas = 1;

    /**
     * The config a repair sends to `$JS.API.STREAM.CREATE.<name>`: the same fields nats-server sets
     * (name, subjects, retention, storage, num_replicas, and max_msgs_per_subject / discard /
     * discard_new_per_subject where they are not the default), so the server fills in its own defaults.
     */
    QJsonObject createConfig() const;

    /**
     * The config as a 2.9.10 server reports it after creating the stream (defaults filled in:
     * max_msgs/max_bytes/max_msg_size/max_consumers -1, max_age 0, duplicate_window 120000000000, ...).
     * Newer servers report more fields (compression, consumer_limits...), which are not compared.
     */
    QJsonObject expectedConfig() const;

    /** The compared fields with their expected values (normalised, subjects sorted). */
    QJsonObject comparedValues() const;

    /**
     * The compared fields of `actualConfig` (a stream's "config" JSON) that differ from this spec.
     * Only what nats-server sets is compared; subject order is ignored; missing fields count as the
     * JetStream default (retention limits, storage file, discard old, max_msgs_per_subject -1 (0 too),
     * discard_new_per_subject false, num_replicas 1 (0 too)).
     */
    QList<Difference> differences(const QJsonObject &actualConfig) const;

    bool operator==(const MqttStreamSpec &) const = default;

    /** The compared field names, in a stable order. */
    static QStringList comparedFields();
    /** `field` of a stream config with the JetStream default when absent (subjects: in their order). */
    static QJsonValue normalizedField(const QJsonObject &config, const QString &field);
    /** True when both lists hold the same subjects, in any order. */
    static bool sameSubjects(const QStringList &a, const QStringList &b);
    /** The "subjects" array of a stream config as a list. */
    static QStringList subjectsOf(const QJsonObject &config);
};

} // namespace MqttDoctor
