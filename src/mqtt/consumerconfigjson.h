#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace MqttDoctor {

/**
 * A JetStream ConsumerConfig as a session record stores it (`cons[sid]`, `pubrel`), kept as its compact
 * JSON bytes and parsed only when asked: 100,000 loaded sessions must not each carry a QJsonObject.
 * The bytes are the slice of the record body it was stored as or, for a config built from a QJsonObject,
 * Go-style JSON of it. The durable name is decoded once (every join and
 * subscription needs it). Reads convert implicitly to QJsonObject, so `QJsonObject c = record.cons.value(k)`
 * and `config.value(key)` work as before. A value type; pure and thread-safe.
 */
class ConsumerConfigJson final
{
public:
    ConsumerConfigJson() = default;
    /** From an object (encoded compactly; unknown fields kept). Implicit: a QJsonObject is a config. */
    ConsumerConfigJson(const QJsonObject &object);  // NOLINT(google-explicit-constructor)
    /**
     * A validated JSON object at `body[offset, offset + length)` (copied). The caller
     * guarantees the slice is one JSON object; `durableName` is its `durable_name` (or empty).
     */
    static ConsumerConfigJson fromSlice(const QByteArray &body, qsizetype offset, qsizetype length, QString durableName);

    /** The config as a JSON object (parsed now; empty when there is none). */
    QJsonObject toObject() const;
    operator QJsonObject() const { return toObject(); }  // NOLINT(google-explicit-constructor)
    /** `toObject().value(key)`. */
    QJsonValue value(const QString &key) const { return toObject().value(key); }
    QJsonValue value(QLatin1String key) const { return toObject().value(key); }
    /** No field at all (a null config or `{}`). */
    bool isEmpty() const;
    /** `durable_name`, or an empty string. No parsing. */
    const QString &durableName() const { return m_durable; }
    /** The JSON bytes (compact as stored). */
    QByteArrayView json() const { return m_json; }

    /** Same JSON value (byte-equal slices are equal without parsing). */
    bool operator==(const ConsumerConfigJson &other) const;
    bool operator==(const QJsonObject &other) const { return toObject() == other; }

private:
    QByteArray m_json;
    QString m_durable;
};

} // namespace MqttDoctor
