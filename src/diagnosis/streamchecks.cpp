#include "diagnosis/streamchecks.h"

#include <optional>

#include <QJsonArray>

#include "diagnosis/checkcontext.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/subjectoverlap.h"

namespace MqttDoctor {

StreamChecks::StreamChecks(const CheckContext &context) : m_ctx(context) {}

namespace R = RepairActions;
using Sev = Finding::Severity;

namespace {

/** What breaks while `name` is missing (after the servers set up MQTT for the account). */
QString missingEffect(const QString &name)
{
    if (name == MqttLayout::sessionsStream())
        return QStringLiteral("Servers that already set up MQTT for the account fail every MQTT connect (stream not found, 10059) "
                              "until it is recreated; every persistent session is gone.");
    if (name == MqttLayout::messagesStream())
        return QStringLiteral("QoS1/QoS2 subscriptions cannot get their consumers and QoS1 messages for offline sessions are "
                              "dropped; the consumers of restored sessions are gone.");
    if (name == MqttLayout::qos2InStream())
        return QStringLiteral("Incoming QoS2 messages cannot be stored until their PUBREL, so QoS2 publishes fail.");
    if (name == MqttLayout::outStream())
        return QStringLiteral("PUBREL records cannot be stored, so QoS2 delivery to subscribers fails.");
    return QStringLiteral("Retained messages cannot be stored (the store times out) and new subscribers get none.");
}

QStringList missingExplains(const QString &name)
{
    if (name == MqttLayout::sessionsStream())
        return {CheckContext::line(QStringLiteral("session.load_failed_old"), QStringLiteral("js:10059")),
                CheckContext::line(QStringLiteral("session.load_failed"), QStringLiteral("js:10059"))};
    if (name == MqttLayout::messagesStream())
        return {CheckContext::line(QStringLiteral("consumer.add_failed"), QStringLiteral("js:10059"))};
    if (name == MqttLayout::outStream())
        return {CheckContext::line(QStringLiteral("consumer.add_pubrel_failed"), QStringLiteral("js:10059"))};
    if (name == MqttLayout::retainedStream())
        return {CheckContext::line(QStringLiteral("retained.store_failed"), QStringLiteral("timeout:store"))};
    return {};
}

QStringList subjectsExplains(const QString &name)
{
    if (name == MqttLayout::sessionsStream())
        return {CheckContext::line(QStringLiteral("session.persist_failed"), QStringLiteral("timeout:store"))};
    if (name == MqttLayout::messagesStream())
        return {CheckContext::line(QStringLiteral("consumer.add_failed"), QStringLiteral("js:10093"))};
    if (name == MqttLayout::outStream())
        return {CheckContext::line(QStringLiteral("consumer.add_pubrel_failed"), QStringLiteral("js:10093"))};
    if (name == MqttLayout::retainedStream())
        return {CheckContext::line(QStringLiteral("asm.create_retained_consumer"), QStringLiteral("js:10093")),
                CheckContext::line(QStringLiteral("retained.store_failed"), QStringLiteral("timeout:store"))};
    return {};
}

/** Severity and a sentence for one differing config field of an MQTT stream. */
std::pair<Sev, QString> fieldImpact(const QString &stream, const MqttStreamSpec::Difference &d)
{
    const bool sess = stream == MqttLayout::sessionsStream();
    const bool qos2 = stream == MqttLayout::qos2InStream();
    const QString field = d.field;
    if (field == QLatin1String("retention")) {
        if (d.expected.toString() == QLatin1String("interest"))
            return {Sev::Error,
                    QStringLiteral("retention %1 instead of interest: messages are not removed once every consumer "
                                   "acknowledged them (or, with workqueue, overlapping MQTT consumers are refused).")
                        .arg(d.actual.toString())};
        return {Sev::Error,
                QStringLiteral("retention %1 instead of limits: records are removed when no consumer is interested, "
                               "so %2 are lost.")
                    .arg(d.actual.toString(), sess ? QStringLiteral("session records") : QStringLiteral("stored messages"))};
    }
    if (field == QLatin1String("storage"))
        return {Sev::Warning,
                QStringLiteral("storage %1 instead of file: the MQTT state is lost when the servers restart.").arg(d.actual.toString())};
    if (field == QLatin1String("max_msgs_per_subject")) {
        if (sess)
            return {Sev::Error,
                    QStringLiteral("max_msgs_per_subject %1 instead of 1: a cleared session leaves older records of the same "
                                   "client behind, and last-by-subject reads become erratic (sessions look lost or come back stale).")
                        .arg(d.actual.toInteger())};
        if (qos2)
            return {Sev::Error,
                    QStringLiteral("max_msgs_per_subject %1 instead of 1: duplicate QoS2 packet identifiers are no longer "
                                   "detected, so QoS2 messages can be delivered twice.")
                        .arg(d.actual.toInteger())};
        if (d.expected.toInteger() == 1)
            return {Sev::Error,
                    QStringLiteral("max_msgs_per_subject %1 instead of 1: older retained messages of a topic are kept and "
                                   "may be delivered instead of the newest.")
                        .arg(d.actual.toInteger())};
        return {Sev::Error,
                QStringLiteral("max_msgs_per_subject %1 instead of unlimited: messages queued for a topic beyond that "
                               "count are dropped.")
                    .arg(d.actual.toInteger())};
    }
    if (field == QLatin1String("discard")) {
        if (qos2)
            return {Sev::Error,
                    QStringLiteral("discard %1 instead of new: a repeated QoS2 packet identifier replaces the stored message "
                                   "instead of being detected as a duplicate.")
                        .arg(d.actual.toString())};
        return {
            Sev::Warning,
            QStringLiteral("discard %1 instead of old: once a stream limit is reached new records are refused.").arg(d.actual.toString())};
    }
    if (field == QLatin1String("discard_new_per_subject")) {
        if (qos2)
            return {Sev::Error,
                    QStringLiteral("discard_new_per_subject is off: a repeated QoS2 packet identifier replaces the stored "
                                   "message instead of being detected as a duplicate.")};
        return {Sev::Warning,
                QStringLiteral("discard_new_per_subject is on: a second record on a subject is refused instead of "
                               "replacing the first.")};
    }
    return {Sev::Warning, QStringLiteral("%1 differs.").arg(field)};
}

/**
 * The settings of `$MQTT_rmsgs` operators choose on purpose (a faster or memory-only retained store, a
 * retained set sourced from another account and transformed into this one's subjects): what each is and
 * why it is tolerated, as evidence. Empty when there is none.
 */
QList<std::pair<QString, QJsonValue>> retainedDeviationsOf(const QJsonObject &config, QStringList *reasons)
{
    QList<std::pair<QString, QJsonValue>> out;
    if (MqttStreamSpec::normalizedField(config, QStringLiteral("storage")).toString() == QLatin1String("memory")) {
        out.append({QStringLiteral("storage"), QStringLiteral("memory")});
        reasons->append(QStringLiteral("memory storage: retained messages are kept in memory only and are gone after the servers "
                                       "restart (chosen where retained state is republished by the devices anyway)"));
    }
    if (config.value(QLatin1String("allow_direct")).toBool(false)) {
        out.append({QStringLiteral("allow_direct"), true});
        reasons->append(QStringLiteral("allow_direct: other clients read retained messages with direct gets; the servers' MQTT code "
                                       "does not depend on it either way"));
    }
    const QJsonArray sources = config.value(QLatin1String("sources")).toArray();
    if (!sources.isEmpty()) {
        QStringList names;
        bool transformed = false;
        for (const QJsonValue &v : sources) {
            const QJsonObject src = v.toObject();
            const QString external = src.value(QLatin1String("external")).toObject().value(QLatin1String("api")).toString();
            names.append(src.value(QLatin1String("name")).toString()
                         + (external.isEmpty() ? QString() : QStringLiteral(" via ") + external));
            transformed = transformed || !src.value(QLatin1String("subject_transforms")).toArray().isEmpty();
        }
        out.append({QStringLiteral("sources"), QJsonArray::fromStringList(names)});
        reasons->append(QStringLiteral("sourced from %1%2: retained messages are shared from another stream or account, which "
                                       "servers from 2.11.12 / 2.12.3 / 2.14.0 support")
                            .arg(names.join(QStringLiteral(", ")), transformed ? QStringLiteral(" with subject transforms") : QString()));
    }
    const QJsonObject transform = config.value(QLatin1String("subject_transform")).toObject();
    if (!transform.isEmpty()) {
        out.append({QStringLiteral("subject_transform"), transform});
        reasons->append(QStringLiteral("subject transform %1 -> %2: the stored subjects are rewritten, and the servers take the topic "
                                       "from the stored subject")
                            .arg(transform.value(QLatin1String("src")).toString(), transform.value(QLatin1String("dest")).toString()));
    }
    return out;
}

/** The two known shapes of $MQTT_rmsgs are the retained checks' business (legacy layout, downgrade): not differences here. */
void dropKnownRetainedShapes(const CheckContext &ctx, const QStringList &actualSubjects, QList<MqttStreamSpec::Difference> &diffs)
{
    const bool legacyShape = MqttStreamSpec::sameSubjects(actualSubjects, {MqttLayout::retainedLegacySubject()});
    const bool modernShape = MqttStreamSpec::sameSubjects(actualSubjects, {MqttLayout::retainedSubjects()});
    const bool modernLayout = ctx.layout().kind() == MqttLayout::Kind::V2_10;
    if ((modernLayout && (legacyShape || modernShape)) || (!modernLayout && modernShape))
        diffs.removeIf([](const MqttStreamSpec::Difference &d) {
            return d.field == QLatin1String("subjects") || d.field == QLatin1String("max_msgs_per_subject");
        });
}

/**
 * DELIBERATE_DEVIATION: the deliberate settings of the retained stream `s`, info with the reason, repaired
 * only when selected. nullopt when it has none.
 */
std::optional<Finding> deliberateDeviation(const CheckContext &ctx, const StreamInfo &s)
{
    QStringList reasons;
    const auto deviations = retainedDeviationsOf(s.config, &reasons);
    if (deviations.isEmpty())
        return std::nullopt;
    QStringList what;
    QJsonObject actual;
    for (const auto &[field, value] : deviations) {
        what.append(field);
        actual.insert(field, value);
    }
    Finding f = FindingCatalogue::make(FindingCodes::deliberateDeviation(), ctx.account, s.name,
                                       {{QStringLiteral("deviations"), what.join(QStringLiteral(", "))}});
    f.actual = actual;
    f.expected = QJsonObject{{QStringLiteral("storage"), QStringLiteral("file")}, {QStringLiteral("allow_direct"), false}};
    const bool memory = actual.contains(QLatin1String("storage"));
    if (!memory)
        f.repair.clear();
    f.detail = QStringLiteral("Tolerated as deliberate, not an error: %1. %2")
                   .arg(reasons.join(QStringLiteral("; ")),
                        memory ? QStringLiteral("A plain repair leaves it alone; `repair --finding DELIBERATE_DEVIATION` backs the "
                                                "stream up and recreates it on file storage if it was not meant.")
                               : QStringLiteral("Nothing is repaired; undo it with a stream edit if it was not meant."));
    return f;
}

/**
 * STREAM_SUBJECTS_WRONG: the stream's subjects are not the ones the servers expect. A warning while they
 * still capture the expected ones; else what the servers can no longer store.
 */
Finding subjectsWrong(const CheckContext &ctx, const MqttStreamSpec &spec, const QStringList &actualSubjects)
{
    const QString &name = spec.name;
    bool covers = true;
    for (const QString &want : spec.subjects)
        covers = covers && subjectCoveredBy(want, actualSubjects);
    Finding f = FindingCatalogue::make(FindingCodes::streamSubjectsWrong(), ctx.account, name);
    f.expected = QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(spec.subjects)}};
    f.actual = QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(actualSubjects)}};
    f.explains = subjectsExplains(name);
    const QString head =
        QStringLiteral("%1 has subjects %2; the servers expect %3%4.")
            .arg(name, actualSubjects.join(QStringLiteral(", ")), spec.subjects.join(QStringLiteral(", ")),
                 name == MqttLayout::sessionsStream()
                     ? (ctx.layout().domain().isEmpty() ? QStringLiteral(" (no JetStream domain)")
                                                        : QStringLiteral(" (JetStream domain \"%1\")").arg(ctx.layout().domain()))
                     : QString());
    if (covers) {
        f.explains.clear(); // saves and consumers still work: no error line
        f.severity = Sev::Warning;
        f.detail = head
            + QStringLiteral(" The expected subjects are still captured, so MQTT works, but the stream captures more than "
                             "the servers use%1.")
                  .arg(name == MqttLayout::sessionsStream()
                           ? QStringLiteral(": records saved under another domain token (before a JetStream domain change) "
                                            "are no longer found, so those sessions look lost")
                           : QString());
    } else if (name == MqttLayout::sessionsStream()) {
        f.severity = Sev::Critical;
        f.detail = head
            + QStringLiteral(" No stream captures the session subjects: every session save waits 4-5 s and times out, "
                             "so MQTT connects of persistent sessions fail.");
    } else {
        f.severity = Sev::Error;
        f.detail = head + QStringLiteral(" Messages on the expected subjects are not stored. %1").arg(missingEffect(name));
    }
    return f;
}

