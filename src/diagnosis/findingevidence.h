#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <type_traits>
#include <utility>
#include <variant>

#include "diagnosis/evidencepattern.h"

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * A finding's evidence (expected or actual): a JSON value, or an EvidencePattern with the finding's
 * arguments, made into its object only when read. Reads like the QJsonValue it replaces (toObject(),
 * isUndefined(), toString(), implicit conversion); assigning anything a QJsonValue is made from makes
 * it that value. Relocatable; immutable values shared across threads.
 */
class FindingEvidence final
{
public:
    FindingEvidence() = default;
    /** Anything a QJsonValue is made from: an object, an array, a string, a number, a bool, QJsonValue::Null. */
    template<typename T>
    requires(!std::is_same_v<std::remove_cvref_t<T>, FindingEvidence> && std::is_constructible_v<QJsonValue, T>) FindingEvidence(T &&value)
        : m_value(QJsonValue(std::forward<T>(value))) // NOLINT(google-explicit-constructor)
    {}
    /** `pattern` (which must outlive the evidence: a static) filled from `args` when read. */
    FindingEvidence(const EvidencePattern &pattern, const QStringList &args) : m_value(Deferred{&pattern, args}) {}

    QJsonValue toJsonValue() const;
    operator QJsonValue() const { return toJsonValue(); } // NOLINT(google-explicit-constructor)
    /** Writes the evidence as `key`'s value, as JsonStreamWriter::value(key, toJsonValue()) does. */
    void writeJson(JsonStreamWriter &w, const QString &key) const;

    QJsonValue::Type type() const;
    bool isUndefined() const { return type() == QJsonValue::Undefined; }
    bool isNull() const { return type() == QJsonValue::Null; }
    bool isObject() const { return type() == QJsonValue::Object; }
    bool isArray() const { return type() == QJsonValue::Array; }
    bool isString() const { return type() == QJsonValue::String; }
    bool isDouble() const { return type() == QJsonValue::Double; }
    bool isBool() const { return type() == QJsonValue::Bool; }
    QJsonObject toObject() const { return toJsonValue().toObject(); }
    QJsonArray toArray() const { return toJsonValue().toArray(); }
    QString toString() const { return toJsonValue().toString(); }
    qint64 toInteger(qint64 defaultValue = 0) const { return toJsonValue().toInteger(defaultValue); }
    double toDouble(double defaultValue = 0) const { return toJsonValue().toDouble(defaultValue); }
    bool toBool(bool defaultValue = false) const { return toJsonValue().toBool(defaultValue); }
    QJsonValue operator[](QLatin1StringView key) const { return toJsonValue()[key]; }
    QJsonValue operator[](const QString &key) const { return toJsonValue()[key]; }

    friend bool operator==(const FindingEvidence &a, const FindingEvidence &b) { return a.toJsonValue() == b.toJsonValue(); }
    friend bool operator!=(const FindingEvidence &a, const FindingEvidence &b) { return !(a == b); }

private:
    struct Deferred
    {
        const EvidencePattern *pattern = nullptr;
        QStringList args;
    };
    std::variant<QJsonValue, Deferred> m_value; ///< null by default, as a QJsonValue
};

} // namespace MqttDoctor

Q_DECLARE_TYPEINFO(MqttDoctor::FindingEvidence, Q_RELOCATABLE_TYPE);
