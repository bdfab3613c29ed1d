#include "operatorplanner.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/serverversion.h"
#include "nats/jetstreamclient.h"

namespace MqttDoctor::OperatorPlanner {

namespace {

const QString kOperator = QStringLiteral("OPERATOR");

/** "1 durable", "3 durables". */
QString counted(qint64 n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

/** The servers' kick request (`$SYS.REQ.SERVER.<id>.KICK`) exists from 2.10.0 on; 2.9 has none. */
bool hasKick(const QString &version)
{
    auto v = ServerVersion::parse(version);
    return v && v->atLeast(2, 10, 0);
}

QString listenerText(const MqttProbeRequest &mqtt)
{
    QString s = QStringLiteral("%1:%2").arg(mqtt.host).arg(mqtt.port);
    if (!mqtt.user.isEmpty())
        s += QStringLiteral(" as %1").arg(mqtt.user);
    return s;
}

class Planner
{
public:
    Planner(const OperatorInput &in, const OperatorRequest &req) : m_in(in), m_req(req)
    {
        m_out.action = OperatorRequest::verbName(req.verb);
        m_out.plan.account = in.account;
    }

    OperatorPlan take() && { return std::move(m_out); }

    QString api(const QString &op) const { return JetStreamClient::apiSubject(m_in.apiDomain, op); }

    RepairStep step(const QString &action)
    {
        RepairStep s;
        s.id = QString::number(m_out.plan.steps.size() + 1);
        s.action = action;
        s.findingCode = kOperator;
        s.account = m_in.account;
        return s;
    }

    void leave(const QString &clientId, const QString &why, const QString &subject = {})
    {
        m_out.selection.left.append({clientId, {}, subject, why});
    }

    /** The open connections of `clientId` (empty when none or unknown). */
    QList<MqttConnection> connectionsOf(const QString &clientId) const
    {
        QList<MqttConnection> out;
        if (m_in.connections)
            for (const MqttConnection &c : *m_in.connections)
                if (c.clientId == clientId)
                    out << c;
        return out;
    }

    /**
     * The disconnect_client steps of `clientId`'s connections; false with `why` when one of them cannot be closed
     * (a 2.9 server or no system connection, and no MQTT listener for a takeover).
     */
    bool addDisconnects(const QString &clientId, const QList<MqttConnection> &conns, QString *why)
    {
        QList<RepairStep> steps;
        for (const MqttConnection &c : conns) {
            QString method;
            if (m_in.hasSystem && hasKick(c.serverVersion))
                method = QStringLiteral("kick");
            else if (m_in.mqtt)
                method = QStringLiteral("takeover");
            else {
                *why = m_in.hasSystem
                    ? QStringLiteral("connected to %1 (nats-server %2), which has no kick request (2.10.0 added it): add the "
                                     "account's MQTT user to the profile (mqtt_probe) to disconnect it by a takeover, restart "
                                     "that server, or stop the device")
                          .arg(c.serverName, c.serverVersion)
                    : QStringLiteral("connected to %1: closing a connection needs the system account's credentials (the "
                                     "servers' kick request) or the account's MQTT user in the profile (a takeover)")
                          .arg(c.serverName);
                return false;
            }
            RepairStep s = step(RepairActions::disconnectClient());
            s.clientId = clientId;
            s.params = QJsonObject{{QStringLiteral("client_id"), clientId},  {QStringLiteral("server_id"), c.serverId},
                                   {QStringLiteral("server"), c.serverName}, {QStringLiteral("cid"), qint64(c.cid)},
                                   {QStringLiteral("address"), c.address},   {QStringLiteral("method"), method}};
            if (method == QLatin1String("kick")) {
                s.requests = {RepairRequest{QStringLiteral("$SYS.REQ.SERVER.%1.KICK").arg(c.serverId),
                                            QJsonObject{{QStringLiteral("cid"), qint64(c.cid)}}}};
                s.description = QStringLiteral("Disconnect \"%1\" (connection %2 from %3 on %4) with the server's kick request")
                                    .arg(clientId)
                                    .arg(c.cid)
                                    .arg(c.address, c.serverName);
            } else {
                s.requests = {RepairRequest{QStringLiteral("mqtt://%1:%2").arg(m_in.mqtt->host).arg(m_in.mqtt->port),
                                            QJsonObject{{QStringLiteral("connect"), clientId},
                                                        {QStringLiteral("clean_session"), false},
                                                        {QStringLiteral("then"), QStringLiteral("disconnect")}}}};
                s.description = QStringLiteral("Disconnect \"%1\" (connection %2 from %3 on %4) by a takeover: connect with its client "
                                               "ID through %5 (its session is kept) and disconnect")
                                    .arg(clientId)
                                    .arg(c.cid)
                                    .arg(c.address, c.serverName, listenerText(*m_in.mqtt));
            }
            s.precondition =
                QStringLiteral("connection %1 of \"%2\" is still open on %3 (closed already: done)").arg(c.cid).arg(clientId, c.serverName);
            s.verification = QStringLiteral("CONNZ on %1 no longer lists connection %2").arg(c.serverName).arg(c.cid);
            s.undo = QStringLiteral("nothing to undo: a device with automatic reconnect connects again by itself");
            steps << s;
            m_out.plan.steps << s;
        }
        m_out.counts.connections += steps.size();
        return true;
    }

    void disconnect()
    {
        if (!m_in.connections) {
            m_out.notes << QStringLiteral("No server answered CONNZ: the connections of the clients are unknown, nothing can be closed.");
            for (const QString &id : m_req.clientIds)
                leave(id, QStringLiteral("connections unknown (no server answered CONNZ)"));
            return;
        }
        for (const QString &id : m_req.clientIds) {
            const QList<MqttConnection> conns = connectionsOf(id);
            if (conns.isEmpty()) {
                leave(id, QStringLiteral("not connected"));
                continue;
            }
            QString why;
            const qsizetype before = m_out.plan.steps.size();
            if (!addDisconnects(id, conns, &why)) {
                m_out.plan.steps.resize(before);
                leave(id, why);
                continue;
            }
            QStringList where;
            for (const MqttConnection &c : conns)
                where << QStringLiteral("%1 from %2").arg(c.serverName, c.address);
            m_out.selection.selected.append({id, {}, {}, where.join(QStringLiteral(", "))});
        }
        m_out.path = m_in.hasSystem ? QStringLiteral("the servers' kick request through the system account")
                                    : QStringLiteral("a takeover through the MQTT listener");
        m_out.notes << QStringLiteral("A device with automatic reconnect comes back at once; the result says whether it did.");
    }

    /** Whether `entry` is to go, and why not (`*why`) when it is selected but must stay. */
    bool sessionSelected(const SessionEntry &e, const QSet<QString> &ids) const
    {
        if (!e.clientId.isEmpty() && ids.contains(e.clientId))
            return true;
        return !m_req.policy.isEmpty() && m_req.policy.matches(e, m_in.now);
    }

    /** The connections of a session that is to go, or why it stays (connected, no way to close it). */
    bool clearToDelete(const SessionEntry &e, QString *why)
    {
        const QList<MqttConnection> conns = e.clientId.isEmpty() ? QList<MqttConnection>() : connectionsOf(e.clientId);
        const bool connected = !conns.isEmpty() || (e.connected && *e.connected);
        if (!connected)
            return true;
        const QString server = conns.isEmpty() ? e.server : conns.first().serverName;
        if (!m_req.disconnectFirst) {
            *why = QStringLiteral("connected to %1: disconnect it first (the disconnect-first option), or leave it").arg(server);
            return false;
        }
        if (conns.isEmpty()) {
            *why = QStringLiteral("connected to %1, but its connection is not listed by CONNZ: it cannot be closed").arg(server);
            return false;
        }
        const qsizetype before = m_out.plan.steps.size();
        const qint64 connsBefore = m_out.counts.connections;
        if (!addDisconnects(e.clientId, conns, why)) {
            m_out.plan.steps.resize(before);
            m_out.counts.connections = connsBefore;
            return false;
        }
        return true;
    }

    void deleteSessions()
    {
        if (!m_in.records) {
            m_out.notes << QStringLiteral("The session records were not read: nothing can be selected.");
            return;
        }
        const SessionCheckInput &r = *m_in.records;
        const QSet<QString> ids(m_req.clientIds.cbegin(), m_req.clientIds.cend());
        QSet<QString> found;
        QList<const SessionEntry *> going;
        for (const QList<SessionEntry> &batch : r.sessions.batches())
            for (const SessionEntry &e : batch) {
                if (!sessionSelected(e, ids))
                    continue;
                found.insert(e.clientId);
                QString why;
                if (!clearToDelete(e, &why)) {
                    leave(e.clientId, why, e.subject);
                    continue;
                }
                going << &e;
            }
        for (const QString &id : m_req.clientIds)
            if (!found.contains(id))
                leave(id, QStringLiteral("no session record"));
        if (!r.connected && !m_in.connections)
            m_out.notes << QStringLiteral("The connected clients are unknown (no server answered CONNZ): each step asks again right "
                                          "before it deletes and leaves a connected client's session alone.");
        planSessionBatches(going);
        m_out.path = QStringLiteral("JetStream requests through the account's own connection");
        if (m_in.mqtt && !going.isEmpty())
            m_out.notes << QStringLiteral("After each batch the tool connects once with each deleted client ID and a clean session "
                                          "through %1, so that a server holding the session in memory forgets it (otherwise "
                                          "its first reconnect is refused once: \"wrong last sequence: 0 (10071)\").")
                               .arg(listenerText(*m_in.mqtt));
        else if (!going.isEmpty())
            m_out.notes << QStringLiteral("A server that still holds a deleted session in memory (the client connected to it since it "
                                          "started) refuses that client's first reconnect once (\"unable to persist session ... wrong "
                                          "last sequence: 0 (10071)\"); its next attempt gets a new session. Add the account's MQTT "
                                          "user to the profile (mqtt_probe) and the tool makes the servers forget the sessions too.");
    }

    void planSessionBatches(const QList<const SessionEntry *> &going)
    {
        const SessionCheckInput &r = *m_in.records;
        // Durables another record (one that stays) references are kept: count references once.
        QSet<QString> goingSubjects;
        for (const SessionEntry *e : going)
            goingSubjects.insert(e->subject);
        QHash<QString, int> keptRefs;
        for (const QList<SessionEntry> &batch : r.sessions.batches())
            for (const SessionEntry &e : batch)
                if (!goingSubjects.contains(e.subject) && e.record)
                    for (const QString &n : e.record->durableNames())
                        keptRefs[n] += 1;
        QHash<QString, QList<const Qos2Records::Record *>> qos2ByHash;
        if (r.qos2Records)
            for (const Qos2Records::Record &q : r.qos2Records->records)
                qos2ByHash[q.hash].append(&q);
        const QList<RepairStep> disconnects = m_out.plan.steps;
        QStringList dependsOn;
        for (const RepairStep &d : disconnects)
            dependsOn << d.id;
        const int size = std::max(1, m_req.batchSize);
        for (qsizetype from = 0; from < going.size(); from += size) {
            RepairStep s = step(RepairActions::deleteSessions());
            s.stream = MqttLayout::sessionsStream();
            s.destructive = true;
            QJsonArray sessions, consumers, qos2;
            QStringList kept;
            qint64 queued = 0;
            const qsizetype to = std::min<qsizetype>(going.size(), from + size);
            for (qsizetype i = from; i < to; ++i) {
                const SessionEntry &e = *going.at(i);
                sessions.append(QJsonObject{{QStringLiteral("subject"), e.subject},
                                            {QStringLiteral("seq"), qint64(e.seq)},
                                            {QStringLiteral("client_id"), e.clientId},
                                            {QStringLiteral("hash"), e.hash}});
                s.requests << RepairRequest{api(QStringLiteral("STREAM.MSG.DELETE.") + MqttLayout::sessionsStream()),
                                            QJsonObject{{QStringLiteral("seq"), qint64(e.seq)}, {QStringLiteral("no_erase"), true}}};
                m_out.selection.selected.append({e.clientId, {}, e.subject, {}});
                for (const SessionConsumer &c : e.consumers) {
                    if (!c.exists || c.stream.isEmpty())
                        continue;
                    if (keptRefs.value(c.name) > 0) {
                        kept << QStringLiteral("%1 (another record references it)").arg(c.name);
                        continue;
                    }
                    consumers.append(QJsonObject{
                        {QStringLiteral("stream"), c.stream}, {QStringLiteral("name"), c.name}, {QStringLiteral("session"), e.subject}});
                    s.requests << RepairRequest{api(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(c.stream, c.name)), {}};
                    queued += c.pending();
                }
                for (const Qos2Records::Record *q : qos2ByHash.value(e.hash)) {
                    qos2.append(QJsonObject{{QStringLiteral("stream"), q->stream},
                                            {QStringLiteral("seq"), qint64(q->seq)},
                                            {QStringLiteral("session"), e.subject}});
                    s.requests << RepairRequest{api(QStringLiteral("STREAM.MSG.DELETE.") + q->stream),
                                                QJsonObject{{QStringLiteral("seq"), qint64(q->seq)}, {QStringLiteral("no_erase"), true}}};
                }
            }
            const qsizetype n = to - from;
            s.params = QJsonObject{{QStringLiteral("sessions"), sessions},
                                   {QStringLiteral("consumers"), consumers},
                                   {QStringLiteral("qos2"), qos2},
                                   {QStringLiteral("queued"), queued},
                                   {QStringLiteral("flush_through_mqtt"), m_in.mqtt.has_value()}};
            s.clientId = n == 1 ? going.at(from)->clientId : QString();
            s.subject = n == 1 ? going.at(from)->subject : QString();
            const QString what =
                QStringLiteral("%1 and %2; %3 their durables hold go with them")
                    .arg(counted(consumers.size(), "durable", "durables"), counted(qos2.size(), "QoS 2 record", "QoS 2 records"),
                         counted(queued, "queued message", "queued messages"));
            s.description = n == 1
                ? QStringLiteral("Delete the session \"%1\" (%2, sequence %3): its record, %4")
                      .arg(going.at(from)->clientId, going.at(from)->subject)
                      .arg(going.at(from)->seq)
                      .arg(what)
                : QStringLiteral("Delete sessions %1 to %2 of %3: %4 records, %5").arg(from + 1).arg(to).arg(going.size()).arg(n).arg(what);
            s.precondition = QStringLiteral("each record is still the planned sequence on its subject and its client is not connected "
                                            "(CONNZ right before); a session that changed or connected since the plan is left alone "
                                            "and said so");
            s.undo = QStringLiteral("restore the step's backup files (restore FILE --merge --allow-changes): the records, the "
                                    "durables' configs and the QoS 2 records; the queued messages the durables held are not in them");
            s.verification = QStringLiteral("STREAM.MSG.GET of each deleted sequence finds no message and CONSUMER.INFO of each "
                                            "deleted durable finds none");
            s.dependsOn = dependsOn;
            m_out.plan.steps << s;
            m_out.counts.sessions += n;
            m_out.counts.durables += consumers.size();
            m_out.counts.qos2Records += qos2.size();
            m_out.counts.queuedMessages += queued;
            if (!kept.isEmpty())
                m_out.notes << QStringLiteral("Kept: %1.").arg(kept.join(QStringLiteral(", ")));
        }
        if (going.isEmpty() && m_out.plan.steps.isEmpty())
            m_out.notes << QStringLiteral("Nothing matches: no session is deleted.");
    }

    void dropBacklog()
    {
        if (!m_in.records) {
            m_out.notes << QStringLiteral("The session records were not read: nothing can be selected.");
            return;
        }
        QHash<QString, const SessionEntry *> byId;
        for (const QList<SessionEntry> &batch : m_in.records->sessions.batches())
            for (const SessionEntry &e : batch)
                if (!e.clientId.isEmpty())
                    byId.insert(e.clientId, &e);
        for (const QString &id : m_req.clientIds) {
            const SessionEntry *e = byId.value(id);
            if (!e) {
                leave(id, QStringLiteral("no session record"));
                continue;
            }
            QList<const SessionConsumer *> durables;
            for (const SessionConsumer &c : e->consumers)
                if (c.exists && c.stream == MqttLayout::messagesStream() && !c.config.isEmpty())
                    durables << &c;
            if (durables.isEmpty()) {
                leave(id,
                      QStringLiteral("its session has no durable on %1 (no QoS 1/2 subscription): nothing is queued")
                          .arg(MqttLayout::messagesStream()),
                      e->subject);
                continue;
            }
            QString why;
            const qsizetype before = m_out.plan.steps.size();
            if (!clearToDelete(*e, &why)) {
                leave(id, why, e->subject);
                continue;
            }
            QStringList dependsOn;
            for (qsizetype i = before; i < m_out.plan.steps.size(); ++i)
                dependsOn << m_out.plan.steps.at(i).id;
            qint64 total = 0;
            for (const SessionConsumer *c : durables) {
                RepairStep s = step(RepairActions::dropBacklog());
                s.stream = c->stream;
                s.consumer = c->name;
                s.clientId = id;
                s.subject = e->subject;
                s.destructive = true;
                s.dependsOn = dependsOn;
                QJsonObject config = c->config;
                config.remove(QStringLiteral("opt_start_seq"));
                config.remove(QStringLiteral("opt_start_time"));
                config.insert(QStringLiteral("deliver_policy"), QStringLiteral("new"));
                s.requests = {RepairRequest{api(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(c->stream, c->name)), {}},
                              RepairRequest{api(QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(c->stream, c->name)),
                                            QJsonObject{{QStringLiteral("stream_name"), c->stream}, {QStringLiteral("config"), config}}}};
                RepairBackupSpec b;
                b.stream = c->stream;
                b.subject = c->config.value(QLatin1String("filter_subject")).toString();
                b.allConsumers = false;
                b.consumers = {c->name};
                s.backups = {b};
                s.params = QJsonObject{{QStringLiteral("client_id"), id},
                                       {QStringLiteral("session"), e->subject},
                                       {QStringLiteral("session_seq"), qint64(e->seq)},
                                       {QStringLiteral("config"), config},
                                       {QStringLiteral("pending"), c->pending()}};
                s.description = QStringLiteral("Drop the %1 of \"%2\" on %3 (durable %4): delete the durable and create it again "
                                               "with the same config from the end of %5, as the server itself creates it; messages "
                                               "other sessions wait for stay")
                                    .arg(counted(c->pending(), "queued message", "queued messages"), id,
                                         c->config.value(QLatin1String("filter_subject")).toString(), c->name, c->stream);
                s.precondition = QStringLiteral("%1 still exists, the record on %2 is still sequence %3 and \"%4\" is not connected")
                                     .arg(c->name, e->subject)
                                     .arg(e->seq)
                                     .arg(id);
                s.undo = QStringLiteral("restore the backup (restore FILE --merge --allow-changes) publishes the backed-up messages "
                                        "again: every session subscribed to them receives them again, not only this one");
                s.verification = QStringLiteral("%1 exists with the same config and holds nothing older than the drop").arg(c->name);
                m_out.plan.steps << s;
                total += c->pending();
                m_out.counts.durables += 1;
            }
            m_out.counts.sessions += 1;
            m_out.counts.queuedMessages += total;
            m_out.selection.selected.append({id, {}, e->subject, QStringLiteral("%1 queued").arg(total)});
        }
        m_out.path = QStringLiteral("JetStream requests through the account's own connection");
    }

    void clearRetained()
    {
        if (!m_in.retained) {
            m_out.notes << QStringLiteral("The retained messages were not read: nothing can be selected.");
            return;
        }
        // The versions of the servers decide whether a delete by sequence reaches clients.
        QStringList holdInMemory, cacheTwoMinutes;
        for (const ServerInfo &s : m_in.servers) {
            auto v = ServerVersion::parse(s.version);
            if (!v)
                continue;
            if (!v->atLeast(2, 10, 0))
                holdInMemory << QStringLiteral("%1 (%2)").arg(s.name, s.version);
            else if (!v->atLeast(2, 11, 0))
                cacheTwoMinutes << QStringLiteral("%1 (%2)").arg(s.name, s.version);
        }
        const bool throughMqtt = m_in.mqtt.has_value();
        if (!throughMqtt && !holdInMemory.isEmpty()) {
            m_out.notes << QStringLiteral("%1 keep every retained message in memory: deleting the record does not stop its delivery "
                                          "until they restart. Add the account's MQTT user to the profile (mqtt_probe): the tool "
                                          "then clears retained messages the MQTT way (an empty retained PUBLISH), which every "
                                          "version honours.")
                               .arg(holdInMemory.join(QStringLiteral(", ")));
            for (const QString &t : m_req.topics)
                m_out.selection.left.append({{}, t, {}, QStringLiteral("needs the MQTT listener on this cluster (2.9 servers)")});
            return;
        }
        QList<const RetainedEntry *> matched;
        QSet<QString> seenTopics;
        for (const QString &filter : m_req.topics) {
            int hits = 0;
            for (const RetainedEntry &e : *m_in.retained) {
                if (!e.record || e.record->isDeleteMarker || !RetainedLoader::topicMatches(filter, e.record->topic))
                    continue;
                ++hits;
                if (!seenTopics.contains(e.record->topic)) {
                    seenTopics.insert(e.record->topic);
                    matched << &e;
                }
            }
            if (hits == 0)
                m_out.selection.left.append({{}, filter, {}, QStringLiteral("no retained message on it")});
        }
        for (qsizetype from = 0; from < matched.size(); from += kRetainedPerStep) {
            const qsizetype to = std::min<qsizetype>(matched.size(), from + kRetainedPerStep);
            RepairStep s = step(RepairActions::clearRetained());
            s.stream = MqttLayout::retainedStream();
            s.destructive = true;
            QJsonArray items;
            QStringList topics;
            for (qsizetype i = from; i < to; ++i) {
                const RetainedEntry &e = *matched.at(i);
                items.append(QJsonObject{{QStringLiteral("topic"), e.record->topic},
                                         {QStringLiteral("seq"), qint64(e.seq)},
                                         {QStringLiteral("subject"), e.storedSubject}});
                topics << e.record->topic;
                m_out.selection.selected.append({{}, e.record->topic, e.storedSubject, {}});
                if (throughMqtt)
                    s.requests << RepairRequest{QStringLiteral("mqtt://%1:%2").arg(m_in.mqtt->host).arg(m_in.mqtt->port),
                                                QJsonObject{{QStringLiteral("publish"), e.record->topic},
                                                            {QStringLiteral("retain"), true},
                                                            {QStringLiteral("qos"), 1},
                                                            {QStringLiteral("payload_bytes"), 0}}};
                else
                    s.requests << RepairRequest{api(QStringLiteral("STREAM.MSG.DELETE.") + MqttLayout::retainedStream()),
                                                QJsonObject{{QStringLiteral("seq"), qint64(e.seq)}, {QStringLiteral("no_erase"), true}}};
            }
            s.params = QJsonObject{{QStringLiteral("messages"), items}, {QStringLiteral("through_mqtt"), throughMqtt}};
            s.subject = to - from == 1 ? matched.at(from)->storedSubject : QString();
            const QString cleared = counted(to - from, "retained message", "retained messages");
            s.description = throughMqtt
                ? QStringLiteral("Clear %1 (%2) the MQTT way: an empty retained PUBLISH on each topic through "
                                 "%3, which the servers turn into the delete")
                      .arg(cleared, abbreviated(topics), listenerText(*m_in.mqtt))
                : QStringLiteral("Delete %1 (%2) from %3 by sequence").arg(cleared, abbreviated(topics), MqttLayout::retainedStream());
            s.precondition = QStringLiteral("each message is still the planned sequence (one that was replaced since the plan is left "
                                            "alone and said so)");
            s.undo = QStringLiteral("restore the step's backup file (restore FILE --merge --allow-changes) puts the messages back");
            s.verification = throughMqtt ? QStringLiteral("no planned sequence is left on %1 and a new MQTT subscriber to each topic "
                                                          "gets no retained message")
                                               .arg(MqttLayout::retainedStream())
                                         : QStringLiteral("no planned sequence is left on %1").arg(MqttLayout::retainedStream());
            m_out.plan.steps << s;
            m_out.counts.retained += to - from;
        }
        m_out.path = throughMqtt ? QStringLiteral("an empty retained PUBLISH through the MQTT listener %1").arg(listenerText(*m_in.mqtt))
                                 : QStringLiteral("JetStream deletes by sequence through the account's own connection");
        if (!throughMqtt && !cacheTwoMinutes.isEmpty())
            m_out.notes << QStringLiteral("%1 cache retained messages for up to 2 minutes: a subscriber there may still get a cleared "
                                          "message until then. Add the account's MQTT user to the profile (mqtt_probe) to clear them "
                                          "the MQTT way.")
                               .arg(cacheTwoMinutes.join(QStringLiteral(", ")));
    }

    static QString abbreviated(const QStringList &items)
    {
        if (items.size() <= 3)
            return items.join(QStringLiteral(", "));
        return QStringLiteral("%1 and %2 more").arg(items.mid(0, 3).join(QStringLiteral(", "))).arg(items.size() - 3);
    }

private:
    const OperatorInput &m_in;
    const OperatorRequest &m_req;
    OperatorPlan m_out;
};

} // namespace

OperatorPlan plan(const OperatorInput &input, const OperatorRequest &request)
{
    Planner p(input, request);
    switch (request.verb) {
    case OperatorRequest::Verb::DeleteSessions: p.deleteSessions(); break;
    case OperatorRequest::Verb::Disconnect: p.disconnect(); break;
    case OperatorRequest::Verb::ClearRetained: p.clearRetained(); break;
    case OperatorRequest::Verb::DropBacklog: p.dropBacklog(); break;
    }
    return std::move(p).take();
}

} // namespace MqttDoctor::OperatorPlanner