/**
 * STREAM_CONFIG_WRONG: one finding for every other field of `s` that differs (`diffs`), as severe as the
 * worst of them; retention or storage can only be repaired by recreating the stream.
 */
Finding configWrong(const CheckContext &ctx, const StreamInfo &s, const QList<MqttStreamSpec::Difference> &diffs)
{
    const QString &name = s.name;
    Sev severity = Sev::Info;
    QStringList fields;
    QStringList sentences;
    QJsonObject expected;
    QJsonObject actual;
    bool recreate = false;
    for (const MqttStreamSpec::Difference &d : diffs) {
        const auto [sev, sentence] = fieldImpact(name, d);
        severity = CheckContext::maxSeverity(severity, sev);
        fields.append(d.field);
        sentences.append(sentence);
        expected.insert(d.field, d.expected);
        actual.insert(d.field, d.actual);
        recreate = recreate || d.field == QLatin1String("retention") || d.field == QLatin1String("storage");
    }
    Finding f = FindingCatalogue::make(FindingCodes::streamConfigWrong(), ctx.account, name,
                                       {{QStringLiteral("fields"), fields.join(QStringLiteral(", "))}});
    f.severity = severity;
    f.expected = expected;
    f.actual = actual;
    f.explains.clear();
    f.repair = recreate ? R::recreateStream() : R::updateStream();
    f.detail = sentences.join(QLatin1Char(' '));
    if (recreate)
        f.detail += QStringLiteral(" JetStream cannot change storage or retention of an existing stream: it must be backed up, "
                                   "deleted, recreated and restored.");
    if (name == MqttLayout::sessionsStream()) {
        const qint64 msgs = CheckContext::messagesOf(s);
        const qint64 subjects = s.state.value(QLatin1String("num_subjects")).toInteger(-1);
        if (subjects >= 0 && msgs > subjects) {
            f.detail += QStringLiteral(" The stream holds %1 records on %2 session subjects: duplicates are already there.")
                            .arg(msgs)
                            .arg(subjects);
            actual.insert(QStringLiteral("messages"), msgs);
            actual.insert(QStringLiteral("num_subjects"), subjects);
            f.actual = actual;
        }
    }
    return f;
}

} // namespace

