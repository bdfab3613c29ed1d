#pragma once

#include <QString>

namespace MqttDoctor {

/** A JSON member name from a literal (step params, replies, journals): `paramKey("seq")`. */
inline QString paramKey(const char *name)
{
    return QString::fromLatin1(name);
}

} // namespace MqttDoctor
