#pragma once

// Internal to src/nats/*.cpp: the nats.c handle behind a NatsConnection, for the readers that need
// JetStream subscriptions (ordered consumers, pipelined gets). Never include it from a public header.

#include <nats/nats.h>

namespace MqttDoctor {

class NatsConnection;

/** The connection's nats.c handle; valid while the NatsConnection lives. Thread-safe (nats.c locks). */
natsConnection *natsHandle(NatsConnection &connection);

/**
 * Unsubscribes and destroys a subscription that messages may still be arriving for. nats.c before
 * 3.6 (Debian ships 3.4.1) looks an inbound message's subscription up, lets go of the connection's
 * lock and only then locks the subscription, without holding a reference: a subscription destroyed
 * in between is used after it was freed and the reader thread crashes (nats.c issue 637; seen here
 * when a request's last expected reply came while other replies were still on their way). The
 * reader thread handles what arrives in order, so once the PONG of a flush sent after the UNSUB is
 * in, no message of this subscription is being handled any more. Not connected: nothing is read.
 * Connected but no PONG within 2 s (a slow or frozen server): it waits 50 ms before freeing.
 */
void closeSubscription(natsConnection *nc, natsSubscription *sub);

} // namespace MqttDoctor
