#pragma once

// The errors of the stream readers (StreamReader, MessageGetter, StreamIndex) when a nats.c call or the
// server fails. Internal to the nats layer (includes nats.c): never from a public header.

#include <nats/nats.h>

#include <QString>

#include "common/error.h"

namespace MqttDoctor {

class NatsConnection;

namespace ReadFailure {

Error natsError(natsStatus s, const QString &what);
Error jsError(natsStatus s, jsErrCode jerr, const QString &what);
/** nats.c reports a refused publish or subscribe only to the error handler; the call itself times out. */
Error deniedOr(NatsConnection &connection, quint64 mark, const QString &what, Error fallback);
Error idleError(const QString &stream, int idleMs, quint64 done, bool connectionLost = false);

} // namespace ReadFailure
} // namespace MqttDoctor
