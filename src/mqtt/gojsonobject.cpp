#include "mqtt/gojsonobject.h"

#include "mqtt/gojson.h"

namespace MqttDoctor {

void GoJsonObject::separate()
{
    if (m_out.size() > 1)
        m_out += ',';
}

void GoJsonObject::member(const char *name, const QByteArray &json)
{
    separate();
    m_out += '"';
    m_out += name;
    m_out += "\":";
    m_out += json;
}

void GoJsonObject::member(const QString &name, const QByteArray &json)
{
    separate();
    m_out += GoJson::string(name);
    m_out += ':';
    m_out += json;
}

void GoJsonObject::stringIfSet(const char *name, const QString &value)
{
    if (!value.isEmpty())
        member(name, GoJson::string(value));
}

} // namespace MqttDoctor
