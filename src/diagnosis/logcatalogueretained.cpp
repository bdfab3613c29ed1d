// Templates about retained messages (store, load, the 2.10 per-subject migration) and the
// transfer of legacy per-session streams into $MQTT_sess.
#include "logcataloguedata.h"

namespace MqttDoctor::LogCatalogueData {

using namespace Qt::StringLiterals;

QList<LogCatalogueEntry> retainedEntries()
{
    const QStringList all{u"2.9.0+"_s};
    const QStringList since210{u"2.10.0+"_s};
    const QStringList everywhere{v2910, v21027, v2151};
    const QStringList newOnes{v21027, v2151};

    const QString legacyAdvice =
        u"`{check}` lists the leftover $MQTT_sess_* streams (LEGACY_SESSION_STREAMS). "
        u"`{repair:LEGACY_SESSION_STREAMS}` backs them up, moves their records into $MQTT_sess and deletes them; an "
        u"empty or unreadable one is only backed up and deleted."_s;

    QList<LogCatalogueEntry> e;

    e.append({
        .id = u"retained.store_failed"_s,
        .text = u"unable to store retained message for account %q, subject %q: %v"_s,
        .fields = {u"account"_s, u"subject"_s, u"error"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"error"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_MISSING"_s},
        .causeDecides = true,
        .meaning = u"A retained PUBLISH of {clientref} on {subject} could not be stored in $MQTT_rmsgs. The message "
                   u"itself was still delivered to current subscribers, but it is not kept as the retained message: "
                   u"new subscribers will not get it (2.9 servers serve it from memory until they restart)."_s,
        .advice = u"`{check}` shows $MQTT_rmsgs."_s,
        .notes = u"Captured: $MQTT_rmsgs deleted while the server ran (timeout on $MQTT.rmsgs / $MQTT.rmsgs.<subject>)."_s,
    });
    e.append({
        .id = u"retained.load_all_failed"_s,
        .text = u"error loading retained messages: %v"_s,
        .fields = {u"error"_s},
        .versions = {u"2.10.8+"_s},
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .meaning = u"A subscription matched retained messages and the server could not load (all of) them from "
                   u"$MQTT_rmsgs; the subscriber gets only those that loaded."_s,
        .advice = u"`{check}` shows the health of $MQTT_rmsgs."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.load_failed"_s,
        .text = u"failed to load retained message for subject %q: %v"_s,
        .fields = {u"subject"_s, u"error"_s},
        .versions = {u"2.10.5+"_s},
        .verifiedOn = newOnes,
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"STREAM_UNHEALTHY"_s},
        .causeDecides = true,
        .meaning = u"A subscription of {clientref} matched the retained message on {subject} and the server could not "
                   u"load it from $MQTT_rmsgs."_s,
        .advice = u"`{retained}` shows what $MQTT_rmsgs holds; `{check}` its health."_s,
        .codesByCause = {{u"js:10037"_s, {}}, {u"nil"_s, {}}},
        .meaningByCause = {{u"js:10037"_s,
                            u"The message is no longer in the stream (deleted through the JetStream API or replaced); "
                            u"the server drops it from its list of retained messages. Harmless unless nobody meant to "
                            u"delete it."_s},
                           {u"nil"_s,
                            u"2.10 servers log this with \"<nil>\" when the message is no longer in the stream "
                            u"(deleted behind the server's back); the server drops it from its list."_s}},
        .adviceByCause = {{u"js:10037"_s, u"Nothing to repair. `{retained}` shows what is left."_s},
                          {u"nil"_s, u"Nothing to repair. `{retained}` shows what is left."_s}},
        .notes = u"Captured: a retained message deleted with $JS.API.STREAM.MSG.DELETE, then a matching subscription "
                 u"(2.10.27 prints the full subject and \"<nil>\", 2.15.1 the topic subject and 10037)."_s,
    });
    e.append({
        .id = u"retained.decode_failed"_s,
        .text = u"failed to decode retained message for subject %q: %v"_s,
        .fields = {u"subject"_s, u"error"_s},
        .versions = {u"2.10.5+"_s},
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .meaning = u"The retained message on {subject} in $MQTT_rmsgs is not in a format this server reads (bad JSON, "
                   u"or bad Nmqtt-R* headers); the server drops it from its list and does not deliver it."_s,
        .advice = u"`{retained}` shows the record. Delete it or publish the retained message again from an MQTT "
                  u"client; the doctor has no repair for a single corrupt retained record."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.skipped_del_char"_s,
        .text = u"Skipping retained message for subject %q: unsupported character 0x7f"_s,
        .fields = {u"subject"_s},
        .versions = {u"2.14.0+"_s},
        .level = u"WRN"_s,
        .severity = u"info"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .meaning = u"A legacy JSON retained record has a subject with the DEL character (0x7f); newer servers skip "
                   u"it."_s,
        .advice = u"`{retained}` shows it; delete the record if it is not needed."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_retry"_s,
        .text = u"Failed to transfer %d MQTT retained messages, will try again in %v"_s,
        .fields = {u"count"_s, u"duration"_s},
        .versions = {u"2.10.0 to 2.10.5"_s},
        .level = u"WRN"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_LEGACY_LAYOUT"_s, u"RETAINED_ORPHANED"_s},
        .meaning = u"Moving retained messages from the 2.9 single subject $MQTT.rmsgs to $MQTT.rmsgs.<subject> failed "
                   u"for some messages; the server retries every few seconds (these versions can spin forever on a "
                   u"corrupt record)."_s,
        .advice = u"`{check}` reports RETAINED_LEGACY_LAYOUT or RETAINED_ORPHANED; `{repair:RETAINED_LEGACY_LAYOUT}` "
                  u"migrates the messages itself and skips corrupt ones after backing them up."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_load_failed"_s,
        .text = u"Unable to transfer a retained message: failed to load from '$MQTT.rmsgs': %s"_s,
        .fields = {u"error"_s},
        .versions = {u"2.10.6+"_s},
        .level = u"WRN"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_LEGACY_LAYOUT"_s, u"RETAINED_ORPHANED"_s},
        .meaning = u"During the move of retained messages to the per-subject layout, the next message on $MQTT.rmsgs "
                   u"could not be loaded; the transfer stops and messages may be left on the old subject, where the "
                   u"server never reads them again."_s,
        .advice = u"`{check}` reports RETAINED_ORPHANED for messages left on $MQTT.rmsgs; `{repair:RETAINED_ORPHANED}` "
                  u"republishes them to $MQTT.rmsgs.<subject> and deletes the originals."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_store_failed"_s,
        .text = u"Unable to transfer the retained message with sequence %d: %v"_s,
        .fields = {u"seq"_s, u"error"_s},
        .versions = since210,
        .level = u"ERR"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_LEGACY_LAYOUT"_s},
        .meaning = u"A retained message could not be stored under its per-subject subject during the migration. From "
                   u"2.10.6 the original is deleted anyway: that retained message is lost."_s,
        .advice = u"Republish the retained message from its MQTT publisher. `{check}` shows what is left of the "
                  u"migration (RETAINED_LEGACY_LAYOUT)."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_unmarshal_failed"_s,
        .text = u"Unable to unmarshal retained message with sequence %d, skipping"_s,
        .fields = {u"seq"_s},
        .versions = since210,
        .verifiedOn = newOnes,
        .level = u"WRN"_s,
        .severity = u"warning"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .meaning = u"During the move of retained messages to the per-subject layout, the message at that sequence on "
                   u"$MQTT.rmsgs was not a valid 2.9 retained record; from 2.10.6 it is deleted (2.10.0 to 2.10.5 "
                   u"retry it forever)."_s,
        .advice = u"Nothing left to repair for that record; republish the retained message if it mattered. `{check}` "
                  u"shows whether the migration finished."_s,
        .notes = u"Captured: a 2.9-layout $MQTT_rmsgs with one corrupt record, first connect on 2.10+."_s,
    });
    e.append({
        .id = u"retained.transfer_cleanup_failed"_s,
        .text = u"Unable to clean up the retained message with sequence %d: %v"_s,
        .fields = {u"seq"_s, u"error"_s},
        .versions = since210,
        .level = u"ERR"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_ORPHANED"_s},
        .meaning = u"After copying a retained message to its per-subject subject, the server could not delete the "
                   u"original on $MQTT.rmsgs; the transfer stops there."_s,
        .advice = u"`{check}` reports messages left on $MQTT.rmsgs (RETAINED_ORPHANED); `{repair:RETAINED_ORPHANED}` "
                  u"republishes them and deletes the originals."_s,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_timeout"_s,
        .text = u"timed out while transferring retained messages from '$MQTT.rmsgs' after %v, %d processed, %d "
                u"successfully transferred"_s,
        .fields = {u"duration"_s, u"count"_s, u"count"_s},
        .versions = {u"2.10.6+"_s},
        .level = u"INF"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_ORPHANED"_s, u"RETAINED_LEGACY_LAYOUT"_s},
        .meaning = u"The migration of retained messages to the per-subject layout hit its 10 s deadline. The server "
                   u"then sets max_msgs_per_subject to 1 anyway, which purges every untransferred message on "
                   u"$MQTT.rmsgs but the newest, and that one stays on a subject no server reads: retained messages "
                   u"were lost."_s,
        .advice = u"`{check}` reports the leftover (RETAINED_ORPHANED): `{repair:RETAINED_ORPHANED}` republishes it. "
                  u"Restore the rest from a backup of $MQTT_rmsgs made before the upgrade, if there is one. Before "
                  u"upgrading other accounts with many retained messages, pre-migrate them with "
                  u"`{repair:RETAINED_LEGACY_LAYOUT}`."_s,
        .notes = u"Needs many thousands of 2.9-era retained messages; source text only."_s,
    });
    e.append({
        .id = u"retained.transfer_done"_s,
        .text = u"Processed %d messages from '$MQTT.rmsgs', successfully transferred %d in %v"_s,
        .fields = {u"count"_s, u"count"_s, u"duration"_s},
        .versions = {u"2.10.6+"_s},
        .verifiedOn = newOnes,
        .level = u"INF"_s,
        .stream = u"$MQTT_rmsgs"_s,
        .codes = {u"RETAINED_LEGACY_LAYOUT"_s},
        .meaning = u"A 2.10+ server moved the account's 2.9-era retained messages from $MQTT.rmsgs to "
                   u"$MQTT.rmsgs.<subject>. If the two numbers differ, the difference was deleted without being "
                   u"transferred (corrupt records or store failures, logged just before)."_s,
        .advice = u"Nothing to do if the numbers match. Note that 2.9 servers cannot serve this account any more "
                  u"(RETAINED_DOWNGRADE); `{check}` confirms the layout."_s,
        .notes = u"Captured: a 2.9-layout $MQTT_rmsgs with 3 good records and 1 corrupt one."_s,
    });

    // Legacy per-session streams ($MQTT_sess_<hash>, ≤2.4.x) moved into $MQTT_sess.
    e.append({
        .id = u"transfer.sessions_start"_s,
        .text = u"Transferring %v MQTT session streams..."_s,
        .fields = {u"count"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"INF"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"The server just created $MQTT_sess and found per-session streams of servers older than 2.5 "
                   u"($MQTT_sess_<hash>); it moves their records into $MQTT_sess and deletes them."_s,
        .advice = u"Nothing to do if \"Transfer of ... done!\" follows. " + legacyAdvice,
        .notes = u"Captured with $MQTT_sess_* streams created before the account's first MQTT connection."_s,
    });
    e.append({
        .id = u"transfer.sessions_stream"_s,
        .text = u"Transferring stream %q to %q"_s,
        .fields = {u"stream_name"_s, u"other"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"INF"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"One legacy per-session stream ({stream}) is being moved into $MQTT_sess."_s,
        .advice = legacyAdvice,
        .notes = u"Logged with two leading spaces."_s,
    });
    e.append({
        .id = u"transfer.sessions_done"_s,
        .text = u"Transfer of %v MQTT session streams done!"_s,
        .fields = {u"count"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"INF"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"The legacy session streams were processed. Streams whose content could not be read were skipped "
                   u"and are still there."_s,
        .advice = legacyAdvice,
    });
    e.append({
        .id = u"transfer.sessions_list_failed"_s,
        .text = u"Unable to transfer MQTT session streams: %v"_s,
        .fields = {u"error"_s},
        .versions = all,
        .level = u"ERR"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"The server could not list the account's streams to find legacy session streams; it retries "
                   u"every 5 s. MQTT connections still work."_s,
        .advice = legacyAdvice,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"transfer.sessions_load_failed"_s,
        .text = u"Unable to load session record: %v"_s,
        .fields = {u"error"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"ERR"_s,
        .severity = u"warning"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .causeDecides = true,
        .meaning = u"A legacy session stream ($MQTT_sess_<hash>) could not be read during its transfer into "
                   u"$MQTT_sess. The transfer stops at this stream and is retried every 5 seconds, with no limit; "
                   u"MQTT connections still work."_s,
        .advice = legacyAdvice,
        .codesByCause = {{u"js:10037"_s, {u"LEGACY_SESSION_STREAMS"_s}}},
        .meaningByCause = {{u"js:10037"_s,
                            u"The stream is empty: this line and \"Failed to transfer all MQTT session streams, will "
                            u"try again in 5s\" will repeat every 5 seconds until the stream is deleted."_s}},
        .adviceByCause = {{u"js:10037"_s, legacyAdvice}},
        .notes = u"Logged with three leading spaces; not to be confused with \"loading session record\". Captured: an "
                 u"empty $MQTT_sess_* stream (10037), the endless 5-second loop."_s,
    });
    e.append({
        .id = u"transfer.sessions_unmarshal_failed"_s,
        .text = u"Unable to unmarshal the content of this stream, may not be a legitimate MQTT session stream, "
                u"skipping"_s,
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"A stream named like a legacy session stream ($MQTT_sess_<hash>) does not hold a session record; "
                   u"the server leaves it in place and never retries it."_s,
        .advice = legacyAdvice,
        .notes = u"Captured: a $MQTT_sess_* stream holding non-JSON."_s,
    });
    e.append({
        .id = u"transfer.sessions_store_failed"_s,
        .text = u"Unable to transfer the session record: %v"_s,
        .fields = {u"error"_s},
        .versions = all,
        .level = u"ERR"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"A legacy session record could not be stored in $MQTT_sess; the transfer stops and is retried "
                   u"every 5 seconds."_s,
        .advice = legacyAdvice,
        .notes = u"Source text only."_s,
    });
    e.append({
        .id = u"transfer.sessions_retry"_s,
        .text = u"Failed to transfer all MQTT session streams, will try again in %v"_s,
        .fields = {u"duration"_s},
        .versions = all,
        .verifiedOn = everywhere,
        .level = u"WRN"_s,
        .codes = {u"LEGACY_SESSION_STREAMS"_s},
        .meaning = u"The transfer of legacy session streams into $MQTT_sess stopped on an error (logged just before) and "
                   u"will run again; it retries forever. Streams already transferred are gone, the failing one and "
                   u"those after it remain."_s,
        .advice = legacyAdvice,
        .notes = u"Captured with an empty $MQTT_sess_* stream."_s,
    });
    return e;
}

} // namespace MqttDoctor::LogCatalogueData
