#pragma once

#include <QDateTime>

#include <optional>

#include "diagnosis/accountsample.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor::Checks {

/**
 * JETSTREAM_API_ERRORS (docs/findings.md): the account's JetStream API error replies grew by at least
 * CheckOptions::apiErrorsPerMinute per minute between `previous` and the account as gathered at `now`.
 * nullopt when they did not, or the two samples cannot be compared (counters not read, other servers
 * counted, a server restarted). Pure; any thread.
 */
std::optional<Finding> checkApiErrors(const AccountInfo &account, const AccountSample &previous, const QDateTime &now,
                                      const CheckOptions &options = {});

} // namespace MqttDoctor::Checks
