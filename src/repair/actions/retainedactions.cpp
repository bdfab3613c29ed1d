#include "repair/actions/actionfamilies.h"

#include "repair/repairaction.h"

namespace MqttDoctor::RepairActionFamilies {

QList<const RepairAction *> retainedActions()
{
    return {};
}

} // namespace MqttDoctor::RepairActionFamilies
