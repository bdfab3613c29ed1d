#pragma once

#include <QJsonValue>
#include <QString>

namespace MqttDoctor {

/**
 * "null", "a boolean", "a number", "a string", "an array" or "an object", for messages about a JSON value of
 * the wrong type; `absent` for an undefined value (a key that is not there), whose wording depends on the
 * sentence ("\"total\" is missing, not a count" vs "expected a string, got nothing"). Pure, any thread.
 */
inline QString jsonTypeName(const QJsonValue &value, const QString &absent = QStringLiteral("missing"))
{
    switch (value.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return absent;
}

} // namespace MqttDoctor
