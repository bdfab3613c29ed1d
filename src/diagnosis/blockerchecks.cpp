#include "diagnosis/blockerchecks.h"

#include <QJsonArray>
#include <QMap>

#include "diagnosis/checkcontext.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/logcatalogue.h"
#include "diagnosis/subjectoverlap.h"

namespace MqttDoctor {

BlockerChecks::BlockerChecks(CheckContext &context) : m_ctx(context) {}

using Sev = Finding::Severity;

namespace {

/** How an MQTT stream would be hurt by another stream capturing its subjects. */
enum class TargetKind {
    Blocking, ///< missing, or its subjects still to be changed by the servers: they cannot make it
    Existing, ///< there, as it should be
    Upgrade, ///< what 2.10+ servers will need beyond the current layout
};

struct OverlapTarget
{
    MqttStreamSpec spec;
    TargetKind kind;
};

/** The MQTT streams whose subjects no other stream may capture: the current layout's, then what 2.10+ servers will add. */
QList<OverlapTarget> overlapTargets(const CheckContext &ctx)
{
    QList<OverlapTarget> targets;
    for (const MqttStreamSpec &spec : ctx.layout().streams()) {
        const StreamInfo *s = ctx.stream(spec.name);
        const bool pendingUpdate = s && spec.name == MqttLayout::retainedStream() && ctx.layout().kind() == MqttLayout::Kind::V2_10
            && !MqttStreamSpec::sameSubjects(MqttStreamSpec::subjectsOf(s->config), spec.subjects);
        targets.append({spec, (!s || pendingUpdate) ? TargetKind::Blocking : TargetKind::Existing});
    }
    // What 2.10+ servers will need beyond the current layout: the QoS2 streams and per-subject retained.
    if (ctx.layout().kind() != MqttLayout::Kind::V2_10) {
        const MqttLayout next(MqttLayout::Kind::V2_10, ctx.layout().domain(), ctx.layout().replicas());
        for (const MqttStreamSpec &spec : next.streams()) {
            const auto current = ctx.layout().stream(spec.name);
            if (!current || !MqttStreamSpec::sameSubjects(current->subjects, spec.subjects))
                targets.append({spec, TargetKind::Upgrade});
        }
    }
    return targets;
}

/** One MQTT stream whose subjects another stream captures. */
struct Hit
{
    MqttStreamSpec spec;
    QStringList overlapping; // the other stream's subjects that overlap
    QString mqttSubject; // the first MQTT subject they overlap
};

enum class Harm { Create, Update, Existing, Upgrade };

/** The MQTT streams `other` captures subjects of, by harm: one hit per MQTT stream, the current layout's target first. */
QMap<Harm, QList<Hit>> hitsOf(const CheckContext &ctx, const QList<OverlapTarget> &targets, const StreamInfo &other)
{
    const QStringList otherSubjects = MqttStreamSpec::subjectsOf(other.config);
    QStringList reported; // one hit per MQTT stream: the current layout's target wins
    QMap<Harm, QList<Hit>> hits;
    for (const OverlapTarget &t : targets) {
        if (reported.contains(t.spec.name))
            continue;
        Hit hit{t.spec, {}, {}};
        for (const QString &mine : t.spec.subjects)
            for (const QString &theirs : otherSubjects)
                if (subjectsOverlap(mine, theirs)) {
                    if (!hit.overlapping.contains(theirs))
                        hit.overlapping.append(theirs);
                    if (hit.mqttSubject.isEmpty())
                        hit.mqttSubject = mine;
                }
        if (hit.overlapping.isEmpty())
            continue;
        reported.append(t.spec.name);
        const Harm harm = t.kind == TargetKind::Blocking ? (ctx.stream(t.spec.name) ? Harm::Update : Harm::Create)
            : t.kind == TargetKind::Existing             ? Harm::Existing
                                                         : Harm::Upgrade;
        hits[harm].append(hit);
    }
    return hits;
}

/**
 * SUBJECTS_OVERLAP: one finding per other stream and kind of harm, naming every MQTT stream it harms that
 * way (one stream capturing $MQTT.> is one problem, not one per MQTT stream). The streams it keeps from
 * being created are recorded in CheckContext::blocked.
 */
Finding overlapFinding(CheckContext &ctx, const StreamInfo &other, Harm harm, const QList<Hit> &group)
{
    const QStringList otherSubjects = MqttStreamSpec::subjectsOf(other.config);
    QStringList names;
    QStringList overlapping;
    QStringList pairs; // "$MQTT.msgs.> of $MQTT_msgs"
    QJsonArray harmed;
    for (const Hit &h : group) {
        names << h.spec.name;
        for (const QString &o : h.overlapping)
            if (!overlapping.contains(o))
                overlapping << o;
        pairs << QStringLiteral("%1 of %2").arg(h.mqttSubject, h.spec.name);
        harmed.append(QJsonObject{{QStringLiteral("stream"), h.spec.name},
                                  {QStringLiteral("subjects"), QJsonArray::fromStringList(h.spec.subjects)}});
    }
    const QString joined = names.join(QStringLiteral(", "));
    Finding f = FindingCatalogue::make(FindingCodes::subjectsOverlap(), ctx.account, other.name,
                                       {{QStringLiteral("subject"), group.first().mqttSubject}, {QStringLiteral("mqtt_stream"), joined}});
    if (group.size() > 1)
        f.title = QStringLiteral("Stream %1 captures the subjects of %2 MQTT streams (%3)").arg(other.name).arg(group.size()).arg(joined);
    f.expected = QJsonObject{{QStringLiteral("mqtt_streams"), harmed}};
    f.actual = QJsonObject{{QStringLiteral("stream"), other.name},
                           {QStringLiteral("subjects"), QJsonArray::fromStringList(otherSubjects)},
                           {QStringLiteral("overlapping"), QJsonArray::fromStringList(overlapping)}};
    const QString updateLine = CheckContext::line(QStringLiteral("asm.update_stream_config"), QStringLiteral("js:10065"));
    QStringList createLines;
    for (const QString &name : names)
        createLines << CheckContext::line(CheckContext::createLineFor(name), QStringLiteral("js:10065"));
    const QString what = QStringLiteral("Stream \"%1\" captures %2, which overlaps %3.")
                             .arg(other.name, overlapping.join(QStringLiteral(", ")), pairs.join(QStringLiteral(", ")));
    switch (harm) {
    case Harm::Create:
        f.severity = Sev::Critical;
        f.explains = createLines;
        f.detail = what
            + QStringLiteral(" JetStream refuses to create %1 (10065), so the servers fail every MQTT connect in "
                             "account \"%2\".")
                  .arg(joined, ctx.account);
        for (const QString &name : names)
            ctx.blocked.insert(name);
        break;
    case Harm::Update:
        f.severity = Sev::Critical;
        f.explains = QStringList{updateLine};
        f.detail = what
            + QStringLiteral(" A 2.10+ server changes the subjects of %1 to the 2.10+ ones when it sets up MQTT for "
                             "the account; JetStream refuses (10065) and the MQTT connect fails.")
                  .arg(joined);
        break;
    case Harm::Existing:
        f.severity = Sev::Warning;
        f.explains = createLines;
        f.detail = what
            + QStringLiteral(" Both exist, so messages on the shared subjects go to one of them only, and %1 cannot "
                             "be recreated while \"%2\" exists.")
                  .arg(joined, other.name);
        break;
    case Harm::Upgrade:
        f.severity = Sev::Warning;
        f.explains.clear();
        for (const Hit &h : group)
            f.explains << (h.spec.name == MqttLayout::retainedStream()
                               ? updateLine
                               : CheckContext::line(CheckContext::createLineFor(h.spec.name), QStringLiteral("js:10065")));
        f.detail = what
            + QStringLiteral(" The 2.10+ servers need %1 with these subjects: after an upgrade (or on the 2.10+ "
                             "servers of a mixed cluster) every MQTT connect in account \"%2\" will fail (10065).")
                  .arg(joined, ctx.account);
        break;
    }
    return f;
}

} // namespace

void BlockerChecks::replicasConfig(QList<Finding> &out)
{
    const int wanted = m_ctx.layout().replicas();
    const int peers = m_ctx.choice.peerCount();
    if (!m_ctx.choice.replicasFromConfig || wanted <= peers)
        return;
    const QString causeKey = peers == 1 ? QStringLiteral("js:10074") : QStringLiteral("js:10005");
    const QString cause = LogCatalogue::causeText(causeKey);
    Finding f = FindingCatalogue::make(FindingCodes::replicasMismatch(), m_ctx.account);
    f.title = QStringLiteral("mqtt.stream_replicas %1 exceeds the %2 JetStream server(s)").arg(wanted).arg(peers);
    f.expected = QJsonObject{{QStringLiteral("stream_replicas_at_most"), peers}};
    f.actual =
        QJsonObject{{QStringLiteral("stream_replicas"), wanted}, {QStringLiteral("peers"), QJsonArray::fromStringList(m_ctx.choice.peers)}};
    f.repair.clear();
    f.explains = QStringList{CheckContext::line(QStringLiteral("asm.replicas_mismatch"))};
    if (!m_ctx.missing.isEmpty()) {
        f.severity = Sev::Critical;
        f.explains.prepend(CheckContext::line(CheckContext::createLineFor(m_ctx.missing.first()), causeKey));
        f.detail = QStringLiteral("The servers create MQTT streams with %1 replicas, but only %2 JetStream server(s) can hold them: "
                                  "creating %3 fails (%4), so every MQTT connect in account \"%5\" fails. Set mqtt.stream_replicas "
                                  "to at most %2 (or remove it) and reload the servers.")
                       .arg(wanted)
                       .arg(peers)
                       .arg(m_ctx.missing.join(QStringLiteral(", ")), cause, m_ctx.account);
        for (const QString &name : std::as_const(m_ctx.missing))
            m_ctx.blocked.insert(name);
    } else {
        f.severity = Sev::Warning;
        f.detail = QStringLiteral("mqtt.stream_replicas is %1 but only %2 JetStream server(s) exist. The existing MQTT streams are "
                                  "kept as they are (the server only logs a replicas mismatch), but any MQTT stream that has to "
                                  "be created again will fail (%3). Set mqtt.stream_replicas to at most %2.")
                       .arg(wanted)
                       .arg(peers)
                       .arg(cause);
    }
    out.append(f);
}

void BlockerChecks::overlap(QList<Finding> &out)
{
    const QList<OverlapTarget> targets = overlapTargets(m_ctx);
    for (const StreamInfo &other : m_ctx.input->account.streams) {
        if (MqttLayout::isMqttStreamName(other.name) || MqttLayout::isLegacySessionStream(other.name))
            continue;
        const QMap<Harm, QList<Hit>> hits = hitsOf(m_ctx, targets, other);
        for (auto group = hits.cbegin(); group != hits.cend(); ++group)
            out.append(overlapFinding(m_ctx, other, group.key(), group.value()));
    }
}

namespace {

Finding headroomFinding(const CheckContext &ctx, const QString &what)
{
    return FindingCatalogue::make(FindingCodes::streamLimitHeadroom(), ctx.account, {}, {{QStringLiteral("what"), what}});
}

/**
 * The account's max_streams against the MQTT streams the servers must create: critical when the missing ones
 * do not fit (each that does not is blocked), else a warning when those 2.10+ servers add will not.
 */
void streamCountHeadroom(CheckContext &ctx, qint64 maxStreams, QList<Finding> &out)
{
    const AccountInfo &acc = ctx.input->account;
    const qint64 current = acc.streamsKnown ? acc.streams.size() : acc.streamCount;
    const qint64 room = qMax<qint64>(0, maxStreams - current);
    if (ctx.missing.size() > room) {
        const QStringList cannot = ctx.missing.mid(room);
        Finding f = headroomFinding(ctx, QStringLiteral("%1 more MQTT stream(s)").arg(ctx.missing.size()));
        f.severity = Sev::Critical;
        f.expected = QJsonObject{{QStringLiteral("max_streams"), current + ctx.missing.size()}};
        f.actual = QJsonObject{{QStringLiteral("max_streams"), maxStreams}, {QStringLiteral("streams"), current}};
        f.explains = QStringList{CheckContext::line(CheckContext::createLineFor(cannot.first()), QStringLiteral("js:10027"))};
        f.detail = QStringLiteral("Account \"%1\" may have %2 streams and has %3; the servers need to create %4, so creating %5 fails "
                                  "(10027) and every MQTT connect in the account fails. Raise max_streams to at least %6.")
                       .arg(ctx.account)
                       .arg(maxStreams)
                       .arg(current)
                       .arg(ctx.missing.join(QStringLiteral(", ")), cannot.first())
                       .arg(current + ctx.missing.size());
        for (const QString &name : cannot)
            ctx.blocked.insert(name);
        out.append(f);
    } else if (ctx.layout().kind() == MqttLayout::Kind::V2_9) {
        // Upgrading to 2.10+ adds $MQTT_qos2in and $MQTT_out.
        const MqttLayout next(MqttLayout::Kind::V2_10);
        QStringList needed;
        for (const QString &name : next.streamNames())
            if (!ctx.stream(name))
                needed.append(name);
        if (needed.size() > room) {
            Finding f = headroomFinding(ctx, QStringLiteral("the 2.10+ MQTT streams"));
            f.severity = Sev::Warning;
            f.expected = QJsonObject{{QStringLiteral("max_streams"), current + needed.size()}};
            f.actual = QJsonObject{{QStringLiteral("max_streams"), maxStreams}, {QStringLiteral("streams"), current}};
            f.explains = QStringList{CheckContext::line(QStringLiteral("asm.create_qos2in_stream"), QStringLiteral("js:10027")),
                                     CheckContext::line(QStringLiteral("asm.create_out_stream"), QStringLiteral("js:10027"))};
            f.detail = QStringLiteral("Account \"%1\" may have %2 streams and has %3. Servers 2.10 and newer also create $MQTT_qos2in and "
                                      "$MQTT_out: after an upgrade every MQTT connect in the account will fail (10027). Raise max_streams "
                                      "to at least %4 before upgrading.")
                           .arg(ctx.account)
                           .arg(maxStreams)
                           .arg(current)
                           .arg(current + needed.size());
            out.append(f);
        }
    }
}

/** The account requires max_bytes on every stream, which the servers' MQTT streams never set: each missing one is blocked. */
Finding maxBytesRequired(CheckContext &ctx)
{
    Finding f = headroomFinding(ctx, QStringLiteral("MQTT streams without max_bytes"));
    f.severity = Sev::Critical;
    f.expected = QJsonObject{{QStringLiteral("max_bytes_required"), false}};
    f.actual = QJsonObject{{QStringLiteral("max_bytes_required"), true}};
    f.explains = QStringList{CheckContext::line(CheckContext::createLineFor(ctx.missing.first()), QStringLiteral("js:10113"))};
    f.detail = QStringLiteral("Account \"%1\" requires every stream to set max_bytes, but the servers create MQTT streams without "
                              "it: creating %2 fails (10113). Remove max_bytes_required for the account, or create the MQTT "
                              "streams by hand with max_bytes set.")
                   .arg(ctx.account, ctx.missing.first());
    for (const QString &name : std::as_const(ctx.missing))
        ctx.blocked.insert(name);
    return f;
}

/** The account's file storage full (critical) or over 90% (warning): session records can no longer be saved. */
void storageHeadroom(const CheckContext &ctx, qint64 maxStorage, QList<Finding> &out)
{
    const qint64 used = ctx.input->account.storage;
    if (used < maxStorage && used * 10 < maxStorage * 9)
        return;
    const bool full = used >= maxStorage;
    Finding f = headroomFinding(ctx, full ? QStringLiteral("more stored data") : QStringLiteral("much more stored data"));
    f.severity = full ? Sev::Critical : Sev::Warning;
    f.expected = QJsonObject{{QStringLiteral("max_storage_above"), used}};
    f.actual = QJsonObject{{QStringLiteral("max_storage"), maxStorage}, {QStringLiteral("storage"), used}};
    f.explains = QStringList{CheckContext::line(QStringLiteral("session.persist_failed"), QStringLiteral("js:10002")),
                             CheckContext::line(QStringLiteral("js.account_limits_exceeded_old"))};
    f.detail = full ? QStringLiteral("Account \"%1\" uses %2 of its %3 bytes of file storage: session records cannot be saved "
                                     "(10002), so MQTT connects fail, and retained and QoS1 messages are not stored.")
                          .arg(ctx.account)
                          .arg(used)
                          .arg(maxStorage)
                    : QStringLiteral("Account \"%1\" uses %2 of its %3 bytes of file storage (over 90%): once full, session "
                                     "records cannot be saved and MQTT connects fail.")
                          .arg(ctx.account)
                          .arg(used)
                          .arg(maxStorage);
    out.append(f);
}

} // namespace

void BlockerChecks::headroom(QList<Finding> &out)
{
    if (!m_ctx.limits)
        return;
    const qint64 maxStreams = m_ctx.limits->value(QLatin1String("max_streams")).toInteger(-1);
    if (maxStreams > 0)
        streamCountHeadroom(m_ctx, maxStreams, out);
    if (m_ctx.limits->value(QLatin1String("max_bytes_required")).toBool(false) && !m_ctx.missing.isEmpty())
        out.append(maxBytesRequired(m_ctx));
    const qint64 maxStorage = m_ctx.limits->value(QLatin1String("max_storage")).toInteger(-1);
    if (maxStorage > 0)
        storageHeadroom(m_ctx, maxStorage, out);
}

} // namespace MqttDoctor
