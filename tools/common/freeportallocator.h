#pragma once

#include <QList>

namespace MqttDoctor::Test {

// Free TCP ports on 127.0.0.1, found by binding to port 0. A port is handed out at most once per
// process, so fixtures that stop and restart servers never collide with each other.
class FreePortAllocator
{
public:
    // Empty list if the system refused to give enough ports.
    static QList<quint16> allocate(int count);
    static quint16 allocateOne(); // 0 on failure
};

} // namespace MqttDoctor::Test
