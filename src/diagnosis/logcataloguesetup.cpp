// Templates of the account session manager setup (mqttCreateAccountSessionManager): what the server
// logs when it looks up or creates an account's MQTT streams and its retained-messages consumer.
#include "logcataloguedata.h"

namespace MqttDoctor::LogCatalogueData {

using namespace Qt::StringLiterals;

namespace {

const QString kAsmRetry =
    u" The setup is not cached when it fails: the next MQTT connection of the account tries again and logs "
    u"\"Creating MQTT streams/consumers\" again; streams created before the failure stay."_s;

LogCatalogueEntry createStream(const QString &id, const QString &label, const QString &stream,
                               const QStringList &versions, const QStringList &verified, const QString &extraNote)
{
    return LogCatalogueEntry{
        .id = id,
        .text = u"create "_s + label + u" stream for account %q: %v"_s,
        .fields = {u"account"_s, u"error"_s},
        .versions = versions,
        .verifiedOn = verified,
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .stream = stream,
        .codes = {u"STREAM_MISSING"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = u"The server could not create "_s + stream + u" while setting up MQTT for {acct}; every MQTT CONNECT "
                   u"of the account fails (the connection is closed without a CONNACK) until it can."_s + kAsmRetry,
        .advice = u"`{check}` shows why {stream} is missing and what is in the way; `{repair:STREAM_MISSING}` creates it "
                  u"with the exact configuration the server expects."_s,
        .notes = extraNote,
    };
}

} // namespace

QList<LogCatalogueEntry> setupEntries()
{
    const QStringList all{u"2.9.0+"_s};
    const QStringList since210{u"2.10.0+"_s};
    const QStringList since21214{u"2.12.14 to 2.12.15"_s, u"2.14.4+"_s};
    const QStringList everywhere{v2910, v21027, v2151};
    const QStringList newOnes{v21027, v2151};

    QList<LogCatalogueEntry> e;

    e.append({
        .id = u"asm.creating_streams_domain"_s,
        .text = u"Creating MQTT streams/consumers with replicas %v for account %q in domain %q"_s,
        .fields = {u"count"_s, u"account"_s, u"domain"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"INF"_s,
        .severity = u"info"_s,
        .meaning = u"The server is setting up MQTT for {acct} (the first MQTT connection since it started, or a retry "
                   u"after a failed setup), using the JetStream domain named in the line for its API requests and "
                   u"session subjects. If this line repeats at every connection of the account, the setup keeps "
                   u"failing: the error logged right after it says why."_s,
        .advice = u"Nothing to do by itself. If it repeats, explain the next [ERR] line of the same account; `{check}` "
                  u"compares the account's MQTT streams with what this server expects."_s,
    });
    e.append({
        .id = u"asm.creating_streams"_s,
        .text = u"Creating MQTT streams/consumers with replicas %v for account %q"_s,
        .fields = {u"count"_s, u"account"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"INF"_s,
        .severity = u"info"_s,
        .meaning = u"The server is setting up MQTT for {acct}: it looks up the account's MQTT streams, creates the "
                   u"missing ones with the replica count in the line, and creates its retained-messages consumer. "
                   u"This happens on the first MQTT connection of the account after the server starts, and again "
                   u"after every failed setup; if it repeats at every connection, the error logged right after it "
                   u"says why."_s,
        .advice = u"Nothing to do by itself. If it repeats, explain the next [ERR] line of the same account; `{check}` "
                  u"compares the account's MQTT streams with what this server expects."_s,
    });
    e.append({
        .id = u"asm.lookup_stream"_s,
        .text = u"lookup %s stream for account %q: %v"_s,
        .fields = {u"stream_label"_s, u"account"_s, u"error"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = u"The server could not even look up {stream} (a $JS.API.STREAM.INFO request) while setting up MQTT "
                   u"for {acct}; every MQTT CONNECT of the account fails."_s + kAsmRetry,
        .advice = u"`{check}` shows whether JetStream answers for this account (STREAM_UNHEALTHY) and the state of "
                  u"{stream}."_s,
        .notes = u"\"%s\" is sessions, messages, QoS2 incoming messages (2.10+), QoS2 outgoing PUBREL (2.10+) or "
                 u"retained messages. Captured: an account without JetStream (10039), and a JS API timeout with "
                 u"mqtt.js_domain naming a domain the account cannot reach."_s,
    });
    e.append({
        .id = u"asm.replicas_mismatch"_s,
        .text = u"MQTT %s stream replicas mismatch: current is %v but configuration is %v for '%s > %s'"_s,
        .fields = {u"stream_label"_s, u"count"_s, u"count"_s, u"account"_s, u"stream_name"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .codes = {u"REPLICAS_MISMATCH"_s},
        .meaning = u"{stream} of {acct} exists with a replica count other than mqtt stream_replicas. The server only "
                   u"warns: it never changes the replicas of an existing stream, so the stream keeps the resilience "
                   u"it had when it was created."_s,
        .advice = u"`{check}` reports REPLICAS_MISMATCH with both counts; `{repair:REPLICAS_MISMATCH}` scales the stream "
                  u"with a stream update (the supported path; MQTT consumers follow the stream). Or change "
                  u"stream_replicas back if the stream is right."_s,
        .notes = u"Logged only when stream_replicas is set explicitly. Captured by restarting a server with "
                 u"stream_replicas: 3 over R1 streams."_s,
    });
    e.append(createStream(u"asm.create_sessions_stream"_s, u"sessions"_s, u"$MQTT_sess"_s, all, everywhere,
                          u"Same text from 2.5.0 to 2.15.1 (seed record). Captured: another stream with $MQTT.> (10065), "
                          u"stream_replicas: 3 on a single server (10074)."_s));
    e.append(createStream(u"asm.create_messages_stream"_s, u"messages"_s, u"$MQTT_msgs"_s, all, everywhere,
                          u"Captured: max_streams: 1 (10027), another stream with $MQTT.msgs.foo.* (10065)."_s));
    e.append(createStream(u"asm.create_qos2in_stream"_s, u"QoS2 incoming messages"_s, u"$MQTT_qos2in"_s, since210,
                          newOnes,
                          u"2.10+ only (seed record). Captured: max_streams: 2 (10027), another stream with "
                          u"$MQTT.qos2.in.foo (10065). On 2.9.10 the same max_streams produces the retained-stream "
                          u"message instead."_s));
    e.append(createStream(u"asm.create_out_stream"_s, u"QoS2 outgoing PUBREL"_s, u"$MQTT_out"_s, since210, newOnes,
                          u"2.10+ only. Captured: max_streams: 3 (10027), another stream with $MQTT.out.foo (10065)."_s));
    e.append(createStream(u"asm.create_retained_stream"_s, u"retained messages"_s, u"$MQTT_rmsgs"_s, all, everywhere,
                          u"Captured: max_streams: 2 on 2.9.10 and 4 on 2.10+ (10027), another stream with "
                          u"$MQTT.rmsgs (10065). From 2.12.14 the error can also be \"invalid stream create response: "
                          u"missing stream info\"."_s));
    e.append({
        .id = u"asm.retained_stream_unavailable"_s,
        .text = u"could not look up or create the retained messages stream for account %q"_s,
        .fields = {u"account"_s},
        .versions = since21214,
        .level = u"ERR"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s, u"STREAM_MISSING"_s},
        .connectPath = true,
        .meaning = u"The server's create request for $MQTT_rmsgs said the name is already in use, but the lookup "
                   u"that followed found no stream: it was deleted in between, or JetStream answers inconsistently "
                   u"(a cluster split, a restart, or another responder on the JS API). The CONNECT fails; older "
                   u"servers crashed on this (a nil dereference) instead of logging it."_s,
        .advice = u"Retry once the cluster is stable; the race usually resolves. If it repeats, run `{check}`: it "
                  u"reports a missing or half-created $MQTT_rmsgs (STREAM_MISSING: `{repair:STREAM_MISSING}` creates "
                  u"it) or a stream without a leader (STREAM_UNHEALTHY: restore the JetStream cluster first)."_s,
        .notes = u"Seed record. 2.12.14+, 2.14.4+ and main from 0fb7c1f57 (2026-07-30). Not reproducible on demand "
                 u"(needs a concurrent delete); matched against the source text."_s,
    });
    e.append({
        .id = u"asm.retained_stream_lookup_lost"_s,
        .text = u"could not look up the retained messages stream for account %q"_s,
        .fields = {u"account"_s},
        .versions = since21214,
        .level = u"ERR"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s, u"STREAM_MISSING"_s},
        .connectPath = true,
        .meaning = u"After moving retained messages to the per-subject layout, the server looked $MQTT_rmsgs up again "
                   u"and found nothing: the stream disappeared during the setup. The CONNECT fails."_s,
        .advice = u"`{check}`: STREAM_MISSING → `{repair:STREAM_MISSING}`; STREAM_UNHEALTHY → restore the JetStream "
                  u"cluster, then retry."_s,
        .notes = u"Source text only (a concurrent delete during the retained-message transfer)."_s,
    });
    e.append({
        .id = u"asm.update_stream_config"_s,
        .text = u"failed to update stream config: %w"_s,
        .fields = {u"error"_s},
        .versions = since210,
        .verifiedOn = newOnes,
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_LEGACY_LAYOUT"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = u"A 2.10+ server tried to move $MQTT_rmsgs to the per-subject layout (subjects $MQTT.rmsgs.> and "
                   u"max_msgs_per_subject 1) with a stream update, and JetStream refused; every CONNECT of the account "
                   u"fails until the update can be made."_s + kAsmRetry,
        .advice = u"`{check}` shows $MQTT_rmsgs against the expected layout (RETAINED_LEGACY_LAYOUT) and what blocks "
                  u"the update; `{repair:RETAINED_LEGACY_LAYOUT}` migrates the retained messages itself (republish per "
                  u"subject, then update the configuration)."_s,
        .codesByCause = {{u"js:10065"_s, {u"SUBJECTS_OVERLAP"_s, u"RETAINED_LEGACY_LAYOUT"_s}}},
        .meaningByCause = {{u"js:10065"_s,
                            u"Another stream of the account captures subjects under $MQTT.rmsgs., so $MQTT_rmsgs cannot "
                            u"take $MQTT.rmsgs.>."_s}},
        .adviceByCause = {{u"js:10065"_s,
                           u"`{check}` names the stream in the way (SUBJECTS_OVERLAP). `{repair:SUBJECTS_OVERLAP}` backs "
                           u"it up and deletes it or narrows its subjects; the next connection then finishes the "
                           u"migration (or run `{repair:RETAINED_LEGACY_LAYOUT}`)."_s}},
        .notes = u"Captured with a 2.9-layout $MQTT_rmsgs and another stream on $MQTT.rmsgs.foo (10065)."_s,
    });
    e.append({
        .id = u"asm.invalid_stream_create_response"_s,
        .text = u"invalid stream create response: missing stream info"_s,
        .versions = since21214,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .inner = true,
        .causeKey = u"missing_stream_info"_s,
        .meaning = u"JetStream answered a stream create request without stream information."_s,
        .advice = u"Retry; if it repeats, check JetStream health and whether something else answers on $JS.API in this "
                  u"account. `{check}` shows the streams."_s,
        .notes = u"Appears inside \"create ... stream for account %q: %v\". Source text only."_s,
    });
    e.append({
        .id = u"asm.invalid_stream_update_response"_s,
        .text = u"invalid stream update response: missing stream info"_s,
        .versions = since21214,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .inner = true,
        .causeKey = u"missing_stream_info"_s,
        .meaning = u"JetStream answered a stream update request without stream information."_s,
        .advice = u"Retry; if it repeats, check JetStream health. `{check}` shows the streams."_s,
        .notes = u"Appears inside \"failed to update stream config: %w\". Source text only."_s,
    });
    e.append({
        .id = u"asm.create_retained_consumer"_s,
        .text = u"create retained messages consumer for account %q: %v"_s,
        .fields = {u"account"_s, u"error"_s},
        .versions = all,
        .verifiedOn = {v2910},
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_SUBJECTS_WRONG"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = u"The streams exist, but the server could not create its consumer on $MQTT_rmsgs (it reads retained "
                   u"messages through it); every CONNECT of the account fails."_s + kAsmRetry,
        .advice = u"`{check}` compares $MQTT_rmsgs with the layout this server expects."_s,
        .notes = u"Captured on 2.9.10 with a $MQTT_rmsgs in the 2.10+ layout ($MQTT.rmsgs.>): 10093, the downgrade "
                 u"hazard."_s,
    });
    e.append({
        .id = u"asm.retained_load_timeout"_s,
        .text = u"Timing out waiting to load %v retained messages"_s,
        .fields = {u"count"_s},
        .versions = {u"2.9.0 to 2.11.11"_s, u"2.12.0 to 2.12.2"_s},
        .level = u"WRN"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .meaning = u"While setting up MQTT for an account, the server did not receive all retained messages of "
                   u"$MQTT_rmsgs within the JS API timeout. It carries on; retained messages not loaded yet are not "
                   u"delivered to new subscribers until they arrive."_s,
        .advice = u"Usually a very large retained set or a slow stream. `{check}` shows the size and health of "
                  u"$MQTT_rmsgs (STREAM_UNHEALTHY)."_s,
        .notes = u"Source text only."_s,
    });
    return e;
}

} // namespace MqttDoctor::LogCatalogueData
