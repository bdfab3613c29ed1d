#pragma once

#include <QString>

#include "common/error.h"

namespace MqttDoctor::NatsErrors {

/**
 * Turns a failed request into an error classified by the status (a failed connect: ConnectFailure).
 * nats.c's text only follows the explanation as a detail.
 */
Error fromRequest(int natsStatus, const QString &lastErrorText, const QString &subject, int timeoutMs);
/**
 * A failed nats.c call other than a request (`what`: what was being done, e.g. "reading stream S"),
 * classified by the status as fromRequest() does.
 */
Error fromStatus(int natsStatus, const QString &lastErrorText, const QString &what);
/**
 * A publish (`inbox` false) or the subscription of its reply inbox (`inbox` true) that the server
 * refused, as the error the request on `subject` ends with; `violation` is the server's text.
 */
Error permissionDenied(const QString &violation, const QString &subject, bool inbox, int natsStatus);
/** True when a server's permission-violation text is about `subject` (it quotes the subject). */
bool violationNames(const QString &violation, const QString &subject);
/** The text nats.c gives for a status. */
QString statusText(int natsStatus);
/**
 * nats.c's error text as a detail for a message: without the source location nats.c puts in front
 * ("(conn.c:1905): "), the status text when there is none.
 */
QString detail(int natsStatus, const QString &lastErrorText);

} // namespace MqttDoctor::NatsErrors
