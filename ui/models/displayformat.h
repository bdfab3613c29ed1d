#pragma once

#include <QString>
#include <QStringList>

#include "diagnosis/finding.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * How numbers, sizes and states read in the views: one place, so the tree, the tables and the
 * panels say the same thing the same way. Uses the default QLocale. Pure functions, any thread.
 */
namespace DisplayFormat {

/** "1.5 KiB"; "0 bytes" for 0. */
QString bytes(qint64 value);
/** A count with the locale's digit grouping. */
QString count(qint64 value);
/** A JetStream limit: negative (or 0 when zeroIsUnlimited) reads "unlimited". */
QString limit(qint64 value, bool isBytes, bool zeroIsUnlimited = false);
/**
 * Where the account's MQTT state lives, from its MQTT streams: "JetStream domain edge · cluster west"
 * (the domain from the token in $MQTT_sess's subjects, the cluster the streams are placed in);
 * "JetStream without a domain" when the subjects carry no token. Empty without MQTT streams.
 */
QString mqttStatePlace(const AccountInfo &account);
/** "enabled", "disabled" or "unknown". */
QString jetStreamState(const AccountInfo &account);
/** The stream's subjects, comma separated. */
QString subjects(const StreamInfo &stream);
QStringList subjectList(const StreamInfo &stream);
/** Messages in the stream (state.messages). */
qint64 messages(const StreamInfo &stream);
/** Bytes in the stream (state.bytes). */
qint64 streamBytes(const StreamInfo &stream);
/** Consumers: the listed ones when known, else state.consumer_count. */
int consumers(const StreamInfo &stream);
/** The stream's leader server, empty when the reply named none. */
QString leader(const StreamInfo &stream);
/** "host:port", "none" or "unknown" for a server's MQTT listener. */
QString mqttListener(const ServerInfo &server);
/** The distinct versions of the servers, sorted ("2.9.10, 2.10.4"). */
QString serverVersions(const QList<ServerInfo> &servers);
/** "1 message", "12 messages" (and the same for the other counted nouns). */
QString messageCount(qint64 n);
QString serverCount(qint64 n);
QString accountCount(qint64 n);
QString mqttStreamCount(qint64 n);
/** A one-line explanation of a legacy per-session stream. */
QString legacySessionStreamNote();
/** "$MQTT_msgs · $MQTT.sess.X · client c1": what a finding is about, empty when only the account. */
QString findingWhere(const Finding &finding);

} // namespace DisplayFormat
} // namespace MqttDoctor
