#pragma once

// Internal to src/nats/*.cpp: the nats.c handle behind a NatsConnection, for the readers that need
// JetStream subscriptions (ordered consumers, pipelined gets). Never include it from a public header.

#include <nats/nats.h>

namespace MqttDoctor {

class NatsConnection;

/** The connection's nats.c handle; valid while the NatsConnection lives. Thread-safe (nats.c locks). */
natsConnection *natsHandle(NatsConnection &connection);

} // namespace MqttDoctor
