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
    ConsumerConfigJson(const QJsonObject &object); // NOLINT(google-explicit-constructor)
    /**
     * A validated JSON object at `body[offset, offset + length)` (copied). The caller
     * guarantees the slice is one JSON object; `durableName` is its `durable_name` (or empty).
     */
    static ConsumerConfigJson fromSlice(const QByteArray &body, qsizetype offset, qsizetype length, QString durableName);
    /** Where a string value lies in a record body (its bytes without the quotes), unescaped ASCII. */
    struct ValueSpan
    {
        qsizetype offset = -1; ///< -1: absent
        qsizetype length = 0;
    };
    /**
     * As fromSlice(), for a slice whose `durable_name` value (equal to `durableName`) and
     * `deliver_subject` value lie at `durable` and `deliver` (top-level fields, unescaped ASCII):
     * those two values are kept apart and the rest of the JSON, which the configs of a fleet's
     * sessions have in common, is shared between records (bounded per thread). Same value as fromSlice().
     */
    static ConsumerConfigJson fromSliceShared(const QByteArray &body, qsizetype offset, qsizetype length, QString durableName,
                                              ValueSpan durable, ValueSpan deliver);

    /** The config as a JSON object (parsed now; empty when there is none). */
    QJsonObject toObject() const;
    operator QJsonObject() const { return toObject(); } // NOLINT(google-explicit-constructor)
    /** `toObject().value(key)`. */
    QJsonValue value(const QString &key) const { return toObject().value(key); }
    QJsonValue value(QLatin1String key) const { return toObject().value(key); }
    /** No field at all (a null config or `{}`). */
    bool isEmpty() const;
    /** `durable_name`, or an empty string. No parsing. */
    const QString &durableName() const { return m_durable; }
    /** The JSON bytes (compact as stored). */
    QByteArray json() const;

    /** Same JSON value (byte-equal slices are equal without parsing). */
    bool operator==(const ConsumerConfigJson &other) const;
    bool operator==(const QJsonObject &other) const { return toObject() == other; }

private:
    QByteArray m_json; ///< the JSON, or (m_durableAt/m_deliverAt >= 0) the shared rest of it
    QString m_durable;
    QByteArray m_deliver; ///< the deliver_subject value cut out of m_json (m_deliverAt >= 0)
    qint32 m_durableAt = -1; ///< where in m_json the durable name's bytes go back; -1: not cut
    qint32 m_deliverAt = -1; ///< where in m_json m_deliver goes back; -1: not cut
};

} // namespace MqttDoctor
