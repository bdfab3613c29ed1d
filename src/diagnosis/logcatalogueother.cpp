// JS API timeouts (standalone or inside other templates), QoS2 limits and options, slow read loops of MQTT clients,
// and the MQTT configuration errors a server prints at start-up.
#include "logcataloguedata.h"

namespace MqttDoctor::LogCatalogueData {

using namespace Qt::StringLiterals;

QList<LogCatalogueEntry> otherEntries()
{
    const QStringList all{u"2.9.0+"_s};
    const QStringList everywhere{v2910, v21027, v2151};
    const QString timeoutMeaning =
        u"A JetStream request of the server's MQTT code ({kind} on {request_subject}) got no answer within the JS API timeout "
        u"(4 s up to 2.10, 5 s by default from 2.11, mqtt js_api_timeout from 2.11.3). The client's read loop was "
        u"blocked meanwhile."_s;
    const QString configAdvice = u"Fix the mqtt block of the server configuration and start the server again."_s;

    QList<LogCatalogueEntry> e;

    e.append({
        .id = u"jsa.timeout"_s,
        .text = u"timeout for request type %q on %q (reply=%q)"_s,
        .fields = {u"kind"_s, u"request_subject"_s, u"reply"_s},
        .versions = {u"2.9.0 to 2.10.7"_s},
        .verifiedOn = {v2910},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .inner = true,
        .causeKey = u"timeout"_s,
        .meaning = timeoutMeaning,
        .advice = u"`{check}` shows the state of {stream}."_s,
        .notes = u"Mostly inside other templates (\"unable to persist session ...: timeout for request type ...\"). "
                 u"Alone when a QoS1 PUBLISH could not be stored (type \"MS\" on $MQTT.msgs.<subject>): the client "
                 u"gets no PUBACK and is disconnected. Captured with $MQTT_msgs, $MQTT_rmsgs or $MQTT_sess deleted, and "
                 u"with a JetStream domain nobody serves."_s,
    });
    e.append({
        .id = u"jsa.timeout_after"_s,
        .text = u"timeout after %v: request type %q on %q (reply=%q)"_s,
        .fields = {u"duration"_s, u"kind"_s, u"request_subject"_s, u"reply"_s},
        .versions = {u"2.10.8+"_s},
        .verifiedOn = {v21027, v2151},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .inner = true,
        .causeKey = u"timeout"_s,
        .meaning = timeoutMeaning,
        .advice = u"`{check}` shows the state of {stream}."_s,
        .notes = u"New wording of jsa.timeout. Captured like it."_s,
    });
    e.append({
        .id = u"jsa.timeout_after_multi"_s,
        .text = u"timeout after %v: request type %q on %q: got %d out of %d"_s,
        .fields = {u"duration"_s, u"kind"_s, u"request_subject"_s, u"count"_s, u"count"_s},
        .versions = {u"2.10.8+"_s},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .inner = true,
        .causeKey = u"timeout"_s,
        .meaning = timeoutMeaning,
        .advice = u"`{check}` shows the state of {stream}."_s,
        .notes = u"Several requests sent together (loading retained messages); source text only."_s,
    });
    e.append({
        .id = u"qos.pipeline_failed"_s,
        .text = u"JetStream failed a pipelined QoS1/2 operation (pi=%v): %v; closing the connection"_s,
        .fields = {u"count"_s, u"error"_s},
        .versions = {u"2.15.1"_s},
        .verifiedOn = {v2151},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .meaning = u"A QoS1/QoS2 PUBLISH of {clientref} (packet id in the line) could not be stored in JetStream "
                   u"($MQTT_msgs, or $MQTT_qos2in for QoS2); the client gets no PUBACK and the server closes the "
                   u"connection."_s,
        .advice = u"`{check}` shows the state of $MQTT_msgs and $MQTT_qos2in."_s,
        .notes = u"New in 2.15.1 (not in 2.14.5 nor in main of 2026-08-21; text taken from the 2.15.1 binary). "
                 u"Replaces the standalone \"timeout ... request type \\\"MS\\\"\" line of older versions. Captured "
                 u"with $MQTT_msgs deleted."_s,
    });
    e.append({
        .id = u"qos.no_ack"_s,
        .text = u"no JetStream ack within %v"_s,
        .fields = {u"duration"_s},
        .versions = {u"2.15.1"_s},
        .verifiedOn = {v2151},
        .codes = {u"STREAM_MISSING"_s, u"STREAM_SUBJECTS_WRONG"_s, u"STREAM_UNHEALTHY"_s},
        .inner = true,
        .causeKey = u"no_ack"_s,
        .meaning = u"No JetStream stream acknowledged the stored message in time."_s,
        .advice = u"`{check}` shows whether the stream is missing, has wrong subjects or no leader."_s,
        .notes = u"Inside qos.pipeline_failed."_s,
    });
    e.append({
        .id = u"qos.window_full"_s,
        .text = u"in-flight window full (%d packets), no JetStream ack for the oldest within %v"_s,
        .fields = {u"count"_s, u"duration"_s},
        .versions = {u"2.15.1"_s},
        .codes = {u"STREAM_MISSING"_s, u"STREAM_SUBJECTS_WRONG"_s, u"STREAM_UNHEALTHY"_s},
        .inner = true,
        .causeKey = u"no_ack"_s,
        .meaning = u"The client has the maximum of QoS1/QoS2 publishes waiting for JetStream and the oldest was not "
                   u"acknowledged in time."_s,
        .advice = u"`{check}` shows whether the stream is missing, has wrong subjects or no leader."_s,
        .notes = u"Inside qos.pipeline_failed; text taken from the 2.15.1 binary."_s,
    });
    e.append({
        .id = u"qos.publish_qos2_unsupported"_s,
        .text = u"publish QoS=%v not supported"_s,
        .fields = {u"count"_s},
        .versions = {u"2.9.0 to 2.9.25"_s},
        .verifiedOn = {v2910},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .meaning = u"{clientref} sent a QoS2 PUBLISH; 2.9 servers do not support QoS2 publishes and close the "
                   u"connection."_s,
        .advice = u"Publish with QoS 0 or 1, or upgrade the servers to 2.10+ (QoS2 support, two more streams per "
                  u"account: check max_streams first with `{check}`)."_s,
        .notes = u"Captured with mosquitto_pub -q 2."_s,
    });
    e.append({
        .id = u"qos.publish_qos2_disabled"_s,
        .text = u"QoS=2 is disabled for PUBLISH messages"_s,
        .versions = {u"2.10.4+"_s},
        .verifiedOn = {v21027, v2151},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .meaning = u"{clientref} sent a QoS2 PUBLISH while the server has `mqtt { reject_qos2_publish: true }`; the "
                   u"connection is closed."_s,
        .advice = u"Publish with QoS 0 or 1, or remove reject_qos2_publish from the server configuration."_s,
        .notes = u"Captured with reject_qos2_publish: true."_s,
    });
    e.append({
        .id = u"qos.subscribe_qos2_downgraded"_s,
        .text = u"Downgrading subscription QoS2 to QoS1 for %q, as configured"_s,
        .fields = {u"subject"_s},
        .versions = {u"2.10.4+"_s},
        .verifiedOn = {v21027, v2151},
        .level = u"WRN"_s,
        .severity = u"info"_s,
        .meaning = u"The server has `mqtt { downgrade_qos2_subscribe: true }`: the QoS2 subscription of {clientref} on "
                   u"{subject} was granted as QoS1."_s,
        .advice = u"Nothing to fix unless QoS2 delivery is required; then remove downgrade_qos2_subscribe."_s,
        .notes = u"Captured with downgrade_qos2_subscribe: true."_s,
    });
    e.append({
        .id = u"qos.retained_qos2_rejected"_s,
        .text = u"Rejecting retained message with QoS2 for subscription %q, as configured"_s,
        .fields = {u"subject"_s},
        .versions = {u"2.10.4+"_s},
        .level = u"WRN"_s,
        .severity = u"info"_s,
        .meaning = u"A retained message stored with QoS2 was not delivered to the subscription on {subject} because "
                   u"the server rejects QoS2 (reject_qos2_publish)."_s,
        .advice = u"Republish the retained message with QoS 0 or 1, or remove reject_qos2_publish."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"qos.invalid_pubrel_message"_s,
        .text = u"invalid message in QoS2 PUBREL stream"_s,
        .versions = {u"2.10.0+"_s},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_qos2in"_s,
        .meaning = u"On PUBREL, the stored incoming QoS2 message in $MQTT_qos2in lacked its Nmqtt-Pub/Nmqtt-Subject "
                   u"headers (written by something other than the server, or corrupted); the message is not "
                   u"delivered."_s,
        .advice = u"`{streams}` shows $MQTT_qos2in; the publisher has to send that message again. There is no repair "
                  u"for a single record."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"mqtt.subscription_slow"_s,
        .text = u"Took too long to process subscription for %q: %v"_s,
        .fields = {u"subject"_s, u"duration"_s},
        .versions = {u"2.10.6+"_s},
        .level = u"WRN"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .meaning = u"Setting up the subscription of {clientref} on {subject} (its JetStream consumer and retained "
                   u"messages) took unusually long: JetStream is slow or unavailable."_s,
        .advice = u"`{check}` shows the health of the account's MQTT streams (STREAM_UNHEALTHY)."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"mqtt.readloop_slow"_s,
        .text = u"Readloop processing time: %v"_s,
        .fields = {u"duration"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .severity = u"info"_s,
        .mqttClientOnly = true,
        .meaning = u"The server spent that long handling one read of {clientref}. For an MQTT client, 4 s (up to 2.10) or "
                   u"5 s (2.11+) almost always means a JetStream request timed out: the [ERR] line logged for the same "
                   u"client right before or after says which."_s,
        .advice = u"Explain the [ERR] line of the same client next to this one."_s,
        .notes = u"A generic server warning (client.go); counted only on MQTT client lines (\"mid:\")."_s,
    });
    e.append({
        .id = u"mqtt.topic_characters_old"_s,
        .text = u"characters ' ' and '.' not supported for MQTT topics"_s,
        .versions = {u"2.9.0 to 2.9.25"_s},
        .verifiedOn = {v2910},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .mqttClientOnly = true,
        .meaning = u"A packet of {clientref} used a topic with a space or a '.', which 2.9 servers cannot map to a NATS subject; the "
                   u"server closed the connection. 2.10+ servers accept '.' (stored as //) but still refuse spaces."_s,
        .advice = u"Change the topic in the client."_s,
        .notes = u"Captured with a retained PUBLISH to \"space topic\"."_s,
    });
    e.append({
        .id = u"mqtt.topic_space"_s,
        .text = u"character ' ' not supported for MQTT topics"_s,
        .versions = {u"2.10.0 to 2.12.8"_s, u"2.14.0"_s},
        .verifiedOn = {v21027},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .mqttClientOnly = true,
        .meaning = u"A packet of {clientref} used a topic with a space, which the server cannot map to a NATS subject; it closed the "
                   u"connection."_s,
        .advice = u"Change the topic in the client."_s,
        .notes = u"Captured with a retained PUBLISH to \"space topic\". The versions are those before the wording below."_s,
    });
    e.append({
        .id = u"mqtt.topic_characters"_s,
        .text = u"character not supported for MQTT topics"_s,
        .versions = {u"2.12.9 to 2.12.15"_s, u"2.14.1+"_s},
        .verifiedOn = {v2151},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .codes = {u"UPGRADE_RETAINED_SKIPPED"_s},
        .mqttClientOnly = true,
        .meaning = u"A packet of {clientref} used a topic with a space, a tab, CR, LF, form feed or the DEL character (0x7f); the server "
                   u"closed the connection. Servers before 2.12.9 / 2.14.1 accepted the control characters and 0x7f, so a "
                   u"publisher that worked before the upgrade is disconnected now, and retained messages stored under such "
                   u"topics are skipped."_s,
        .advice = u"Change the topic in the client; `check --account A --target-version V` lists the retained topics an "
                  u"upgrade would skip, before the upgrade."_s,
        .notes = u"Captured with retained PUBLISHes to topics with a tab, 0x7f and a space."_s,
    });
    e.append({
        .id = u"mqtt.server_shutting_down"_s,
        .text = u"server is not running"_s,
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"info"_s,
        .inner = true,
        .mqttClientOnly = true,
        .causeKey = u"shutdown"_s,
        .meaning = u"The server was shutting down while it handled {clientref} (usually its CONNECT); the request was "
                   u"abandoned."_s,
        .advice = u"Nothing to fix: the client reconnects once a server is back."_s,
        .notes = u"The server's generic ErrServerNotRunning, counted only on MQTT client lines; it also appears inside "
                 u"\"unable to persist session ...: server is not running\"."_s,
    });
    e.append({
        .id = u"mqtt.unknown_reply_code"_s,
        .text = u"Unknown reply code %q"_s,
        .fields = {u"kind"_s},
        .versions = all,
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .meaning = u"Something published to the server's internal MQTT reply subjects ($MQTT.JSA.<server>.<type>...) with "
                   u"a type the server does not know. Usually a tool or a client publishing where it should not."_s,
        .advice = u"Find what publishes on $MQTT.JSA.> and stop it; tools must never use $MQTT.JSA.* reply subjects."_s,
        .notes = u"Source text only."_s,
    });

    // Configuration errors: printed on stderr ("nats-server: ...") and the server does not start.
    e.append({
        .id = u"config.server_name_required"_s,
        .text = u"mqtt requires server name to be explicitly set"_s,
        .versions = all,
        .verifiedOn = everywhere,
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: the mqtt block needs server_name (2.9 to 2.10.3 always; from 2.10.4 "
                   u"when a cluster or gateway is configured)."_s,
        .advice = u"Add `server_name: <unique name>` to the server configuration. " + configAdvice,
        .notes = u"Captured on stderr."_s,
    });
    e.append({
        .id = u"config.jetstream_required"_s,
        .text = u"mqtt requires JetStream to be enabled if running in standalone mode"_s,
        .versions = all,
        .verifiedOn = everywhere,
        .codes = {u"JETSTREAM_DISABLED"_s},
        .meaning = u"The server refuses to start: MQTT keeps its state in JetStream, and this standalone server has no "
                   u"jetstream block."_s,
        .advice = u"Add `jetstream { store_dir: ... }` to the server configuration. " + configAdvice,
        .notes = u"Captured on stderr."_s,
    });
    e.append({
        .id = u"config.consumer_replicas_too_high"_s,
        .text = u"mqtt: consumer_replicas (%v) cannot be higher than stream_replicas (%v)"_s,
        .fields = {u"count"_s, u"count"_s},
        .versions = all,
        .verifiedOn = {v2910},
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: consumer_replicas is larger than stream_replicas."_s,
        .advice = u"Remove consumer_replicas (ignored from 2.9.12 anyway) or make it at most stream_replicas. "
                  + configAdvice,
        .notes = u"Captured on stderr (2.9.10; 2.10+ ignore consumer_replicas with a warning instead)."_s,
    });
    e.append({
        .id = u"config.consumer_replicas_ignored"_s,
        .text = u"consumer replicas setting ignored in this server version"_s,
        .versions = {u"2.9.12+"_s},
        .verifiedOn = {v21027, v2151},
        .severity = u"info"_s,
        .anchored = false,
        .meaning = u"mqtt consumer_replicas has no effect on this version: MQTT consumers take the replica count of "
                   u"their stream."_s,
        .advice = u"Remove consumer_replicas from the mqtt block; scale the streams instead (REPLICAS_MISMATCH)."_s,
        .notes = u"Printed as \"<file>:<line>:<col>: invalid use of field \\\"consumer_replicas\\\": ...\"."_s,
    });
    e.append({
        .id = u"config.ack_wait_negative"_s,
        .text = u"ack wait must be a positive value"_s,
        .versions = all,
        .verifiedOn = everywhere,
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: mqtt ack_wait is negative."_s,
        .advice = u"Set `mqtt { ack_wait }` to a positive duration (default 30s). " + configAdvice,
        .notes = u"Captured on stderr."_s,
    });
    e.append({
        .id = u"config.js_api_timeout_negative"_s,
        .text = u"JS API timeout must be a positive value"_s,
        .versions = {u"2.11.3+"_s},
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: mqtt js_api_timeout is negative."_s,
        .advice = u"Set `mqtt { js_api_timeout }` to a positive duration (default 5s). " + configAdvice,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"config.auth_username_conflict"_s,
        .text = u"mqtt authentication username not compatible with presence of users/nkeys"_s,
        .versions = all,
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: mqtt authorization has a username while the server also defines "
                   u"users or nkeys."_s,
        .advice = u"Remove the username from the mqtt authorization block and let MQTT clients log in as regular "
                  u"users. " + configAdvice,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"config.auth_token_conflict"_s,
        .text = u"mqtt authentication token not compatible with presence of users/nkeys"_s,
        .versions = all,
        .severity = u"critical"_s,
        .meaning = u"The server refuses to start: mqtt authorization has a token while the server also defines users or "
                   u"nkeys."_s,
        .advice = u"Remove the token from the mqtt authorization block. " + configAdvice,
        .notes = u"Source text only."_s,
    });

    // JetStream limits of the account (any stream of it; MQTT stores fail with 10002 meanwhile).
    e.append({
        .id = u"js.account_limits_exceeded_old"_s,
        .text = u"JetStream resource limits exceeded for account: %q"_s,
        .fields = {u"account"_s},
        .versions = {u"2.9.0 to 2.11.17"_s},
        .verifiedOn = {v2910, v21027},
        .level = u"WRN"_s,
        .codes = {u"STREAM_LIMIT_HEADROOM"_s},
        .meaning = u"A message for a stream of {acct} was refused because the account reached its JetStream storage "
                   u"limit (max_file or max_mem). While it lasts, MQTT session saves, QoS1/QoS2 messages and retained "
                   u"messages of the account are refused too (\"resource limits exceeded for account (10002)\")."_s,
        .advice = u"`{check}` shows the account's usage and limits (STREAM_LIMIT_HEADROOM). Raise the account's "
                  u"JetStream limits, or free space: $MQTT_msgs grows when durables of gone sessions keep messages "
                  u"(ORPHAN_CONSUMER: `{repair:ORPHAN_CONSUMER}`)."_s,
        .notes = u"A JetStream warning about any stream of the account (rate limited). Captured with an account "
                 u"limited to max_file: 4KB and a few 1.5 KB retained messages."_s,
    });
    e.append({
        .id = u"js.account_limits_exceeded"_s,
        .text = u"JetStream %s resource limits exceeded for account: %q"_s,
        .fields = {u"other"_s, u"account"_s},
        .versions = {u"2.12.0+"_s},
        .verifiedOn = {v2151},
        .level = u"WRN"_s,
        .codes = {u"STREAM_LIMIT_HEADROOM"_s},
        .meaning = u"A message for a stream of {acct} was refused because the account reached its JetStream storage "
                   u"limit (the word before \"resource\" says which: file or memory). While it lasts, MQTT session "
                   u"saves, QoS1/QoS2 messages and retained messages of the account are refused too (\"resource "
                   u"limits exceeded for account (10002)\")."_s,
        .advice = u"`{check}` shows the account's usage and limits (STREAM_LIMIT_HEADROOM). Raise the account's "
                  u"JetStream limits, or free space: $MQTT_msgs grows when durables of gone sessions keep messages "
                  u"(ORPHAN_CONSUMER: `{repair:ORPHAN_CONSUMER}`)."_s,
        .notes = u"New wording of js.account_limits_exceeded_old. Captured like it."_s,
    });
    // Last: the bare JetStream error some paths log for an MQTT client (2.9/2.10: a QoS1 PUBLISH that could not be
    // stored). Not a format string of the server's own: err.Error() of a JetStream API error.
    e.append({
        .id = u"mqtt.jetstream_error"_s,
        .text = u"%v (%d)"_s,
        .fields = {u"error"_s, u"js_code"_s},
        .versions = all,
        .verifiedOn = {v2910, v21027},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .mqttClientOnly = true,
        .meaning = u"A JetStream request the server made for {clientref} failed with this JetStream error, logged as "
                   u"it is. Up to 2.10 this is how a QoS1 PUBLISH that could not be stored in $MQTT_msgs shows: the "
                   u"client gets no PUBACK and the connection is closed."_s,
        .advice = u"`{check}` shows the state of the account's MQTT streams."_s,
        .notes = u"Matches only a whole message of the form \"<JetStream description> (1xxxx)\" on an MQTT client line. "
                 u"Captured: \"resource limits exceeded for account (10002)\" on a QoS1 publish over the account's "
                 u"storage limit."_s,
    });
    return e;
}

} // namespace MqttDoctor::LogCatalogueData