void StreamChecks::missing(QList<Finding> &out) const
{
    const QStringList upgradeStreams{MqttLayout::qos2InStream(), MqttLayout::outStream()};
    QStringList sortedMissing = m_ctx.missing;
    sortedMissing.sort();
    const bool upgradePending = m_ctx.layout().kind() != MqttLayout::Kind::V2_9 && !m_ctx.present.isEmpty()
        && sortedMissing == QStringList{MqttLayout::outStream(), MqttLayout::qos2InStream()};

    for (const QString &name : m_ctx.missing) {
        // A stream that something keeps from being created is part of that blocker's finding (one cause,
        // one finding), whose repair also creates it.
        if (m_ctx.blocked.contains(name))
            continue;
        const MqttStreamSpec spec = *m_ctx.layout().stream(name);
        Finding f = FindingCatalogue::make(FindingCodes::streamMissing(), m_ctx.account, name);
        f.expected = spec.createConfig();
        f.actual = QJsonValue(QJsonValue::Null);
        f.explains = missingExplains(name);
        const AccountInfo &info = m_ctx.input->account;
        if (m_ctx.present.isEmpty() && info.readDomainKnown && !m_ctx.layout().domain().isEmpty()
            && info.readDomain != m_ctx.layout().domain()) {
            // Read in another JetStream domain than the one the MQTT servers keep their state in (a hub
            // read without the leaf's domain): absent here says nothing about the MQTT state.
            f.explains.clear();
            f.severity = Sev::Warning;
            f.detail = QStringLiteral("No MQTT stream exists in account \"%1\" in %2, the JetStream domain this connection reads, but "
                                      "the servers with an MQTT listener keep the account's MQTT state in domain \"%3\": its streams "
                                      "and sessions were not looked at. Check again with --js-domain %3 (js_domain in a profile); "
                                      "do not create the streams here.")
                           .arg(m_ctx.account,
                                info.readDomain.isEmpty() ? QStringLiteral("the default domain")
                                                          : QStringLiteral("domain \"%1\"").arg(info.readDomain),
                                m_ctx.layout().domain());
        } else if (m_ctx.present.isEmpty()) {
            // Nothing has failed yet, so no server line to explain.
            f.explains.clear();
            f.severity = Sev::Info;
            f.detail = QStringLiteral("No MQTT stream exists in account \"%1\" yet: nats-server creates %2 (and the other MQTT streams) "
                                      "at the first MQTT connect to the account, nothing blocks that.")
                           .arg(m_ctx.account, name);
        } else if (upgradePending) {
            f.explains.clear();
            f.severity = Sev::Info;
            f.detail = QStringLiteral("The account still has the 2.9 streams. A 2.10+ server creates %1 the next time it sets up MQTT for "
                                      "account \"%2\" (its first MQTT connect after a start); nothing blocks that.")
                           .arg(name, m_ctx.account);
        } else {
            f.severity = name == MqttLayout::sessionsStream() ? Sev::Critical : Sev::Error;
            f.detail = QStringLiteral("%1 is missing while other MQTT streams exist, so it was deleted (or its creation failed). "
                                      "Servers only create MQTT streams when they set up MQTT for an account after a start. %2")
                           .arg(name, missingEffect(name));
            if (!m_ctx.limits)
                f.detail += QStringLiteral(" The account's JetStream limits are not known here (the system view does not report them): "
                                           "check again with the account's credentials to see whether max_streams or storage blocks it.");
        }
        out.append(f);
    }
}

