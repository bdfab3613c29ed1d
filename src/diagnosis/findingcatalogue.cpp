#include "findingcatalogue.h"

#include <optional>

#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttlogformats.h"

namespace MqttDoctor {

namespace F = MqttLogFormats;
namespace R = RepairActions;
using Sev = Finding::Severity;
using Scope = FindingCatalogue::Scope;
using LogTemplate = FindingCatalogue::LogTemplate;

namespace {

QString t(const char *s)
{
    return QString::fromUtf8(s);
}

LogTemplate lt(const QString &format, const QString &cause = {}, const char *versions = "all")
{
    return LogTemplate{format, cause, t(versions)};
}

QList<FindingCatalogue::Entry> buildEntries()
{
    QList<FindingCatalogue::Entry> e;

    e.append({FindingCodes::jetStreamDisabled(),
              Sev::Critical,
              Scope::Account,
              t("JetStream is not enabled for account {account}"),
              t("the account has no JetStream, where nats-server keeps all MQTT state"),
              {lt(F::lookupStream(), F::errNotEnabledForAccount())},
              t("every MQTT CONNECT in the account fails without a CONNACK"),
              {},
              {},
              t("Enable JetStream for the account in the server configuration (accounts { A: { jetstream: enabled } }, "
                "or the account JWT's JetStream limits) and reload the servers.")});

    e.append({FindingCodes::streamMissing(),
              Sev::Error,
              Scope::Stream,
              t("{stream} is missing in account {account}"),
              t("an expected MQTT stream is absent"),
              {lt(F::loadSessionOld(), F::errStreamNotFound(), "2.9.10-2.11.14, 2.12.0-2.12.5"),
               lt(F::loadSession(), F::errStreamNotFound(), "2.11.15+, 2.12.6+, 2.14.0+"), lt(F::storeRetained(), F::errTimeout()),
               lt(F::addSubscriptionConsumer(), F::errStreamNotFound()), lt(F::addPubRelConsumer(), F::errStreamNotFound(), "2.10+"),
               lt(F::lookupOrCreateRetainedStream(), {}, "2.12.14+, 2.14.4+")},
              t("QoS1/QoS2 messages for offline sessions are dropped; retained messages are not stored"),
              R::createStream(),
              {},
              t("Create the stream with the exact config the servers expect; servers only create MQTT streams when "
                "they first set up MQTT for the account after a start.")});

    e.append({FindingCodes::streamSubjectsWrong(),
              Sev::Error,
              Scope::Stream,
              t("{stream} has the wrong subjects"),
              t("the subjects of an MQTT stream differ from what the servers expect (domain token included)"),
              {lt(F::persistSession(), F::errTimeout()), lt(F::addSubscriptionConsumer(), F::errFilterNotSubset()),
               lt(F::createRetainedConsumer(), F::errFilterNotSubset()), lt(F::storeRetained(), F::errTimeout())},
              t("sessions look lost after a JetStream domain change; saves take 4-5 s and time out"),
              R::updateStream(),
              {},
              t("Update the stream's subjects to the expected ones (read-modify-write of its raw config).")});

    e.append({FindingCodes::streamConfigWrong(),
              Sev::Error,
              Scope::Stream,
              t("{stream} has the wrong configuration ({fields})"),
              t("retention, storage, discard, max_msgs_per_subject or discard_new_per_subject differ from what the servers set"),
              {},
              t("stale or duplicate session records (erratic last-by-subject reads), QoS2 duplicates, streams that never shrink"),
              R::updateStream(),
              {R::recreateStream()},
              t("Update the fields that JetStream lets change; storage and retention need a backup, delete, recreate "
                "and restore.")});

    e.append({FindingCodes::subjectsOverlap(),
              Sev::Critical,
              Scope::Stream,
              t("Stream {stream} captures {subject}, needed by {mqtt_stream}"),
              t("another stream captures subjects an MQTT stream needs"),
              {lt(F::createSessionsStream(), F::errSubjectsOverlap()), lt(F::createMessagesStream(), F::errSubjectsOverlap()),
               lt(F::createQos2InStream(), F::errSubjectsOverlap(), "2.10+"), lt(F::createOutStream(), F::errSubjectsOverlap(), "2.10+"),
               lt(F::createRetainedStream(), F::errSubjectsOverlap()), lt(F::updateStreamConfig(), F::errSubjectsOverlap(), "2.10+")},
              {},
              R::resolveOverlap(),
              {},
              t("Back up the other stream, then delete it or narrow its subjects so it no longer captures $MQTT.*; "
                "then create the MQTT stream.")});

    e.append({FindingCodes::streamLimitHeadroom(),
              Sev::Critical,
              Scope::Account,
              t("Account {account} has no room for {what}"),
              t("the account's max_streams or storage leaves no room for missing MQTT streams, or for the two extra "
                "streams of the 2.10+ layout"),
              {lt(F::createSessionsStream(), F::errMaxStreams()), lt(F::createMessagesStream(), F::errMaxStreams()),
               lt(F::createQos2InStream(), F::errMaxStreams(), "2.10+"), lt(F::createOutStream(), F::errMaxStreams(), "2.10+"),
               lt(F::createRetainedStream(), F::errMaxStreams()), lt(F::createSessionsStream(), F::errMaxBytesRequired()),
               lt(F::persistSession(), F::errAccountResources()), lt(F::accountResourcesExceeded())},
              {},
              {},
              {},
              t("Raise the account's JetStream limits (max_streams, max_file / max_storage) to at least the value shown.")});

    e.append({FindingCodes::replicasMismatch(),
              Sev::Warning,
              Scope::Stream,
              t("{stream} has {actual} replicas, expected {expected}"),
              t("stream replicas differ from the expected count, or exceed the JetStream peers"),
              {lt(F::replicasMismatch()), lt(F::createSessionsStream(), F::errReplicasNotSupported()),
               lt(F::createSessionsStream(), F::errNoSuitablePeers())},
              t("fewer replicas than peers: a single node loss stops MQTT for the account"),
              R::updateStream(),
              {},
              t("Scale the stream with a stream update (servers never reconcile MQTT replicas themselves); keep "
                "mqtt.stream_replicas at or below the number of JetStream servers.")});

    e.append({FindingCodes::streamUnhealthy(),
              Sev::Error,
              Scope::Stream,
              t("{stream} is unhealthy: {problem}"),
              t("an MQTT stream has no leader, or replicas that are offline or lagging"),
              {lt(F::lookupStream(), F::errTimeout()), lt(F::loadSessionOld(), F::errTimeout(), "2.9.10-2.11.14, 2.12.0-2.12.5"),
               lt(F::loadSession(), F::errTimeout(), "2.11.15+, 2.12.6+, 2.14.0+"), lt(F::requestTimeoutOld(), {}, "2.9.10-2.10.7"),
               lt(F::requestTimeout(), {}, "2.10.8+"), lt(F::lookupOrCreateRetainedStream(), {}, "2.12.14+, 2.14.4+"),
               lt(F::lookupRetainedStream(), {}, "2.12.14+, 2.14.4+")},
              t("JetStream API timeouts; MQTT connects take seconds and fail"),
              {},
              {},
              t("Bring the offline servers back (or remove dead peers) and check the JetStream meta leader; the "
                "stream recovers a leader once a quorum of its replicas is current.")});

    e.append({FindingCodes::mixedServerVersions(),
              Sev::Warning,
              Scope::Cluster,
              t("Servers of the 2.9 and 2.10+ MQTT layouts serve the same cluster ({versions})"),
              t("servers of both layouts in one cluster"),
              {lt(F::createRetainedConsumer(), F::errFilterNotSubset())},
              t("a 2.10+ server migrates $MQTT_rmsgs to per-subject retained messages the next time it sets up MQTT "
                "for an account; from then on 2.9 servers fail every MQTT connect in that account"),
              {},
              {},
              t("Finish the rolling upgrade (or downgrade) so all servers that serve MQTT run the same layout.")});

    e.append({FindingCodes::retainedLegacyLayout(),
              Sev::Info,
              Scope::Stream,
              t("$MQTT_rmsgs still has the 2.9 layout ({messages} retained messages to migrate)"),
              t("$MQTT_rmsgs is still in the 2.9 layout where all servers are 2.10+ (or an upgrade is planned)"),
              {lt(F::transferRetainedDone(), {}, "2.10.6+"), lt(F::transferRetainedTimeout(), {}, "2.10.6+"),
               lt(F::transferRetainedStore(), {}, "2.10.6+"), lt(F::transferRetainedUnmarshal(), {}, "2.10.6+"),
               lt(F::transferRetainedRetry(), {}, "2.10.0-2.10.5"), lt(F::updateStreamConfig(), {}, "2.10+")},
              t("after the 10 s migration deadline the server sets max_msgs_per_subject 1, purging every retained "
                "message not yet moved but the newest"),
              R::migrateRetained(),
              {},
              t("Nothing to do for a few retained messages: the server migrates them. With many, migrate them "
                "beforehand (republish per subject, then update the config).")});

    e.append({FindingCodes::retainedOrphaned(),
              Sev::Error,
              Scope::Stream,
              t("{count} retained message(s) orphaned on $MQTT.rmsgs"),
              t("messages left on the literal subject $MQTT.rmsgs in a 2.10+ retained stream"),
              {lt(F::transferRetainedTimeout(), {}, "2.10.6+")},
              t("retained messages silently lost: no server reads $MQTT.rmsgs any more"),
              R::republish(),
              {},
              t("Republish each orphan to $MQTT.rmsgs.<its subject>, then delete the original.")});

    e.append({FindingCodes::retainedDowngrade(),
              Sev::Critical,
              Scope::Stream,
              t("$MQTT_rmsgs has the 2.10+ layout but 2.9 servers serve MQTT ({servers})"),
              t("the 2.10+ retained layout while a 2.9 server serves the account"),
              {lt(F::createRetainedConsumer(), F::errFilterNotSubset())},
              t("every MQTT connect through a 2.9 server fails without a CONNACK"),
              R::revertRetained(),
              {},
              t("Upgrade the 2.9 servers (preferred), or back up $MQTT_rmsgs and revert it to the 2.9 shape.")});

    e.append({FindingCodes::retainedConsumerMissing(),
              Sev::Error,
              Scope::Stream,
              t("No retained-message consumer delivers to {servers} in account {account}"),
              t("a server set up MQTT for the account but its consumer on $MQTT_rmsgs is gone (it dies with the stream)"),
              {},
              t("retained messages published after $MQTT_rmsgs came back never reach new subscribers through that server "
                "(2.12.3+; older servers still see their own clients' but not the other servers' retained messages); no log line"),
              R::restoreRetainedConsumer(),
              {},
              t("Make the server's consumer again on the subject it still listens on (needs the system connection to find it), "
                "or restart the servers named (a lame-duck restart, one at a time): each makes its consumer anew.")});

    e.append({FindingCodes::legacySessionStreams(),
              Sev::Warning,
              Scope::Stream,
              t("Legacy session stream {stream} ({messages} message(s))"),
              t("$MQTT_sess_<hash> streams of servers up to 2.4 are left"),
              {lt(F::transferSessionLoad(), F::errNoMessageFound()), lt(F::transferSessionsRetry()), lt(F::transferSessionsStart()),
               lt(F::transferSessionsList()), lt(F::transferSessionUnmarshal()), lt(F::transferSessionStore())},
              t("an empty one makes the server retry the transfer every 5 s, forever"),
              R::migrateLegacySessions(),
              {},
              t("Move the records into $MQTT_sess (backed up), then delete the legacy streams.")});

    e.append(
        {FindingCodes::sessionUndecodable(),
         Sev::Critical,
         Scope::Session,
         t("Session record on {subject} cannot be decoded"),
         t("a session record is not valid JSON or has the wrong shape"),
         {lt(F::unmarshalSessionOld(), {}, "2.9.10-2.11.14, 2.12.0-2.12.5"), lt(F::unmarshalSession(), {}, "2.11.15+, 2.12.6+, 2.14.0+")},
         t("every connect of that client ID fails"),
         R::purgeSession(),
         {},
         t("Back up the record, purge its subject and delete the consumers it referenced.")});

    e.append({FindingCodes::sessionIdMismatch(),
              Sev::Error,
              Scope::Session,
              t("Session record on {subject} holds client ID {client_id}, which does not hash to it"),
              t("a record's id does not hash to its subject token"),
              {lt(F::sessionCollision(), {}, "2.11.15+, 2.12.6+, 2.14.0+")},
              t("2.11.15+: the owning client is refused (CONNACK rc=2); older servers hand the session to the wrong client"),
              R::purgeSession(),
              {},
              t("Back up the record and purge its subject.")});

    e.append({FindingCodes::sessionHashCollision(),
              Sev::Warning,
              Scope::Session,
              t("Client IDs {client_id} and {other_client_id} share the session hash {hash}"),
              t("two known client IDs share an 8-character hash"),
              {lt(F::sessionCollision(), {}, "2.11.15+, 2.12.6+, 2.14.0+")},
              t("2.9-2.11.14: the second client silently takes over the first one's session; 2.11.15+: CONNACK rc=2"),
              {},
              {},
              t("Give one of the clients a new client ID.")});

    e.append({FindingCodes::sessionMissingConsumer(),
              Sev::Error,
              Scope::Session,
              t("Consumer {consumer} of session {client_id} does not exist"),
              t("a record's cons[*] or pubrel durable does not exist"),
              {},
              t("QoS1/QoS2 delivery to that subscription silently stops (nats-server #6989)"),
              R::createConsumer(),
              {},
              t("Recreate the durable from the record's own consumer config.")});

    e.append({FindingCodes::orphanConsumer(),
              Sev::Warning,
              Scope::Stream,
              t("Consumer {consumer} on {stream} belongs to no session"),
              t("a <hash>_* durable on $MQTT_msgs or $MQTT_PUBREL_<hash> on $MQTT_out that no record references"),
              {},
              t("interest retention keeps every message it has not acknowledged: $MQTT_msgs never shrinks (nats-server #3116)"),
              R::deleteConsumer(),
              {},
              t("Delete the consumer (look at its pending count first).")});

    e.append({FindingCodes::sessionStale(),
              Sev::Info,
              Scope::Session,
              t("Session {client_id} not connected and not written for {age}"),
              t("a persistent session not connected and not written for longer than a threshold"),
              {},
              t("consumers and queued messages pile up"),
              R::deleteSession(),
              {},
              t("Delete the session (record and consumers) after backing it up, if the client is gone.")});

    e.append({FindingCodes::duplicateSessionRecords(),
              Sev::Error,
              Scope::Session,
              t("{count} records on session subject {subject}"),
              t("more than one message per session subject"),
              {},
              t("erratic last-by-subject reads: sessions look lost or come back stale"),
              R::updateStream(),
              {},
              t("Part of the STREAM_CONFIG_WRONG repair: setting max_msgs_per_subject to 1 keeps only the newest record.")});

    e.append({FindingCodes::qos2Orphaned(),
              Sev::Error,
              Scope::Session,
              t("{count} QoS 2 records on {stream} of session {owner}, which no longer exists"),
              t("records in $MQTT_qos2in (QoS 2 PUBLISH waiting for PUBREL) or $MQTT_out (PUBREL waiting for PUBCOMP) whose "
                "session has no record in $MQTT_sess"),
              {},
              t("a client that reuses the client ID and a packet ID gets the old stored message delivered on its PUBREL, and its "
                "new one is dropped as a duplicate; the records are never removed"),
              R::deleteQos2Records(),
              {},
              t("Back the records up and delete them by sequence (the session they belonged to is gone).")});
    e.append({FindingCodes::clientIdTakeover(),
              Sev::Warning,
              Scope::Session,
              t("Client ID {client_id} was replaced {count} times within {window}"),
              t("an MQTT client ID whose connections the servers closed with \"Duplicate Client ID\" more than 3 times within 5 "
                "minutes (their recently closed connections)"),
              {lt(F::replacingOldClient()), lt(F::remoteTakeover())},
              t("two devices with one client ID close each other's connection at every CONNECT: both reconnect in a loop, "
                "the session record is rewritten at each CONNECT, messages go to whichever is connected"),
              {},
              {},
              t("Give each device its own client ID (the addresses say which devices share it); `events --client ID` "
                "follows the takeovers live.")});

    e.append({FindingCodes::consumerStuck(),
              Sev::Error,
              Scope::Session,
              t("Durable of connected session {client_id} delivers without acknowledgements"),
              t("a connected session's durable on $MQTT_msgs whose deliveries advance between two samples while its ack floor "
                "does not, or that sits at its max_ack_pending with redeliveries (nats-server #5282)"),
              {},
              t("the client is connected but receives nothing new: the durable's delivered sequence rises, its ack floor stays "
                "(often at 0), its unacknowledged count reaches max_ack_pending and only redeliveries follow"),
              R::deleteSession(),
              {},
              t("Reset the session: back up, then delete its record and durables so that the next CONNECT starts clean; the "
                "client loses its queued messages and must subscribe again.")});
    e.append({FindingCodes::sessionDurableReplaced(),
              Sev::Error,
              Scope::Session,
              t("Session {client_id} names durable {consumer}, but its subscription's durable is now {live}"),
              t("a record names a durable that does not exist while a durable of the same hash, stream and filter that no "
                "record names does (nats-server #6989)"),
              {},
              t("the client stops receiving on that subscription after a reconnect; the live durable keeps collecting (and "
                "pinning) its messages"),
              R::adoptDurable(),
              {R::createConsumer()},
              t("Point the record at the live durable (backed up first): its pending messages are kept and delivered when the "
                "client reconnects.")});
    e.append({FindingCodes::interestPinned(),
              Sev::Warning,
              Scope::Session,
              t("Offline session {client_id} pins messages in $MQTT_msgs"),
              t("a session whose client is not connected and whose durables hold more messages than a threshold "
                "(interest retention keeps them; nats-server #6867, #3116)"),
              {},
              t("$MQTT_msgs (or $MQTT_out) keeps growing although every connected client acknowledges"),
              R::deleteSession(),
              {},
              t("`pinned` lists who holds how much. Delete the sessions of devices that are gone (backed up first); a device "
                "that comes back gets its messages then.")});
    e.append({FindingCodes::jetStreamApiErrors(),
              Sev::Warning,
              Scope::Account,
              t("JetStream API errors are growing in account {account}"),
              t("the account's JetStream API error replies (JSZ api.errors) grew faster than a threshold between two samples"),
              {lt(F::requestTimeoutOld(), {}, "2.9.10-2.10.7"), lt(F::requestTimeout(), {}, "2.10.8+"),
               lt(F::persistSession(), F::errTimeout()), lt(F::addSubscriptionConsumer(), F::errTimeout())},
              t("MQTT connects and subscribes take seconds or fail; only a restart seemed to help (nats-server #6191)"),
              {},
              {},
              t("Read the request type of the servers' timeout lines; reduce the consumer count or raise mqtt { js_api_timeout } "
                "(2.11.3+), and check the JetStream meta leader's health.")});
    e.append({FindingCodes::serverVersionAdvisory(),
              Sev::Info,
              Scope::Cluster,
              t("{advisory}: {symptom} ({servers})"),
              t("a server runs a version with a known MQTT defect that a later release fixes"),
              {},
              t("the defect's own symptom (each advisory names it)"),
              {},
              {},
              t("Upgrade the servers named to a release that has the fix (the finding lists the fixed-in version of each line).")});
    e.append({FindingCodes::jetStreamMetaDegraded(),
              Sev::Warning,
              Scope::Cluster,
              t("The JetStream meta group lacks {missing}, which answer(s) as up"),
              t("a server that is up is not a current member of the JetStream meta group (JetStream off, never joined, or "
                "listed offline by the meta leader)"),
              {lt(F::createSessionsStream(), F::errNoSuitablePeers()), lt(F::createMessagesStream(), F::errNoSuitablePeers()),
               lt(F::createRetainedStream(), F::errNoSuitablePeers())},
              t("new MQTT accounts fail to connect with \"no suitable peers for placement (10005)\" although every server is up: "
                "the servers ask for as many replicas as the cluster has routes (at most 3), and JetStream can place them "
                "only on meta group members"),
              {},
              {},
              t("Enable JetStream on the server (or let it rejoin: check its JetStream log and store directory), or set "
                "mqtt { stream_replicas } to the number of JetStream servers.")});
    e.append({FindingCodes::deliberateDeviation(),
              Sev::Info,
              Scope::Stream,
              t("$MQTT_rmsgs deviates from the servers' config on purpose ({deviations})"),
              t("a setting of $MQTT_rmsgs operators choose on purpose: allow_direct, memory storage, sources or subject "
                "transforms"),
              {},
              t("none while it is meant; with memory storage the retained messages are gone after the servers restart"),
              R::recreateStream(),
              {},
              t("Nothing to do when it was meant. Memory storage can be undone with `repair --finding DELIBERATE_DEVIATION` "
                "(backup, recreate on file, restore); the other settings with a stream edit."),
              true});
    e.append(
        {FindingCodes::upgradeClientIdRefused(),
         Sev::Warning,
         Scope::Session,
         t("Client ID {client_id} will be refused from {version}: {reason}"),
         t("with --target-version: a client ID of a session record or a connected client that the target version refuses "
           "with CONNACK 0x02 (space, tab, '.', '*', '>', NUL, or a client ID whose hash another record holds)"),
         {lt(F::invalidClientIdCharacter(), {}, "2.11.15+, 2.12.6+, 2.14.0+"), lt(F::invalidUtf8(), {}, "2.11.15+, 2.12.6+, 2.14.0+"),
          lt(F::invalidNullCharacter(), {}, "2.11.15+, 2.12.6+, 2.14.0+"), lt(F::sessionCollision(), {}, "2.11.15+, 2.12.6+, 2.14.0+")},
         t("after the upgrade the client cannot connect at all (CONNACK 0x02, identifier rejected) and its session is "
           "unreachable"),
         {},
         {},
         t("Give the client a client ID without those characters before upgrading; its old session stays behind "
           "(delete it once the client uses its new ID).")});
    e.append({FindingCodes::upgradeRetainedSkipped(),
              Sev::Warning,
              Scope::Stream,
              t("Retained topic {topic} will be skipped or refused from {version}"),
              t("with --target-version: a retained message whose topic holds characters the target version skips when it "
                "loads retained messages or refuses on PUBLISH (whitespace such as tab, CR, LF, form feed, or 0x7f)"),
              {lt(F::topicCharacterUnsupported(), {}, "2.12.9+, 2.14.1+"), lt(F::retainedSkippedDelCharacter(), {}, "2.14.0+")},
              t("subscribers no longer receive that retained message; publishers of that topic are disconnected"),
              {},
              {},
              t("Republish the retained message under a topic without those characters (and clear the old one) before "
                "upgrading.")});
    e.append({FindingCodes::upgradePayloadTooLarge(),
              Sev::Warning,
              Scope::Stream,
              t("Retained message on {topic} ({bytes} bytes) exceeds max_payload {max_payload}"),
              t("with --target-version: a retained payload larger than the servers' max_payload, which newer servers "
                "enforce on MQTT PUBLISH"),
              {},
              t("the publisher of that topic is disconnected when it publishes it again; the stored one is still delivered"),
              {},
              {},
              t("Raise max_payload on the servers, or make the publisher send smaller payloads, before upgrading.")});
    e.append({FindingCodes::upgradeInternalSubscription(),
              Sev::Warning,
              Scope::Session,
              t("Session {client_id} subscribes to the internal subject {filter}"),
              t("a session record holds a subscription to an internal $MQTT. subject (MQTT topic $MQTT/...), which newer "
                "servers refuse and the security fixes stop serving"),
              {},
              t("the subscription is refused (SUBACK 0x80) or gets nothing after the upgrade; before it, it may see other "
                "clients' internal traffic"),
              {},
              {},
              t("Find out why the client subscribes to $MQTT/... and change the client; `repair --finding SESSION_STALE` or "
                "the session view deletes a session the client no longer needs.")});

    return e;
}

} // namespace

QString FindingCatalogue::LogTemplate::text() const
{
    if (cause.isEmpty())
        return format;
    const qsizetype v = format.lastIndexOf(QLatin1String("%v"));
    const qsizetype w = format.lastIndexOf(QLatin1String("%w"));
    const qsizetype at = qMax(v, w);
    if (at < 0)
        return format;
    QString out = format;
    out.replace(at, 2, cause);
    return out;
}

QStringList FindingCatalogue::Entry::explainTexts() const
{
    QStringList out;
    for (const LogTemplate &l : explains)
        out.append(l.text());
    return out;
}

const QList<FindingCatalogue::Entry> &FindingCatalogue::entries()
{
    static const QList<Entry> all = buildEntries();
    return all;
}

const FindingCatalogue::Entry *FindingCatalogue::entry(const QString &code)
{
    // A check of 100,000 sessions makes a finding per missing durable: looked up by hash, not by scan.
    static const QHash<QString, const Entry *> byCode = [] {
        QHash<QString, const Entry *> index;
        for (const Entry &e : entries())
            index.insert(e.code, &e);
        return index;
    }();
    return byCode.value(code, nullptr);
}

QStringList FindingCatalogue::codes()
{
    QStringList out;
    for (const Entry &e : entries())
        out.append(e.code);
    return out;
}

namespace {

// `text` with each {key} that `lookup` knows replaced, in one pass (unknown keys stay as they are).
template<typename Lookup>
QString fillTemplate(const QString &text, const Lookup &lookup)
{
    QString out;
    out.reserve(text.size() + 64);
    qsizetype from = 0;
    for (;;) {
        const qsizetype open = text.indexOf(u'{', from);
        const qsizetype close = open < 0 ? -1 : text.indexOf(u'}', open + 1);
        if (close < 0) {
            out += QStringView(text).sliced(from);
            return out;
        }
        out += QStringView(text).sliced(from, open - from);
        if (const std::optional<QString> value = lookup(QStringView(text).sliced(open + 1, close - open - 1)))
            out += *value;
        else
            out += QStringView(text).sliced(open, close - open + 1);
        from = close + 1;
    }
}

} // namespace

QString FindingCatalogue::title(const QString &code, const QHash<QString, QString> &values)
{
    const Entry *e = entry(code);
    if (!e)
        return code;
    return fillTemplate(e->titleTemplate, [&values](QStringView key) -> std::optional<QString> {
        const auto it = values.constFind(key.toString());
        return it == values.cend() ? std::nullopt : std::optional<QString>(*it);
    });
}

namespace {

// The catalogue's defaults of `e` (severity, detail, explains, repair) on `f`.
void applyDefaults(Finding &f, const FindingCatalogue::Entry &e)
{
    f.severity = e.severity;
    f.detail = e.detects;
    // Made once per code and shared by every finding of it.
    static const QHash<const FindingCatalogue::Entry *, QStringList> explainTexts = [] {
        QHash<const FindingCatalogue::Entry *, QStringList> texts;
        for (const FindingCatalogue::Entry &entry : FindingCatalogue::entries())
            texts.insert(&entry, entry.explainTexts());
        return texts;
    }();
    f.explains = explainTexts.value(&e);
    f.repair = e.repair;
}

// make() with `value(key)` as the values' lookup (nullopt: not given).
template<typename Lookup>
Finding makeFinding(const QString &code, const QString &account, const QString &stream, const Lookup &value)
{
    Finding f;
    f.code = code;
    f.account = account;
    f.stream = stream;
    f.subject = value(u"subject").value_or(QString());
    f.clientId = value(u"client_id").value_or(QString());
    const FindingCatalogue::Entry *e = FindingCatalogue::entry(code);
    if (!e)
        return f;
    // {account} is the account; {stream} the stream when one is given (else a "stream" value, if any).
    f.title = fillTemplate(e->titleTemplate, [&](QStringView key) -> std::optional<QString> {
        if (key == u"account")
            return account;
        if (key == u"stream") {
            const std::optional<QString> given = value(key);
            return !stream.isEmpty() || !given ? stream : *given;
        }
        return value(key);
    });
    applyDefaults(f, *e);
    return f;
}

} // namespace

Finding FindingCatalogue::make(const QString &code, const QString &account, const QString &stream, const QHash<QString, QString> &values)
{
    return makeFinding(code, account, stream, [&values](QStringView key) -> std::optional<QString> {
        const auto it = values.constFind(key.toString());
        return it == values.cend() ? std::nullopt : std::optional<QString>(*it);
    });
}

Finding FindingCatalogue::make(const QString &code, const QString &account, const QString &stream, std::span<const Value> values)
{
    return makeFinding(code, account, stream, [values](QStringView key) -> std::optional<QString> {
        for (const Value &v : values)
            if (v.first == key)
                return v.second;
        return std::nullopt;
    });
}

Finding FindingCatalogue::makeUntitled(const QString &code, const QString &account, const QString &stream)
{
    Finding f;
    f.code = code;
    f.account = account;
    f.stream = stream;
    if (const Entry *e = entry(code))
        applyDefaults(f, *e);
    return f;
}

FindingPattern FindingCatalogue::titlePattern(const QString &code, const QStringList &keys)
{
    const Entry *e = entry(code);
    return e ? FindingPattern(e->titleTemplate, keys) : FindingPattern();
}

QString FindingCatalogue::scopeName(Scope scope)
{
    switch (scope) {
    case Scope::Cluster: return QStringLiteral("cluster");
    case Scope::Account: return QStringLiteral("account");
    case Scope::Stream: return QStringLiteral("stream");
    case Scope::Session: return QStringLiteral("session");
    }
    return QStringLiteral("account");
}

bool FindingCatalogue::repairOnlyWhenSelected(const QString &code)
{
    const Entry *e = entry(code);
    return e && e->repairOnlyWhenSelected;
}

QString FindingCatalogue::severityRule(const QString &code)
{
    static const QHash<QString, QString> rules{
        {FindingCodes::jetStreamDisabled(),
         t("info when nothing shows that the account serves MQTT (no MQTT stream, no stream capturing $MQTT. subjects)")},
        {FindingCodes::streamMissing(),
         t("critical for $MQTT_sess; info when the account has no MQTT stream yet, or only the two streams a 2.10+ server adds "
           "are missing (the servers create them); not reported for a stream that a blocker keeps from being created (the "
           "blocker's finding names it)")},
        {FindingCodes::streamSubjectsWrong(),
         t("critical when no stream captures the session subjects; warning when the expected subjects are still captured")},
        {FindingCodes::streamConfigWrong(),
         t("the most severe of its fields: retention, max_msgs_per_subject and QoS2 discard are "
           "errors, memory storage and the other fields warnings")},
        {FindingCodes::subjectsOverlap(),
         t("warning when both streams exist, or when only an upgrade to 2.10+ would be blocked; one finding per other stream names "
           "every MQTT stream it blocks")},
        {FindingCodes::streamLimitHeadroom(), t("warning when only an upgrade to 2.10+ would hit the limit, or storage is nearly full")},
        {FindingCodes::replicasMismatch(),
         t("critical when mqtt.stream_replicas keeps missing streams from being created; error with more replicas than "
           "JetStream servers; info with more replicas than expected")},
        {FindingCodes::streamUnhealthy(), t("critical for $MQTT_sess without a leader, error for another stream without one")},
        {FindingCodes::retainedLegacyLayout(),
         t("warning with more retained messages than the migration can move in time, or on 2.10.0-2.10.5 servers")},
        {FindingCodes::retainedConsumerMissing(),
         t("warning when every server named runs a version before 2.12.3 (they still deliver their own clients' retained "
           "messages); without a system connection it is raised only when a connected MQTT client shows that a server set up "
           "MQTT, and cannot name the servers; not raised while a replica of $MQTT_rmsgs is offline")},
        {FindingCodes::legacySessionStreams(), t("info when the server that creates $MQTT_sess will move the record")},
        {FindingCodes::sessionStale(), t("warning when its durables hold queued messages")},
        {FindingCodes::orphanConsumer(), t("stays a warning without a system connection, and says so")},
        {FindingCodes::qos2Orphaned(), t("warning for PUBREL records in $MQTT_out (they only hold storage)")},
        {FindingCodes::consumerStuck(),
         t("only while the client is connected (CONNZ); the comparison of two samples runs with check "
           "--watch, --sample-interval and the application's auto-refresh")},
        {FindingCodes::sessionDurableReplaced(),
         t("replaces the SESSION_MISSING_CONSUMER and ORPHAN_CONSUMER findings of the two durables")},
        {FindingCodes::interestPinned(), t("only for sessions whose client is known not to be connected (CONNZ)")},
        {FindingCodes::jetStreamApiErrors(), t("only when two samples of the same servers' counters are compared")},
        {FindingCodes::jetStreamMetaDegraded(), t("error when the meta group has no leader")},
    };
    static const QString capped = t("In an account where nothing shows that it serves MQTT, nothing is above warning.");
    const QString rule = rules.value(code);
    const Entry *e = entry(code);
    if (!e || e->scope == Scope::Session || e->scope == Scope::Cluster)
        return rule;
    return rule.isEmpty() ? capped : rule + QStringLiteral(". ") + capped;
}

} // namespace MqttDoctor
