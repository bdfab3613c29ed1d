#include "nats/natslibraryversion.h"

#include <nats/nats.h>

namespace MqttDoctor {

QString NatsLibraryVersion::inUse()
{
    return QString::fromLatin1(nats_GetVersion());
}

QString NatsLibraryVersion::builtWith()
{
    return QStringLiteral(NATS_VERSION_STRING);
}

} // namespace MqttDoctor
