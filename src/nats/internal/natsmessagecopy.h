#pragma once

// Copying a message nats.c received into Qt values, header block included. Core-internal (includes nats.c):
// never from a public header.

#include <nats/nats.h>

#include "nats/streamreader.h"

namespace MqttDoctor {

/** Subject, data and the header block (as received when nats.c's layout allows, else rebuilt) of `m` into `out`. */
void copyNatsMessage(natsMsg *m, StreamMessage &out);

} // namespace MqttDoctor
