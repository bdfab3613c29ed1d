// Record-level checks (docs/findings.md): the session records of `$MQTT_sess` against their hashes, their
// durables on `$MQTT_msgs`/`$MQTT_out`, the connected clients and each other.

#include "sessionchecks.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QHash>
#include <QMap>
#include <QSet>

#include <algorithm>

#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/consumerowner.h"
#include "diagnosis/durablereplacement.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/missingconsumerfindings.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor::Checks {

namespace {

using Sev = Finding::Severity;

/** More duplicate subjects than this are summed up in one finding. */
constexpr int maxDuplicateFindings = 25;

QString sessStream()
{
    return MqttLayout::sessionsStream();
}

// Whether a decoded record's id hashes to its subject token: the loader's answer when it gave one (one
// SHA-256 per record, made while decoding), else computed here.
bool idMatchesHash(const SessionEntry &e)
{
    return e.idMatchesHash ? *e.idMatchesHash : ClientIdHash::hashEquals(e.clientId, e.hash);
}

void checkUndecodable(const SessionCheckInput &in, QList<Finding> &out)
{
    for (const SessionEntry &e : in.sessions) {
        if (e.record)
            continue;
        Finding f =
            FindingCatalogue::make(FindingCodes::sessionUndecodable(), in.account, sessStream(), {{QStringLiteral("subject"), e.subject}});
        QString reason;
        for (const QString &p : e.otherProblems)
            if (p.startsWith(QLatin1String("undecodable: ")))
                reason = p.mid(13);
        f.detail = QStringLiteral("The record at sequence %1 on %2 (written %3) cannot be decoded: %4. The server fails every "
                                  "CONNECT of the client whose ID hashes to %5 with \"unmarshal of session record at sequence %1 "
                                  "...\"; other clients are not affected.")
                       .arg(e.seq)
                       .arg(e.subject, e.time.toString(Qt::ISODate), reason.isEmpty() ? QStringLiteral("unknown reason") : reason, e.hash);
        f.expected = QStringLiteral("a session record (JSON object with id, subs, cons)");
        f.actual = QJsonObject{{QStringLiteral("seq"), qint64(e.seq)}, {QStringLiteral("error"), reason}};
        out.append(std::move(f));
    }
}

void checkIdMismatch(const SessionCheckInput &in, QList<Finding> &out)
{
    for (const SessionEntry &e : in.sessions) {
        if (!e.record || e.clientId.isEmpty() || idMatchesHash(e))
            continue;
        const QString idHash = ClientIdHash::hash(e.clientId);
        Finding f = FindingCatalogue::make(FindingCodes::sessionIdMismatch(), in.account, sessStream(),
                                           {{QStringLiteral("subject"), e.subject}, {QStringLiteral("client_id"), e.clientId}});
        f.detail = QStringLiteral("The record on %1 (sequence %2) says it belongs to \"%3\", whose hash is %4, not %5. The client "
                                  "whose ID hashes to %5 is refused by 2.11.15+ servers (CONNACK 2, \"stored session does not "
                                  "match client ID\"); older servers hand it this foreign session.")
                       .arg(e.subject)
                       .arg(e.seq)
                       .arg(e.clientId, idHash, e.hash);
        f.expected = QJsonObject{{QStringLiteral("hash"), e.hash}};
        f.actual = QJsonObject{{QStringLiteral("id"), e.clientId}, {QStringLiteral("hash"), idHash}};
        out.append(std::move(f));
    }
}

void checkCollisions(const SessionCheckInput &in, const CheckOptions &options, QList<Finding> &out)
{
    // First only which hashes two client IDs share (a hundred thousand sessions, usually none), then
    // where each ID of those hashes is known from. A record whose id hashes to its subject is known under
    // that subject's token without hashing again; records are one per subject, so those never collide
    // with each other: only the other IDs (foreign records, connected clients, the operator's) are hashed.
    const bool othersKnown = (in.connected && !in.connected->isEmpty()) || !options.knownClientIds.isEmpty()
        || std::any_of(in.sessions.begin(), in.sessions.end(),
                       [](const SessionEntry &e) { return e.record && !e.clientId.isEmpty() && !idMatchesHash(e); });
    if (!othersKnown)
        return;
    QHash<QString, QString> firstId;
    firstId.reserve(in.sessions.size() + (in.connected ? in.connected->size() : 0) + options.knownClientIds.size());
    QSet<QString> colliding;
    const auto noteAs = [&](const QString &hash, const QString &id) {
        const auto it = firstId.constFind(hash);
        if (it == firstId.cend())
            firstId.insert(hash, id);
        else if (*it != id)
            colliding.insert(hash);
    };
    const auto note = [&](const QString &id) {
        if (!id.isEmpty())
            noteAs(ClientIdHash::hash(id), id);
    };
    for (const SessionEntry &e : in.sessions) {
        if (!e.record || e.clientId.isEmpty())
            continue;
        if (idMatchesHash(e))
            noteAs(e.hash, e.clientId);
        else
            note(e.clientId);
    }
    if (in.connected)
        for (auto it = in.connected->cbegin(); it != in.connected->cend(); ++it)
            note(it.key());
    for (const QString &id : options.knownClientIds)
        note(id);
    if (colliding.isEmpty())
        return;

    // hash -> client ID -> where it is known from
    QMap<QString, QMap<QString, QStringList>> known;
    const auto add = [&](const QString &id, const auto &where) {
        if (id.isEmpty())
            return;
        const QString hash = ClientIdHash::hash(id);
        if (colliding.contains(hash))
            known[hash][id] << where();
    };
    for (const SessionEntry &e : in.sessions)
        if (e.record)
            add(e.clientId, [&e] { return QStringLiteral("record on %1").arg(e.subject); });
    if (in.connected)
        for (auto it = in.connected->cbegin(); it != in.connected->cend(); ++it)
            add(it.key(), [&it] { return QStringLiteral("connected to %1").arg(it.value()); });
    for (const QString &id : options.knownClientIds)
        add(id, [] { return QStringLiteral("given by the operator"); });
    for (auto it = known.cbegin(); it != known.cend(); ++it) {
        if (it->size() < 2)
            continue;
        const QStringList ids = it->keys();
        Finding f = FindingCatalogue::make(FindingCodes::sessionHashCollision(), in.account, sessStream(),
                                           {{QStringLiteral("client_id"), ids.at(0)},
                                            {QStringLiteral("other_client_id"), ids.mid(1).join(QStringLiteral(", "))},
                                            {QStringLiteral("hash"), it.key()},
                                            {QStringLiteral("subject"), SessionLoader::sessionSubject(ids.at(0), QString())}});
        // The session subject carries the domain token of the records, when there is one.
        for (const SessionEntry &e : in.sessions)
            if (e.hash == it.key()) {
                f.subject = e.subject;
                break;
            }
        QJsonObject sources;
        for (auto id = it->cbegin(); id != it->cend(); ++id)
            sources.insert(id.key(), QJsonArray::fromStringList(id.value()));
        f.detail = QStringLiteral("Client IDs %1 all hash to %2 and so share one session record. 2.9 to 2.11.14 servers let each "
                                  "client take the other's session over silently (subscriptions, queued messages); 2.11.15+ "
                                  "refuse all but the record's owner with CONNACK 2 (\"stored session does not match client ID\").")
                       .arg(ids.join(QStringLiteral(", ")), it.key());
        f.expected = QStringLiteral("one client ID per hash");
        f.actual = sources;
        out.append(std::move(f));
    }
}

void checkOrphans(const SessionCheckInput &in, const QList<DurableReplacement> &replacements, const QSet<QString> &replaced,
                  QList<Finding> &out)
{
    // The rule is ConsumerOwner's, shared with the consumers view.
    QList<ConsumerOwner> orphans = in.owners ? *in.owners : ConsumerOwner::ofAccount(in, replacements);
    orphans.removeIf([&replaced](const ConsumerOwner &o) { return !o.isOrphan() || replaced.contains(o.name); });
    std::sort(orphans.begin(), orphans.end(), [](const ConsumerOwner &a, const ConsumerOwner &b) { return a.name < b.name; });
    for (const ConsumerOwner &o : std::as_const(orphans)) {
        Finding f = FindingCatalogue::make(FindingCodes::orphanConsumer(), in.account, o.stream, {{QStringLiteral("consumer"), o.name}});
        f.subject = o.filterSubject;
        f.detail = QStringLiteral("The durable %1 on %2 (filter %3) belongs to the session hash %4, but no session record references "
                                  "it. It holds %5 pending and %6 unacknowledged messages, and because %2 has interest retention "
                                  "every message matching its filter is kept until it is acknowledged, which no client will do.")
                       .arg(o.name, o.stream, f.subject.isEmpty() ? QStringLiteral("-") : f.subject, o.hash)
                       .arg(o.numPending)
                       .arg(o.numAckPending);
        if (o.connectedUnknown)
            f.detail += QStringLiteral(" (Connected clients unknown without a system connection: a connected clean-session "
                                       "client with this hash would own it; check before deleting.)");
        f.expected = QStringLiteral("referenced by a session record");
        f.actual = QJsonObject{{QStringLiteral("hash"), o.hash},
                               {QStringLiteral("num_pending"), o.numPending},
                               {QStringLiteral("num_ack_pending"), o.numAckPending}};
        out.append(std::move(f));
    }
}

void checkStale(const SessionCheckInput &in, const CheckOptions &options, QList<Finding> &out)
{
    if (!in.connected || !in.now.isValid() || options.staleAfterSecs <= 0)
        return;
    for (const SessionEntry &e : in.sessions) {
        if (!e.record || e.clean || e.clientId.isEmpty() || in.connected->contains(e.clientId) || !e.time.isValid())
            continue;
        if (!idMatchesHash(e))
            continue; // a foreign record is SESSION_ID_MISMATCH, not a session of its own
        const qint64 age = e.time.secsTo(in.now);
        if (age <= options.staleAfterSecs)
            continue;
        qint64 pending = 0;
        for (const SessionConsumer &c : e.consumers)
            if (c.exists)
                pending += c.pending();
        Finding f = FindingCatalogue::make(
            FindingCodes::sessionStale(), in.account, sessStream(),
            {{QStringLiteral("subject"), e.subject}, {QStringLiteral("client_id"), e.clientId}, {QStringLiteral("age"), formatAge(age)}});
        f.detail = QStringLiteral("Session \"%1\" was last written %2 (%3 ago) and its client is not connected. It keeps %4 "
                                  "durable(s) holding %5 queued message(s). If the device is gone for good, delete the session; "
                                  "if it will come back, leave it (it gets its queued messages then).")
                       .arg(e.clientId, e.time.toString(Qt::ISODate), formatAge(age))
                       .arg(e.consumers.size())
                       .arg(pending);
        if (pending > 0)
            f.severity = Sev::Warning;
        f.expected = QJsonObject{{QStringLiteral("max_age"), formatAge(options.staleAfterSecs)}};
        f.actual = QJsonObject{{QStringLiteral("age"), formatAge(age)},
                               {QStringLiteral("written"), e.time.toString(Qt::ISODate)},
                               {QStringLiteral("pending"), pending}};
        out.append(std::move(f));
    }
}

void checkDuplicates(const SessionCheckInput &in, QList<Finding> &out)
{
    if (!in.subjectCounts)
        return;
    QList<SubjectCount> dups;
    for (const SubjectCount &c : *in.subjectCounts)
        if (c.messages > 1)
            dups.append(c);
    std::sort(dups.begin(), dups.end(), [](const SubjectCount &a, const SubjectCount &b) {
        return a.messages != b.messages ? a.messages > b.messages : a.subject < b.subject;
    });
    QHash<QString, QString> idBySubject;
    for (const SessionEntry &e : in.sessions)
        if (e.record)
            idBySubject.insert(e.subject, e.clientId);
    for (int i = 0; i < dups.size() && i < maxDuplicateFindings; ++i) {
        const SubjectCount &c = dups.at(i);
        Finding f = FindingCatalogue::make(FindingCodes::duplicateSessionRecords(), in.account, sessStream(),
                                           {{QStringLiteral("subject"), c.subject},
                                            {QStringLiteral("client_id"), idBySubject.value(c.subject)},
                                            {QStringLiteral("count"), QString::number(c.messages)}});
        f.detail = QStringLiteral("%1 holds %2 records where the server expects one (max_msgs_per_subject 1): clears delete only the "
                                  "newest, so older records come back, and 2.9 servers' last-by-subject reads may return \"no "
                                  "message found\" for a session that exists.")
                       .arg(c.subject)
                       .arg(c.messages);
        f.expected = QJsonObject{{QStringLiteral("messages"), 1}};
        f.actual = QJsonObject{{QStringLiteral("messages"), qint64(c.messages)}};
        out.append(std::move(f));
    }
    if (dups.size() > maxDuplicateFindings) {
        quint64 extra = 0;
        for (qsizetype i = maxDuplicateFindings; i < dups.size(); ++i)
            extra += dups.at(i).messages;
        Finding f = FindingCatalogue::make(
            FindingCodes::duplicateSessionRecords(), in.account, sessStream(),
            {{QStringLiteral("subject"), QStringLiteral("$MQTT.sess.>")}, {QStringLiteral("count"), QString::number(extra)}});
        f.subject.clear();
        f.title = QStringLiteral("%1 more session subjects hold more than one record (%2 records)")
                      .arg(dups.size() - maxDuplicateFindings)
                      .arg(extra);
        f.detail =
            QStringLiteral("Besides the subjects listed, %1 more session subjects of %2 hold duplicates; the same repair fixes them all.")
                .arg(dups.size() - maxDuplicateFindings)
                .arg(sessStream());
        f.actual = QJsonObject{{QStringLiteral("subjects"), qint64(dups.size())}};
        out.append(std::move(f));
    }
}

void checkReplaced(const SessionCheckInput &in, const QList<DurableReplacement> &replacements, QList<Finding> &out)
{
    for (const DurableReplacement &r : replacements) {
        Finding f = FindingCatalogue::make(FindingCodes::sessionDurableReplaced(), in.account, r.stream,
                                           {{QStringLiteral("subject"), r.subject},
                                            {QStringLiteral("client_id"), r.clientId},
                                            {QStringLiteral("consumer"), r.recorded},
                                            {QStringLiteral("live"), r.live}});
        f.detail = QStringLiteral("The record of session \"%1\" on %2 (sequence %3) names the durable %4 for its subscription %5, "
                                  "which does not exist; the durable %6 on %7 has the same hash and filter (%8) and no record names "
                                  "it: the server made it for this subscription and the record kept the old name. The client "
                                  "receives nothing on %5 after its next reconnect, while %6 keeps its %9 pending and %10 "
                                  "unacknowledged message(s) in %7. Pointing the record at %6 keeps them; recreating %4 "
                                  "instead would start empty and leave %6 pinning messages.")
                       .arg(r.clientId, r.subject)
                       .arg(r.seq)
                       .arg(r.recorded, r.sid, r.live, r.stream, r.filterSubject.isEmpty() ? QStringLiteral("-") : r.filterSubject)
                       .arg(r.livePending)
                       .arg(r.liveAckPending);
        f.expected = QJsonObject{{QStringLiteral("consumer"), r.recorded}, {QStringLiteral("stream"), r.stream}};
        f.actual = QJsonObject{{QStringLiteral("recorded"), QStringLiteral("missing")},
                               {QStringLiteral("live"), r.live},
                               {QStringLiteral("filter_subject"), r.filterSubject},
                               {QStringLiteral("num_pending"), r.livePending},
                               {QStringLiteral("num_ack_pending"), r.liveAckPending}};
        out.append(std::move(f));
    }
}

} // namespace

QList<Finding> checkSessions(const SessionCheckInput &input, const CheckOptions &options, MissingConsumerFindings *apart)
{
    QList<Finding> out;
    checkUndecodable(input, out);
    checkIdMismatch(input, out);
    checkCollisions(input, options, out);
    // Made in their order, after what the checks above found (a few at most): a hundred thousand of
    // them are not moved by the sort, which only checks that they are in order. A durable another one
    // replaced is reported with its replacement (SESSION_DURABLE_REPLACED), not as missing.
    const QList<DurableReplacement> replacements = DurableReplacement::ofAccount(input);
    const QSet<QString> replaced = DurableReplacement::namesOf(replacements);
    MissingConsumerFindings missing(input, replaced);
    if (apart)
        *apart = std::move(missing);
    else
        missing.appendTo(out);
    checkOrphans(input, replacements, replaced, out);
    checkReplaced(input, replacements, out);
    checkStale(input, options, out);
    checkDuplicates(input, out);
    sortFindings(out);
    return out;
}

QList<Finding> checkSessions(const SessionCheckInput &input, const CheckOptions &options)
{
    return checkSessions(input, options, nullptr);
}

} // namespace MqttDoctor::Checks
