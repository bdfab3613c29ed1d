#pragma once

#include <QString>

#include "common/error.h"

namespace MqttDoctor::NatsErrors {

/** Turns a failed connect into an error that says what to do (call on the failing thread). */
Error fromConnect(int natsStatus, const QString &lastErrorText, const QString &urls, bool tlsConfigured,
                  const QString &role);
/** Turns a failed request into an error (call on the failing thread). */
Error fromRequest(int natsStatus, const QString &lastErrorText, const QString &subject, int timeoutMs);
/**
 * A publish (`inbox` false) or the subscription of its reply inbox (`inbox` true) that the server
 * refused, as the error the request on `subject` ends with; `violation` is the server's text.
 */
Error permissionDenied(const QString &violation, const QString &subject, bool inbox, int natsStatus);
/** True when a server's permission-violation text is about `subject` (it quotes the subject). */
bool violationNames(const QString &violation, const QString &subject);
/** The text nats.c gives for a status. */
QString statusText(int natsStatus);

} // namespace MqttDoctor::NatsErrors