void StreamChecks::subjectsAndConfig(QList<Finding> &out) const
{
    for (const QString &name : m_ctx.present) {
        const StreamInfo &s = *m_ctx.stream(name);
        const MqttStreamSpec spec = *m_ctx.layout().stream(name);
        const QStringList actualSubjects = MqttStreamSpec::subjectsOf(s.config);
        QList<MqttStreamSpec::Difference> diffs = spec.differences(s.config);
        if (name == MqttLayout::retainedStream()) {
            dropKnownRetainedShapes(m_ctx, actualSubjects, diffs);
            if (auto f = deliberateDeviation(m_ctx, s)) {
                out.append(*f);
                diffs.removeIf([](const MqttStreamSpec::Difference &d) { return d.field == QLatin1String("storage"); });
            }
        }
        QList<MqttStreamSpec::Difference> configDiffs;
        for (const MqttStreamSpec::Difference &d : std::as_const(diffs)) {
            if (d.field == QLatin1String("num_replicas"))
                continue; // REPLICAS_MISMATCH
            if (d.field == QLatin1String("subjects"))
                out.append(subjectsWrong(m_ctx, spec, actualSubjects));
            else
                configDiffs.append(d);
        }
        if (!configDiffs.isEmpty())
            out.append(configWrong(m_ctx, s, configDiffs));
    }
}

