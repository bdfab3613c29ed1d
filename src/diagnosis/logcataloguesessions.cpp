// Templates about session records and the connect path (createOrRestoreSession, save, clear, mqttProcessConnect),
// and about the JetStream consumers of MQTT subscriptions.
#include "logcataloguedata.h"

namespace MqttDoctor::LogCatalogueData {

using namespace Qt::StringLiterals;

QList<LogCatalogueEntry> sessionEntries()
{
    const QStringList all{u"2.9.0+"_s};
    const QStringList oldWording{u"2.9.0 to 2.11.14"_s, u"2.12.0 to 2.12.5"_s};
    const QStringList newWording{u"2.11.15 to 2.11.17"_s, u"2.12.6+"_s};
    const QStringList everywhere{v2910, v21027, v2151};
    const QStringList oldCaptured{v2910, v21027};
    const QStringList newCaptured{v2151};

    const QString loadMeaning =
        u"The server could not read the session record of {clientref} from $MQTT_sess, for a reason other than "
        u"\"no record yet\"; the CONNECT fails (no CONNACK). Clean and persistent sessions alike: every new "
        u"connection reads the record first."_s;
    const QString loadAdvice =
        u"`{check}` shows the state of $MQTT_sess (STREAM_MISSING, STREAM_UNHEALTHY)."_s;
    const QString unmarshalMeaning =
        u"The session record of {clientref} in $MQTT_sess (at the sequence in the line) is not valid JSON or not a "
        u"session record, so every CONNECT with this client ID fails until the record is fixed or removed. Other "
        u"client IDs are not affected."_s;
    const QString unmarshalAdvice =
        u"`{sessions}` shows the record and `{check}` reports SESSION_UNDECODABLE. `{repair:SESSION_UNDECODABLE}` "
        u"backs the record up, purges that session subject and deletes the session's consumers; the client then "
        u"connects with a new, empty session (its subscriptions must be made again; mosquitto does that itself)."_s;

    QList<LogCatalogueEntry> e;

    e.append({
        .id = u"session.load_failed_old"_s,
        .text = u"loading session record for account %q, session %q: %v"_s,
        .fields = {u"account"_s, u"client"_s, u"error"_s},
        .versions = oldWording,
        .verifiedOn = oldCaptured,
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = loadMeaning,
        .advice = loadAdvice,
        .notes = u"Older wording of seed \"loading session record: %w\". Captured: $MQTT_sess deleted while the server "
                 u"ran (10059)."_s,
    });
    e.append({
        .id = u"session.load_failed"_s,
        .text = u"loading session record: %w for account %q, session %q"_s,
        .fields = {u"error"_s, u"account"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .severity = u"critical"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .connectPath = true,
        .meaning = loadMeaning,
        .advice = loadAdvice,
        .notes = u"Seed record (\"loading session record: %w\", wrapped by mqttProcessConnect as \"%v for account %q, "
                 u"session %q\"). Captured: $MQTT_sess deleted while the server ran (10059)."_s,
    });
    e.append({
        .id = u"session.unmarshal_failed_old"_s,
        .text = u"unmarshal of session record at sequence %v for account %q, session %q: %v"_s,
        .fields = {u"seq"_s, u"account"_s, u"client"_s, u"error"_s},
        .versions = oldWording,
        .verifiedOn = oldCaptured,
        .level = u"ERR"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"SESSION_UNDECODABLE"_s},
        .connectPath = true,
        .meaning = unmarshalMeaning,
        .advice = unmarshalAdvice,
        .notes = u"Captured: a raw publish of non-JSON on $MQTT.sess.<hash>."_s,
    });
    e.append({
        .id = u"session.unmarshal_failed"_s,
        .text = u"unmarshal of session record at sequence %v: %w for account %q, session %q"_s,
        .fields = {u"seq"_s, u"error"_s, u"account"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"SESSION_UNDECODABLE"_s},
        .connectPath = true,
        .meaning = unmarshalMeaning,
        .advice = unmarshalAdvice,
        .notes = u"Captured: a raw publish of non-JSON on $MQTT.sess.<hash>."_s,
    });
    e.append({
        .id = u"session.id_mismatch"_s,
        .text = u"stored session does not match client ID for account %q, session %q"_s,
        .fields = {u"account"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"SESSION_ID_MISMATCH"_s, u"SESSION_HASH_COLLISION"_s},
        .connectPath = true,
        .meaning = u"The record stored under the hash of {clientref} belongs to another client ID: two client IDs share "
                   u"the same 8-character hash, or the record's \"id\" was edited. The server answered CONNACK 2 "
                   u"(identifier rejected) and keeps the other client's session; 2.9 servers instead let the new "
                   u"client take that session over silently."_s,
        .advice = u"`{sessions}` shows whose record it is; `{check}` reports SESSION_ID_MISMATCH (a record whose id does "
                  u"not hash to its subject: `{repair:SESSION_ID_MISMATCH}` backs it up and purges it) or "
                  u"SESSION_HASH_COLLISION (two known IDs with one hash: no repair, give one client a new client ID)."_s,
        .notes = u"Captured with the colliding IDs cid-03579431 and cid-09191235 (hash 1fbmU9bb) on 2.15.1."_s,
    });
    e.append({
        .id = u"session.invalid_client_id_utf8_old"_s,
        .text = u"invalid utf8 for client ID: %q"_s,
        .fields = {u"client"_s},
        .versions = oldWording,
        .verifiedOn = oldCaptured,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .mqttClientOnly = true,
        .meaning = u"The client ID in the CONNECT is not valid UTF-8; the server answered CONNACK 0x02 (identifier rejected). "
                   u"Every version refuses such an ID, so no session of it exists."_s,
        .advice = u"Fix the client's ID (its bytes must be valid UTF-8)."_s,
        .notes = u"Captured with a raw CONNECT whose client ID holds the byte 0xff."_s,
    });
    e.append({
        .id = u"session.invalid_client_id_utf8"_s,
        .text = u"invalid utf8 for %s %q"_s,
        .fields = {u"other"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .mqttClientOnly = true,
        .meaning = u"A string of the packet (the line names which: client ID, topic, user name) is not valid UTF-8. For a "
                   u"client ID the server answered CONNACK 0x02 (identifier rejected), as every version does; for a topic "
                   u"or user name it closed the connection."_s,
        .advice = u"Fix the client: the strings of MQTT packets must be valid UTF-8."_s,
        .notes = u"New wording of session.invalid_client_id_utf8_old (with nats-server commit 0935b53f9). Captured with a "
                 u"raw CONNECT whose client ID holds the byte 0xff."_s,
    });
    e.append({
        .id = u"session.invalid_client_id_char"_s,
        .text = u"invalid character in %s %q"_s,
        .fields = {u"other"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .codes = {u"UPGRADE_CLIENT_ID_REFUSED"_s},
        .mqttClientOnly = true,
        .meaning = u"The CONNECT of {clientref} carries a client ID with a space, tab, '.', '*' or '>'. Servers from 2.11.15 / 2.12.6 / 2.14.0 refuse "
                   u"it with CONNACK 0x02 (identifier rejected); older ones accepted it, so a device that worked before the "
                   u"upgrade cannot connect any more and its session is unreachable."_s,
        .advice = u"Give the client an ID without those characters; `check --account A --target-version V` lists every "
                  u"session record and connected client an upgrade would refuse, before the upgrade."_s,
        .notes = u"Captured with raw CONNECTs of the client IDs \"dev.1\", \"space id\" and one with a tab."_s,
    });
    e.append({
        .id = u"session.invalid_client_id_null"_s,
        .text = u"invalid null character in %s %q"_s,
        .fields = {u"other"_s, u"client"_s},
        .versions = newWording,
        .verifiedOn = newCaptured,
        .level = u"ERR"_s,
        .codes = {u"UPGRADE_CLIENT_ID_REFUSED"_s},
        .mqttClientOnly = true,
        .meaning = u"The CONNECT of {clientref} carries a client ID with a NUL character. Servers from 2.11.15 / 2.12.6 / 2.14.0 refuse it (for a "
                   u"client ID with CONNACK 0x02); older ones accepted it."_s,
        .advice = u"Fix the client; `check --account A --target-version V` lists the IDs an upgrade would refuse."_s,
        .notes = u"Captured with a raw CONNECT whose client ID holds a NUL byte."_s,
    });
    e.append({
        .id = u"session.persist_invalid_ack"_s,
        .text = u"unable to persist session %q (seq=%v): invalid pub ack response"_s,
        .fields = {u"client"_s, u"seq"_s},
        .versions = {u"2.12.14 to 2.12.15"_s, u"2.14.4+"_s},
        .level = u"ERR"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .meaning = u"The server saved the session record of {clientref} and got a reply that is not a JetStream "
                   u"publish acknowledgement; the save counts as failed (at CONNECT the connection is refused)."_s,
        .advice = u"Something other than JetStream may answer on the session subjects, or a reply was forged. "
                  u"`{check}` shows $MQTT_sess and its subjects."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"session.persist_failed"_s,
        .text = u"unable to persist session %q (seq=%v): %v"_s,
        .fields = {u"client"_s, u"seq"_s, u"error"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"STREAM_SUBJECTS_WRONG"_s},
        .causeDecides = true,
        .meaning = u"The server could not save the session record of {clientref} to $MQTT_sess (seq is the record's "
                   u"sequence it expected, 0 for a new one). At CONNECT the connection is refused and the cached "
                   u"session dropped; on SUBSCRIBE/UNSUBSCRIBE the connection is closed."_s,
        .advice = u"`{check}` compares $MQTT_sess with the expected configuration."_s,
        .notes = u"Captured: a $MQTT_sess with wrong subjects ($MQTT.sess.hub.>: timeout, seq=0), $MQTT_sess deleted "
                 u"under a cached session (timeout, seq=2), a record overwritten behind the server's back (10071), and "
                 u"a connect during shutdown (\"server is not running\")."_s,
    });
    e.append({
        .id = u"session.delete_consumer_failed"_s,
        .text = u"unable to delete consumer %q for session %q: %v"_s,
        .fields = {u"consumer"_s, u"client"_s, u"error"_s},
        .versions = all,
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_msgs"_s,
        .codes = {u"ORPHAN_CONSUMER"_s},
        .causeDecides = true,
        .meaning = u"Clearing the session of {clientref} (a clean session ending, or a clean CONNECT over an old "
                   u"session), the server could not delete one of its durable consumers; the consumer may stay behind "
                   u"and, on an interest-retention stream, keeps messages forever."_s,
        .advice = u"`{check}` lists consumers no session record references (ORPHAN_CONSUMER); "
                  u"`{repair:ORPHAN_CONSUMER}` deletes them after showing their pending counts."_s,
        .codesByCause = {{u"js:10059"_s, {u"STREAM_MISSING"_s}}},
        .notes = u"$MQTT_msgs consumers, or the $MQTT_PUBREL_<hash> durable on $MQTT_out (2.10+). Source text only."_s,
    });
    e.append({
        .id = u"session.delete_record_failed_old"_s,
        .text = u"unable to delete session %q record at sequence %v"_s,
        .fields = {u"client"_s, u"seq"_s},
        .versions = {u"2.9.0 to 2.10.4"_s},
        .level = u"ERR"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"SESSION_STALE"_s},
        .meaning = u"Clearing the session of {clientref}, the server could not delete its record from $MQTT_sess; the "
                   u"record stays and is read again at the client's next connection."_s,
        .advice = u"`{sessions}` shows the record; `{check}` reports it once it is stale (SESSION_STALE), and "
                  u"`{repair:SESSION_STALE}` deletes record and consumers after a backup."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"session.delete_record_failed"_s,
        .text = u"unable to delete session %q record at sequence %v: %v"_s,
        .fields = {u"client"_s, u"seq"_s, u"error"_s},
        .versions = {u"2.10.5+"_s},
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_sess"_s,
        .codes = {u"SESSION_STALE"_s},
        .causeDecides = true,
        .meaning = u"Clearing the session of {clientref}, the server could not delete its record from $MQTT_sess; the "
                   u"record stays and is read again at the client's next connection."_s,
        .advice = u"`{sessions}` shows the record; `{check}` reports it once it is stale (SESSION_STALE), and "
                  u"`{repair:SESSION_STALE}` deletes record and consumers after a backup."_s,
        .notes = u"From 2.12 the server ignores \"sequence not found\" here. Source text only."_s,
    });
    e.append({
        .id = u"session.connect_in_progress"_s,
        .text = u"other session with client ID %q is in the process of connecting"_s,
        .fields = {u"client"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .connectPath = true,
        .meaning = u"A second CONNECT with {clientref} arrived while the first was still being set up, and the first "
                   u"did not finish within a second; the newer connection is refused. The first one is usually stuck "
                   u"on a JetStream request that times out."_s,
        .advice = u"Look for the error the server logs for the first connection of the same client ID a few seconds "
                  u"later (often \"unable to persist session ... timeout\") and explain that line."_s,
        .notes = u"Captured: two connects with the same ID while the first waited on a session save that timed out."_s,
    });
    e.append({
        .id = u"session.in_use"_s,
        .text = u"another session is in use with client ID %q"_s,
        .fields = {u"client"_s},
        .versions = all,
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .meaning = u"A packet of {clientref} (SUBSCRIBE, UNSUBSCRIBE or the close) could not lock the session because "
                   u"another connection with the same client ID is being set up."_s,
        .advice = u"Two devices or processes are probably using the same client ID; give each its own."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"session.remote_takeover"_s,
        .text = u"Closing because a remote connection has started with the same client ID: %q"_s,
        .fields = {u"client"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .codes = {u"CLIENT_ID_TAKEOVER"_s, u"SESSION_HASH_COLLISION"_s},
        .meaning = u"Another server of the cluster saved the session of {clientref}, so this server closes its own "
                   u"connection of that client (MQTT allows one connection per client ID). Expected when a client "
                   u"moves between servers; on 2.9 servers a different client ID with the same hash causes it too, "
                   u"and so does a tool that writes session records with the server's internal reply subject."_s,
        .advice = u"If two devices keep kicking each other off, they share a client ID (or its hash: `{check}` reports "
                  u"SESSION_HASH_COLLISION; give one a new client ID). `{events}` shows the takeovers as they happen, "
                  u"with the addresses involved."_s,
        .notes = u"Captured by publishing a session record with a $MQTT.JSA.<other server>.SP reply subject."_s,
    });
    e.append({
        .id = u"session.local_takeover"_s,
        .text = u"Replacing old client %q since both have the same client ID %q"_s,
        .fields = {u"other"_s, u"client"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .codes = {u"CLIENT_ID_TAKEOVER"_s},
        .meaning = u"A new connection with {clientref} arrived on the same server; the old connection (first value) is "
                   u"closed and the session continues on the new one. Harmless once; a steady stream of these lines "
                   u"means two clients share a client ID and keep kicking each other off (the server then delays "
                   u"them as \"flappers\")."_s,
        .advice = u"Give each device its own client ID. Nothing to repair in the streams. `{events}` shows the takeovers "
                  u"as they happen (a storm: more than 3 in 5 minutes) with the addresses the client ID connects from."_s,
        .notes = u"Captured with two mosquitto_sub using one client ID."_s,
    });
    e.append({
        .id = u"consumer.add_failed"_s,
        .text = u"Unable to add JetStream consumer for subscription on %q: err=%v"_s,
        .fields = {u"subject"_s, u"error"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_msgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .meaning = u"A QoS1/QoS2 subscription of {clientref} on {subject} needs a durable consumer on $MQTT_msgs and "
                   u"JetStream refused to create it: the client got SUBACK 0x80 (failure) for that filter and receives "
                   u"nothing on it."_s,
        .advice = u"`{check}` shows $MQTT_msgs and the account's consumer limits."_s,
        .notes = u"Captured: $MQTT_msgs deleted (10059) and max_consumers: 1 (10026)."_s,
    });
    e.append({
        .id = u"consumer.add_pubrel_failed"_s,
        .text = u"Unable to add JetStream consumer for PUBREL for client %q: err=%v"_s,
        .fields = {u"client"_s, u"error"_s},
        .versions = {u"2.10.0+"_s},
        .verifiedOn = {v21027, v2151},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_out"_s,
        .codes = {u"SESSION_MISSING_CONSUMER"_s},
        .causeDecides = true,
        .meaning = u"A QoS2 subscription of {clientref} needs the durable $MQTT_PUBREL_<hash> on $MQTT_out to resend "
                   u"PUBRELs, and JetStream refused to create it; the QoS2 subscription fails."_s,
        .advice = u"`{check}` shows $MQTT_out and the session's consumers (SESSION_MISSING_CONSUMER: "
                  u"`{repair:SESSION_MISSING_CONSUMER}` creates the durable from the record)."_s,
        .notes = u"Captured: $MQTT_out deleted, then a QoS2 SUBSCRIBE (10059)."_s,
    });
    e.append({
        .id = u"consumer.pubrel_init_failed"_s,
        .text = u"failed to initialize PUBREL processing: %v"_s,
        .fields = {u"error"_s},
        .versions = {u"2.10.5+"_s},
        .verifiedOn = {v21027, v2151},
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_out"_s,
        .codes = {u"SESSION_MISSING_CONSUMER"_s},
        .causeDecides = true,
        .meaning = u"Follows the line above: QoS2 PUBREL handling for this client could not start, so its QoS2 "
                   u"subscription fails."_s,
        .advice = u"`{check}` shows $MQTT_out and the session's consumers."_s,
        .notes = u"Captured together with consumer.add_pubrel_failed."_s,
    });
    e.append({
        .id = u"consumer.max_ack_pending"_s,
        .text = u"max_ack_pending for all consumers would be %v which exceeds the limit of %v"_s,
        .fields = {u"count"_s, u"count"_s},
        .versions = all,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .meaning = u"The session's QoS1/QoS2 subscriptions together would need more unacknowledged messages in flight "
                   u"than MQTT packet identifiers allow (65535); the new subscription is refused (SUBACK 0x80)."_s,
        .advice = u"Lower `mqtt { max_ack_pending }` (default 1024 per subscription) or use fewer QoS1/QoS2 "
                  u"subscriptions per client. Nothing to repair in the streams."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"consumer.subscribe_failed"_s,
        .text = u"Unable to create subscription for JetStream consumer on %q: %v"_s,
        .fields = {u"subject"_s, u"error"_s},
        .versions = all,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .meaning = u"The server created the JetStream consumer but could not subscribe the client to its delivery "
                   u"subject ($MQTT.sub.<id>); the subscription fails. Usually a permission on $MQTT.sub.> or "
                   u"$MQTT.deliver.pubrel.> is missing for the MQTT user."_s,
        .advice = u"Allow the MQTT user to subscribe to $MQTT.sub.> (and $MQTT.deliver.pubrel.> from 2.10). Nothing to "
                  u"repair in the streams."_s,
        .notes = u"Source text only."_s,
    });
    return e;
}

} // namespace MqttDoctor::LogCatalogueData
