#pragma once

#include <QString>

namespace MqttDoctor {

/**
 * The nats.c library this program runs with: the version of the shared library loaded at run time
 * and the version of the headers it was compiled against. Only the nats layer sees nats.c; the
 * front ends report its version through these.
 */
struct NatsLibraryVersion final
{
    static QString inUse();
    static QString builtWith();
};

} // namespace MqttDoctor