void StreamChecks::replicas(QList<Finding> &out) const
{
    const int peers = m_ctx.choice.peerCount();
    int wanted = m_ctx.layout().replicas();
    if (m_ctx.choice.replicasFromConfig && wanted > peers)
        wanted = peers; // reported once by checkReplicasConfig(); compare with what can be placed
    for (const QString &name : m_ctx.present) {
        const StreamInfo &s = *m_ctx.stream(name);
        const int have = int(MqttStreamSpec::normalizedField(s.config, QStringLiteral("num_replicas")).toInteger(1));
        if (have == wanted && have <= peers)
            continue;
        Finding f = FindingCatalogue::make(
            FindingCodes::replicasMismatch(), m_ctx.account, name,
            {{QStringLiteral("actual"), QString::number(have)}, {QStringLiteral("expected"), QString::number(wanted)}});
        f.expected = QJsonObject{{QStringLiteral("num_replicas"), wanted}};
        f.actual =
            QJsonObject{{QStringLiteral("num_replicas"), have}, {QStringLiteral("peers"), QJsonArray::fromStringList(m_ctx.choice.peers)}};
        f.explains =
            m_ctx.choice.replicasFromConfig ? QStringList{CheckContext::line(QStringLiteral("asm.replicas_mismatch"))} : QStringList{};
        const QString basis = m_ctx.choice.replicasFromConfig ? QStringLiteral("mqtt.stream_replicas")
                                                              : QStringLiteral("%1 JetStream server(s), at most 3").arg(peers);
        if (have > peers) {
            f.severity = Sev::Error;
            f.detail = QStringLiteral("%1 has %2 replicas but only %3 JetStream server(s) are known: JetStream cannot keep them all, and "
                                      "the stream loses its quorum easily. Scale it to %4.")
                           .arg(name)
                           .arg(have)
                           .arg(peers)
                           .arg(wanted);
        } else if (have < wanted) {
            f.severity = Sev::Warning;
            f.detail = QStringLiteral("%1 has %2 replica(s); %3 expected (%4). Losing the server(s) holding it stops MQTT for account "
                                      "\"%5\". Servers never rescale MQTT streams themselves: scale it with a stream update.")
                           .arg(name)
                           .arg(have)
                           .arg(wanted)
                           .arg(basis, m_ctx.account);
        } else {
            f.severity = Sev::Info;
            f.detail = QStringLiteral("%1 has %2 replicas; %3 expected (%4). More copies than the servers would create: harmless%5.")
                           .arg(name)
                           .arg(have)
                           .arg(wanted)
                           .arg(basis,
                                m_ctx.choice.replicasFromConfig ? QStringLiteral(", but each server logs a replicas "
                                                                                 "mismatch warning when it sets up MQTT")
                                                                : QString());
        }
        out.append(f);
    }
}

