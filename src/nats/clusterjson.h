#pragma once

#include <QJsonObject>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor::ClusterJson {

/** The JSON shapes of the CLI (docs/cli.md); pure, thread-safe. */
QJsonObject server(const ServerInfo &s);
/** Account summary: name, system, jetstream, limits, usage, stream names. */
QJsonObject account(const AccountInfo &a);
/** One stream: name, legacy, config (raw), state (raw), cluster, created, consumers. */
QJsonObject stream(const StreamInfo &s);
/** A consumer as listed: name, config, pending counts, cluster. */
QJsonObject consumer(const QJsonObject &info);

} // namespace MqttDoctor::ClusterJson
