#pragma once

// bench_sessionload's request round trip: one JetStream API request as our connection makes it and as
// nats.c's own natsConnection_Request makes it. Not a test.

#include <QString>

namespace MqttDoctor::BenchData {

/** Prints the median round trip of `count` STREAM.INFO requests for `stream`, both ways. */
void requestLatency(const QString &url, const QString &stream, int count);

} // namespace MqttDoctor::BenchData