void StreamChecks::health(QList<Finding> &out) const
{
    for (const QString &name : m_ctx.present) {
        const StreamInfo &s = *m_ctx.stream(name);
        if (s.cluster.isEmpty())
            continue;
        QStringList problems;
        Sev severity = Sev::Warning;
        const QString leader = s.cluster.value(QLatin1String("leader")).toString();
        if (leader.isEmpty()) {
            problems.append(QStringLiteral("no leader"));
            severity = name == MqttLayout::sessionsStream() ? Sev::Critical : Sev::Error;
        }
        for (const QJsonValue &rv : s.cluster.value(QLatin1String("replicas")).toArray()) {
            const QJsonObject r = rv.toObject();
            const QString peer = r.value(QLatin1String("name")).toString();
            if (r.value(QLatin1String("offline")).toBool()) {
                problems.append(QStringLiteral("replica %1 offline").arg(peer));
                continue;
            }
            if (r.value(QLatin1String("current")).toBool(true))
                continue;
            // A follower's JSZ view shows the other followers as not current with no activity: only the
            // leader knows; skip what only a follower reported.
            if (s.source == QLatin1String("jsz") && r.value(QLatin1String("active")).toInteger(0) == 0)
                continue;
            const qint64 lag = r.value(QLatin1String("lag")).toInteger(0);
            problems.append(lag > 0 ? QStringLiteral("replica %1 not current (%2 operations behind)").arg(peer).arg(lag)
                                    : QStringLiteral("replica %1 not current").arg(peer));
        }
        if (problems.isEmpty())
            continue;
        Finding f = FindingCatalogue::make(FindingCodes::streamUnhealthy(), m_ctx.account, name,
                                           {{QStringLiteral("problem"), problems.join(QStringLiteral(", "))}});
        f.severity = severity;
        f.expected = QJsonObject{{QStringLiteral("leader"), true}, {QStringLiteral("replicas_current"), true}};
        f.actual = s.cluster;
        if (leader.isEmpty()) {
            f.explains =
                QStringList{CheckContext::line(QStringLiteral("asm.lookup_stream"), QStringLiteral("timeout:api")),
                            CheckContext::line(QStringLiteral("jsa.timeout")), CheckContext::line(QStringLiteral("jsa.timeout_after"))};
            if (name == MqttLayout::sessionsStream())
                f.explains << CheckContext::line(QStringLiteral("session.load_failed_old"), QStringLiteral("timeout:api"))
                           << CheckContext::line(QStringLiteral("session.load_failed"), QStringLiteral("timeout:api"))
                           << CheckContext::line(QStringLiteral("session.persist_failed"), QStringLiteral("timeout:store"));
            if (name == MqttLayout::retainedStream())
                f.explains << CheckContext::line(QStringLiteral("asm.retained_stream_unavailable"))
                           << CheckContext::line(QStringLiteral("asm.retained_stream_lookup_lost"))
                           << CheckContext::line(QStringLiteral("retained.store_failed"), QStringLiteral("timeout:store"));
            f.detail =
                QStringLiteral("%1 has no leader: every JetStream request on it times out. %2")
                    .arg(name,
                         name == MqttLayout::sessionsStream() ? QStringLiteral("MQTT connects fail (loading the session record times out).")
                                                              : missingEffect(name));
        } else {
            f.explains = QStringList{};
            f.detail = QStringLiteral("%1: %2. The stream works while a quorum of replicas is current; losing another server "
                                      "stops it.")
                           .arg(name, problems.join(QStringLiteral(", ")));
        }
        out.append(f);
    }
}

} // namespace MqttDoctor
