#include "mqtt/consumerconfigjson.h"

#include <QJsonDocument>

#include "mqtt/gojson.h"

namespace MqttDoctor {

ConsumerConfigJson::ConsumerConfigJson(const QJsonObject &object)
    : m_json(object.isEmpty() ? QByteArray() : GoJson::value(object)),
      m_durable(object.value(QLatin1String("durable_name")).toString())
{
}

ConsumerConfigJson ConsumerConfigJson::fromSlice(const QByteArray &body, qsizetype offset, qsizetype length,
                                                 QString durableName)
{
    ConsumerConfigJson c;
    if (offset < 0 || length <= 0 || offset + length > body.size())
        return c;
    // A copy of just the slice: the rest of the record is decoded, its bytes need not stay.
    c.m_json = QByteArray(body.constData() + offset, length);
    c.m_durable = std::move(durableName);
    return c;
}

QJsonObject ConsumerConfigJson::toObject() const
{
    if (m_json.isEmpty())
        return {};
    return QJsonDocument::fromJson(m_json).object();
}

bool ConsumerConfigJson::isEmpty() const
{
    for (const char c : json()) {
        if (c != '{' && c != '}' && c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return false;
    }
    return true;
}

bool ConsumerConfigJson::operator==(const ConsumerConfigJson &other) const
{
    if (json() == other.json())
        return true;
    return toObject() == other.toObject();
}

} // namespace MqttDoctor
