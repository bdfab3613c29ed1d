#include "findingevidence.h"

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

QJsonValue FindingEvidence::toJsonValue() const
{
    if (const QJsonValue *value = std::get_if<QJsonValue>(&m_value))
        return *value;
    const Deferred &d = std::get<Deferred>(m_value);
    return d.pattern->render(d.args);
}

void FindingEvidence::writeJson(JsonStreamWriter &w, const QString &key) const
{
    if (const QJsonValue *value = std::get_if<QJsonValue>(&m_value))
        w.value(key, *value);
    else
        std::get<Deferred>(m_value).pattern->writeJson(w, key, std::get<Deferred>(m_value).args);
}

QJsonValue::Type FindingEvidence::type() const
{
    if (const QJsonValue *value = std::get_if<QJsonValue>(&m_value))
        return value->type();
    return QJsonValue::Object;
}

} // namespace MqttDoctor
