#pragma once

// What the parts of StreamReader (streamreader.cpp, streamreaderdirectget.cpp, streamreaderstate.cpp) share: the
// cancel poll and the errors of nats.c calls. Core-internal (includes nats.c): never from a public header.

#include <nats/nats.h>

#include <QString>

#include "common/error.h"
#include "nats/streamreader.h"

namespace MqttDoctor {

class NatsConnection;

namespace StreamReaderSupport {

constexpr int PollMs = 100;  // NextMsg slice: how quickly a cancel is noticed

bool isCancelled(const StreamReader::Options &options);
Error natsError(natsStatus s, const QString &what);
Error jsError(natsStatus s, jsErrCode jerr, const QString &what);
/** nats.c reports a refused publish or subscribe only to the error handler; the call itself times out. */
Error deniedOr(NatsConnection &connection, quint64 mark, const QString &what, Error fallback);
Error idleError(const QString &stream, int idleMs, quint64 done, bool connectionLost = false);

} // namespace StreamReaderSupport
} // namespace MqttDoctor
