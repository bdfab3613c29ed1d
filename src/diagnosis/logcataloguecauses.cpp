// What the errors inside the templates mean: JetStream API error codes (server/errors.json), JS API timeouts and the
// few other inner errors nats-server wraps into its MQTT messages.
#include "logcataloguedata.h"

namespace MqttDoctor::LogCatalogueData {

using namespace Qt::StringLiterals;

QList<LogCatalogueCause> causes()
{
    const QString streamMissingAdvice =
        u"Run `{check}`: it reports STREAM_MISSING. `{repair:STREAM_MISSING}` recreates {stream} with the exact "
        u"configuration this server version expects; MQTT clients can connect again at once, no restart needed. "
        u"Whatever the deleted stream held (persistent sessions, queued QoS1 messages or retained messages) is gone "
        u"unless you `restore` a backup. Restarting the servers also recreates it, empty."_s;
    const QString noStoreAdvice =
        u"Run `{check}`; it tells which of these it is. STREAM_MISSING: `{repair:STREAM_MISSING}` recreates {stream} "
        u"with the expected configuration. STREAM_SUBJECTS_WRONG: `{repair:STREAM_SUBJECTS_WRONG}` rewrites its subjects "
        u"with a stream update (the rest of its configuration is kept). STREAM_UNHEALTHY: bring the stream's servers "
        u"back so it has a leader; there is no repair for that."_s;

    return {
        {u"js:10039"_s, u"JetStream not enabled for account"_s, {u"JETSTREAM_DISABLED"_s}, {},
         u"JetStream is not enabled for {acct}. MQTT keeps every session and retained message in JetStream, so no MQTT "
         u"client of this account can connect."_s,
         u"Enable JetStream for the account in the server configuration (`jetstream: enabled` in the account block, or "
         u"JetStream limits in the account JWT) and reload the servers. There is no repair: the doctor does not edit "
         u"server configuration. `{check}` reports JETSTREAM_DISABLED."_s},
        {u"js:10076"_s, u"JetStream not enabled"_s, {u"JETSTREAM_DISABLED"_s}, {},
         u"JetStream is not enabled on this server."_s,
         u"Enable JetStream in the server configuration and restart it. There is no repair for this."_s},
        {u"js:10059"_s, u"stream not found"_s, {u"STREAM_MISSING"_s}, {},
         u"{stream} does not exist. nats-server creates its MQTT streams only when it sets up MQTT for an account (the "
         u"first MQTT connection after it starts), so a stream deleted later stays missing until it is recreated or "
         u"the servers restart."_s,
         streamMissingAdvice},
        {u"js:10065"_s, u"subjects overlap with an existing stream"_s, {u"SUBJECTS_OVERLAP"_s}, {},
         u"Another stream of {acct} already captures subjects that {stream} needs, so JetStream refuses to create "
         u"(or change) {stream}."_s,
         u"`{check}` names the stream in the way (SUBJECTS_OVERLAP). `{repair:SUBJECTS_OVERLAP}` backs it up, then "
         u"deletes it or narrows its subjects, and creates {stream}; the next MQTT connection succeeds."_s},
        {u"js:10027"_s, u"maximum number of streams reached"_s, {u"STREAM_LIMIT_HEADROOM"_s}, {},
         u"{acct} has reached its JetStream max_streams limit, so {stream} cannot be created. MQTT needs 3 streams on "
         u"2.9 servers and 5 from 2.10 on (an upgrade adds $MQTT_qos2in and $MQTT_out)."_s,
         u"`{check}` shows the limit and how many streams MQTT needs (STREAM_LIMIT_HEADROOM). Raise max_streams in the "
         u"account's JetStream limits (server configuration or account JWT), or delete streams the account no longer "
         u"uses. There is no automatic repair."_s},
        {u"js:10023"_s, u"insufficient resources"_s, {u"STREAM_LIMIT_HEADROOM"_s}, {},
         u"JetStream has no room left (memory or storage reserved on the servers) for {stream}."_s,
         u"Free JetStream storage or raise the servers' max_file_store/max_memory_store; `{check}` shows the account's "
         u"usage and limits (STREAM_LIMIT_HEADROOM). There is no automatic repair."_s},
        {u"js:10047"_s, u"insufficient storage resources available"_s, {u"STREAM_LIMIT_HEADROOM"_s}, {},
         u"JetStream ran out of storage for {stream}."_s,
         u"Free disk space or raise the JetStream storage limits; `{check}` shows usage and limits "
         u"(STREAM_LIMIT_HEADROOM). There is no automatic repair."_s},
        {u"js:10002"_s, u"resource limits exceeded for account"_s, {u"STREAM_LIMIT_HEADROOM"_s}, {},
         u"{acct} exceeded its JetStream resource limits (storage or memory)."_s,
         u"Raise the account's JetStream limits or free space (purge data the account no longer needs); `{check}` "
         u"shows usage and limits (STREAM_LIMIT_HEADROOM)."_s},
        {u"js:10074"_s, u"replicas > 1 not supported in non-clustered mode"_s, {u"REPLICAS_MISMATCH"_s}, {},
         u"The server wants {stream} with more than one replica (mqtt stream_replicas), but its JetStream is not "
         u"clustered."_s,
         u"Set `mqtt { stream_replicas: 1 }` (or remove the option) and reload the server (SIGHUP; the option is "
         u"reloadable): the next MQTT connection creates the stream. For streams that exist, `{check}` reports "
         u"REPLICAS_MISMATCH and `{repair:REPLICAS_MISMATCH}` changes their replica count with a stream update."_s},
        {u"js:10005"_s, u"no suitable peers for placement"_s, {u"REPLICAS_MISMATCH"_s, u"JETSTREAM_META_DEGRADED"_s}, {},
         u"JetStream cannot place {stream} with the replica count the server asks for: fewer JetStream servers are "
         u"available (in the cluster, or matching placement tags) than mqtt stream_replicas. With every server up, "
         u"one may be missing from the JetStream meta group: the meta leader places streams only on the members it "
         u"counts (seen with 2.10 right after a cluster start: \"Decreasing our clustersize: 3 -> 2\" in the debug log, "
         u"one server fewer in `nats server report jetstream`)."_s,
         u"Lower `mqtt { stream_replicas }` to at most the number of JetStream servers and reload, or bring the missing "
         u"servers back. `{check}` compares replicas with the JetStream peers (REPLICAS_MISMATCH) and, with a system "
         u"connection, names a server that is up but missing from the meta group (JETSTREAM_META_DEGRADED); "
         u"`{repair:REPLICAS_MISMATCH}` scales existing streams with a stream update."_s},
        {u"js:10093"_s, u"consumer filter subject is not a valid subset of the interest subjects"_s,
         {u"RETAINED_DOWNGRADE"_s, u"STREAM_SUBJECTS_WRONG"_s}, {},
         u"The stream's subjects do not cover the filter this server wants for its consumer. On $MQTT_rmsgs this is "
         u"the mark of a 2.9 server serving an account whose retained messages were already migrated to the 2.10+ "
         u"layout ($MQTT.rmsgs.>), or of subjects edited by hand."_s,
         u"`{check}` tells which it is (RETAINED_DOWNGRADE or STREAM_SUBJECTS_WRONG). `{repair:RETAINED_DOWNGRADE}` "
         u"backs up $MQTT_rmsgs and reverts it to the layout this server understands; `{repair:STREAM_SUBJECTS_WRONG}` "
         u"rewrites the subjects. Better still, upgrade the 2.9 servers."_s},
        {u"js:10071"_s, u"wrong last sequence"_s, {}, u"warning"_s,
         u"The session record of {clientref} was changed behind this server's back (by another server, a tool or a "
         u"hand edit) while this server kept the session cached; the server's conditional write "
         u"(Nats-Expected-Last-Subject-Sequence) was refused. The server drops its cached copy, so the next connection "
         u"reads the record again: usually a one-off."_s,
         u"Nothing to do if the client's next connection succeeds (mosquitto and most clients retry by themselves). If "
         u"the next attempt fails with `unmarshal of session record` or `stored session does not match client ID`, "
         u"explain that line: `{check}` then reports SESSION_UNDECODABLE or SESSION_ID_MISMATCH."_s},
        {u"js:10026"_s, u"maximum consumers limit reached"_s, {u"ORPHAN_CONSUMER"_s}, {},
         u"{acct} reached its JetStream max_consumers limit (2.9 counts it per stream). Every QoS1/QoS2 MQTT "
         u"subscription needs a durable consumer, and durables left behind by deleted sessions count too."_s,
         u"`{check}` lists consumers no session record references (ORPHAN_CONSUMER); `{repair:ORPHAN_CONSUMER}` deletes "
         u"them after showing their pending counts. Otherwise raise max_consumers in the account's JetStream limits."_s},
        {u"js:10037"_s, u"no message found"_s, {}, {},
         u"JetStream found no message where the server looked."_s,
         u"Nothing to repair on its own; `{check}` shows the state of {stream}."_s},
        {u"js:10008"_s, u"JetStream system temporarily unavailable"_s, {u"STREAM_UNHEALTHY"_s}, {},
         u"JetStream could not serve the request right now (no meta leader, or the cluster is still recovering)."_s,
         u"Check the cluster with `nats-mqtt-doctor-cli servers` and `{check}` (STREAM_UNHEALTHY); retry once JetStream "
         u"has a leader again. There is no repair for this."_s},
        {u"js:10077"_s, u"stream store failed"_s, {u"STREAM_UNHEALTHY"_s}, {},
         u"JetStream could not write to {stream}."_s,
         u"Check the server's storage and `{check}` (STREAM_UNHEALTHY)."_s},
        {u"js:10058"_s, u"stream name already in use with a different configuration"_s, {u"STREAM_CONFIG_WRONG"_s}, {},
         u"{stream} exists with a configuration other than the one the server sent."_s,
         u"`{check}` shows expected against actual (STREAM_CONFIG_WRONG); `{repair:STREAM_CONFIG_WRONG}` updates the "
         u"fields that can change, or backs up, recreates and restores the stream."_s},
        {u"js:10052"_s, u"invalid stream configuration"_s, {u"STREAM_CONFIG_WRONG"_s}, {},
         u"JetStream refused the stream configuration the server sent for {stream}."_s,
         u"`{check}` shows expected against actual (STREAM_CONFIG_WRONG)."_s},
        {u"js:10043"_s, u"sequence not found"_s, {}, u"info"_s,
         u"The message to delete was already gone (another server deleted it first)."_s,
         u"Nothing to do."_s},
        {u"js:10057"_s, u"message delete failed"_s, {u"STREAM_UNHEALTHY"_s}, {},
         u"JetStream could not delete the message from {stream}."_s,
         u"`{check}` shows the stream's health (STREAM_UNHEALTHY)."_s},

        {u"timeout:store"_s, u"timeout (publish not stored)"_s,
         {u"STREAM_MISSING"_s, u"STREAM_SUBJECTS_WRONG"_s, u"STREAM_UNHEALTHY"_s}, {},
         u"The server published to {request_subject} and no JetStream stream acknowledged it within the JS API timeout (4 s up "
         u"to 2.10, 5 s by default from 2.11): no stream captures that subject ({stream} is missing, or its subjects "
         u"are wrong, for example because of a JetStream domain token), or the stream has no leader."_s,
         noStoreAdvice},
        {u"timeout:api"_s, u"timeout (JetStream API request not answered)"_s, {u"STREAM_UNHEALTHY"_s}, {},
         u"The JetStream API did not answer the server's {kind} request on {request_subject} within the JS API timeout (4 s up "
         u"to 2.10, 5 s by default from 2.11): JetStream is unavailable for this account, the stream has no leader, or "
         u"the request went to a JetStream domain nobody serves.{domain_hint}"_s,
         u"Check JetStream health: `nats-mqtt-doctor-cli servers`, then `{check}` (STREAM_UNHEALTHY). There is no "
         u"repair for an unavailable JetStream; retry once it has a leader."_s},
        {u"no_ack"_s, u"no JetStream ack within the timeout"_s,
         {u"STREAM_MISSING"_s, u"STREAM_SUBJECTS_WRONG"_s, u"STREAM_UNHEALTHY"_s}, {},
         u"No JetStream stream acknowledged the stored message in time: no stream captures its subject (the stream is "
         u"missing or its subjects are wrong), or the stream has no leader."_s,
         noStoreAdvice},
        {u"missing_stream_info"_s, u"invalid stream create/update response: missing stream info"_s,
         {u"STREAM_UNHEALTHY"_s}, {},
         u"JetStream answered the server's stream request without stream information (an incomplete reply, or a reply "
         u"from something that is not JetStream)."_s,
         u"Retry the connection; if it repeats, check JetStream health and whether anything else answers on $JS.API "
         u"in this account. `{check}` shows the state of {stream}."_s},
        {u"shutdown"_s, u"server is not running"_s, {}, u"info"_s,
         u"The server was shutting down; the request was abandoned."_s,
         u"Nothing to fix: the client reconnects once a server is back."_s},
    };
}

} // namespace MqttDoctor::LogCatalogueData
