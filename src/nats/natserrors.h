#pragma once

#include <QString>

#include "common/error.h"

namespace MqttDoctor::NatsErrors {

/** Turns a failed connect into an error that says what to do (call on the failing thread). */
Error fromConnect(int natsStatus, const QString &lastErrorText, const QString &urls, bool tlsConfigured,
                  const QString &role);
/** Turns a failed request into an error (call on the failing thread). */
Error fromRequest(int natsStatus, const QString &lastErrorText, const QString &subject, int timeoutMs);
/** The text nats.c gives for a status. */
QString statusText(int natsStatus);

} // namespace MqttDoctor::NatsErrors
