#include "repair/actions/actionfamilies.h"

#include "repair/repairaction.h"

namespace MqttDoctor::RepairActionFamilies {

QList<const RepairAction *> sessionActions()
{
    return {};
}

} // namespace MqttDoctor::RepairActionFamilies
