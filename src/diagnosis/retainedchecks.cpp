#include "diagnosis/retainedchecks.h"

#include <optional>

#include <QJsonArray>

#include "diagnosis/checkcontext.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/serverversion.h"

namespace MqttDoctor {

RetainedChecks::RetainedChecks(const CheckContext &context) : m_ctx(context) {}

using Sev = Finding::Severity;

namespace {

/** What the checks of `$MQTT_rmsgs` look at: its subjects and how many messages it keeps per subject. */
struct RetainedShape
{
    const StreamInfo &stream;
    QStringList subjects;
    qint64 perSubject; ///< max_msgs_per_subject
    qint64 messages;
    bool legacy; ///< the 2.9 layout's one subject $MQTT.rmsgs
    bool modern; ///< the 2.10+ layout's $MQTT.rmsgs.>

    static RetainedShape of(const StreamInfo &rm)
    {
        const QStringList subjects = MqttStreamSpec::subjectsOf(rm.config);
        return RetainedShape{rm,
                             subjects,
                             MqttStreamSpec::normalizedField(rm.config, QStringLiteral("max_msgs_per_subject")).toInteger(-1),
                             CheckContext::messagesOf(rm),
                             MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedLegacySubject()}),
                             MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedSubjects()})};
    }

    /** The evidence of the shape: subjects, max_msgs_per_subject and messages. */
    QJsonObject toJson() const
    {
        return QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(subjects)},
                           {QStringLiteral("max_msgs_per_subject"), perSubject},
                           {QStringLiteral("messages"), messages}};
    }
};

/**
 * RETAINED_LEGACY_LAYOUT: 2.10+ servers (now, or after the planned upgrade) will migrate the 2.9 layout,
 * or finish a migration that stopped half-way, against a deadline.
 */
std::optional<Finding> legacyLayout(const CheckContext &ctx, const RetainedShape &shape)
{
    const MqttLayout::Kind kind = ctx.layout().kind();
    const bool upgradeView = kind == MqttLayout::Kind::V2_10 || (kind == MqttLayout::Kind::V2_9 && ctx.input->options.upgradePlanned);
    if (!upgradeView || !(shape.legacy || (shape.modern && shape.perSubject != 1)))
        return std::nullopt;
    const qint64 messages = shape.messages;
    const MqttStreamSpec modern = MqttLayout::retainedSpec(MqttLayout::Kind::V2_10, ctx.layout().replicas());
    Finding f = FindingCatalogue::make(FindingCodes::retainedLegacyLayout(), ctx.account, shape.stream.name,
                                       {{QStringLiteral("messages"), QString::number(messages)}});
    f.subject = MqttLayout::retainedLegacySubject();
    f.expected =
        QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(modern.subjects)}, {QStringLiteral("max_msgs_per_subject"), 1}};
    f.actual = shape.toJson();
    bool earlyTransfer = false;
    for (const QString &v : ctx.choice.versions) {
        const auto parsed = ServerVersion::parse(v);
        earlyTransfer =
            earlyTransfer || (parsed && parsed->majorVersion() == 2 && parsed->minorVersion() == 10 && parsed->patchVersion() <= 5);
    }
    const QString when = kind == MqttLayout::Kind::V2_10
        ? QStringLiteral("The next time a 2.10+ server sets up MQTT for account \"%1\" (its first MQTT connect after a start), it")
              .arg(ctx.account)
        : QStringLiteral("After the planned upgrade, the first 2.10+ server that sets up MQTT for account \"%1\"").arg(ctx.account);
    f.detail = (shape.legacy ? QString()
                             : QStringLiteral("The subjects were already changed but max_msgs_per_subject was not: a "
                                              "migration started and did not finish. "))
        + when
        + QStringLiteral(" changes the subjects to $MQTT.rmsgs.>, moves each of the %1 message(s) on $MQTT.rmsgs to "
                         "$MQTT.rmsgs.<subject> (three JetStream round trips each, 10 s deadline; messages that fail are "
                         "deleted anyway), then sets max_msgs_per_subject to 1: every message not moved by then is purged "
                         "except the newest, which stays orphaned on $MQTT.rmsgs.")
              .arg(messages);
    if (messages > ctx.input->options.retainedMigrationWarnAt) {
        f.severity = Sev::Warning;
        f.detail += QStringLiteral(" With %1 messages the deadline is likely to be hit: migrate them beforehand.").arg(messages);
    }
    if (earlyTransfer && messages > 0) {
        f.severity = Sev::Warning;
        f.detail += QStringLiteral(" 2.10.0-2.10.5 servers retry a message they cannot parse or store forever, inside the MQTT "
                                   "connect: one corrupt record blocks MQTT for the account.");
    }
    return f;
}

/** RETAINED_ORPHANED: messages left on the literal $MQTT.rmsgs by a migration that hit its deadline. */
std::optional<Finding> orphaned(const CheckContext &ctx, const RetainedShape &shape)
{
    if (ctx.layout().kind() != MqttLayout::Kind::V2_10 || !shape.modern || shape.perSubject != 1)
        return std::nullopt;
    const StreamInfo &rm = shape.stream;
    const QJsonObject counts = rm.state.value(QLatin1String("subjects")).toObject();
    const qint64 orphans = counts.value(MqttLayout::retainedLegacySubject()).toInteger(0);
    if (orphans <= 0)
        return std::nullopt;
    Finding f = FindingCatalogue::make(FindingCodes::retainedOrphaned(), ctx.account, rm.name,
                                       {{QStringLiteral("count"), QString::number(orphans)}});
    f.subject = MqttLayout::retainedLegacySubject();
    f.expected = QJsonObject{{MqttLayout::retainedLegacySubject(), 0}};
    f.actual = QJsonObject{{MqttLayout::retainedLegacySubject(), orphans},
                           {QStringLiteral("evidence"), QStringLiteral("state.subjects of %1").arg(rm.name)}};
    f.detail = QStringLiteral("The stream state counts %1 message(s) on the literal subject $MQTT.rmsgs, left over from a "
                              "2.9 → 2.10+ migration that hit its deadline. The stream now only serves $MQTT.rmsgs.>, and "
                              "max_msgs_per_subject is already 1, so no server will ever migrate or deliver them: those "
                              "retained messages are lost until republished to $MQTT.rmsgs.<subject>.")
                   .arg(orphans);
    return f;
}

/** RETAINED_DOWNGRADE: the 2.10+ layout, served (also) by 2.9 servers, which cannot build their retained consumer on it. */
std::optional<Finding> downgrade(const CheckContext &ctx, const RetainedShape &shape)
{
    const MqttLayout::Kind kind = ctx.layout().kind();
    if ((kind != MqttLayout::Kind::V2_9 && kind != MqttLayout::Kind::Mixed) || !shape.modern)
        return std::nullopt;
    const QStringList &legacyServers = ctx.choice.legacyServers;
    Finding f = FindingCatalogue::make(FindingCodes::retainedDowngrade(), ctx.account, shape.stream.name,
                                       {{QStringLiteral("servers"), legacyServers.join(QStringLiteral(", "))}});
    const MqttStreamSpec old = MqttLayout::retainedSpec(MqttLayout::Kind::V2_9, ctx.layout().replicas());
    f.expected = QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(old.subjects)},
                             {QStringLiteral("max_msgs_per_subject"), old.maxMsgsPerSubject}};
    f.actual = shape.toJson();
    f.explains = QStringList{CheckContext::line(QStringLiteral("asm.create_retained_consumer"), QStringLiteral("js:10093"))};
    f.detail = QStringLiteral("$MQTT_rmsgs was migrated to the 2.10+ layout (subjects $MQTT.rmsgs.>), but %1 serve%2 MQTT with "
                              "the 2.9 layout. A 2.9 server builds its retained consumer on $MQTT.rmsgs, which the stream no "
                              "longer contains (10093): every MQTT connect to account \"%3\" through %4 fails without a CONNACK.")
                   .arg(legacyServers.isEmpty() ? QStringLiteral("2.9 servers") : legacyServers.join(QStringLiteral(", ")),
                        legacyServers.size() == 1 ? QStringLiteral("s") : QString(), ctx.account,
                        legacyServers.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
    if (kind == MqttLayout::Kind::Mixed)
        f.detail += QStringLiteral(" The 2.10+ servers (%1) migrated it; finishing the upgrade fixes it.")
                        .arg(ctx.choice.currentServers.join(QStringLiteral(", ")));
    return f;
}

/**
 * RETAINED_DOWNGRADE of an interrupted revert_retained: the 2.9 shape is back, but messages are still stored
 * on $MQTT.rmsgs.<subject>, outside the stream's subjects, where no 2.9 server reads them. Known only when
 * the count on $MQTT.rmsgs was read (the account's own API).
 */
std::optional<Finding> interruptedRevert(const CheckContext &ctx, const RetainedShape &shape)
{
    const StreamInfo &rm = shape.stream;
    const qint64 messages = shape.messages;
    const QJsonValue legacyCount = rm.state.value(QLatin1String("subjects")).toObject().value(MqttLayout::retainedLegacySubject());
    if (ctx.layout().kind() != MqttLayout::Kind::V2_9 || !shape.legacy || !rm.state.value(QLatin1String("subjects")).isObject()
        || messages <= legacyCount.toInteger(0))
        return std::nullopt;
    const qint64 outside = messages - legacyCount.toInteger(0);
    Finding f = FindingCatalogue::make(FindingCodes::retainedDowngrade(), ctx.account, rm.name,
                                       {{QStringLiteral("servers"), ctx.choice.legacyServers.join(QStringLiteral(", "))}});
    f.severity = Sev::Error;
    f.title = QStringLiteral("$MQTT_rmsgs holds %1 message(s) outside its subjects (an interrupted revert)").arg(outside);
    f.expected = QJsonObject{{QStringLiteral("messages_outside_subjects"), 0}};
    f.actual =
        QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(shape.subjects)},
                    {QStringLiteral("messages"), messages},
                    {QStringLiteral("messages_outside_subjects"), outside},
                    {QStringLiteral("evidence"), QStringLiteral("state.messages minus state.subjects[$MQTT.rmsgs] of %1").arg(rm.name)}};
    f.explains = {};
    f.detail = QStringLiteral("$MQTT_rmsgs is back in the 2.9 layout (subjects $MQTT.rmsgs), but %1 message(s) are stored on other "
                              "subjects, most likely $MQTT.rmsgs.<subject> records of a revert that stopped after changing the "
                              "subjects. No 2.9 server reads them: those retained messages are missing until the revert is "
                              "finished.")
                   .arg(outside);
    return f;
}

} // namespace

void RetainedChecks::retained(QList<Finding> &out) const
{
    const StreamInfo *rm = m_ctx.stream(MqttLayout::retainedStream());
    if (!rm)
        return;
    const RetainedShape shape = RetainedShape::of(*rm);
    for (const auto &check : {legacyLayout, orphaned, downgrade, interruptedRevert})
        if (auto f = check(m_ctx, shape))
            out.append(*f);
}

namespace {

/** The consumers' name, deliver subject and whether a subscriber listens there: the evidence of what is on $MQTT_rmsgs. */
QJsonArray consumersEvidence(const QList<QJsonObject> &consumers)
{
    QJsonArray out;
    for (const QJsonObject &c : consumers)
        out.append(QJsonObject{
            {QStringLiteral("name"), c.value(QLatin1String("name")).toString()},
            {QStringLiteral("deliver_subject"), c.value(QLatin1String("config")).toObject().value(QLatin1String("deliver_subject"))},
            {QStringLiteral("push_bound"), c.value(QLatin1String("push_bound")).toBool()}});
    return out;
}

/** A consumer of `$MQTT_msgs` or `$MQTT_out` has a subscriber: an MQTT client is connected, so its server set up MQTT. */
bool clientDurableBound(const CheckContext &ctx)
{
    for (const QString &name : {MqttLayout::messagesStream(), MqttLayout::outStream()})
        if (const StreamInfo *s = ctx.stream(name))
            for (const QJsonObject &c : s->consumers)
                if (c.value(QLatin1String("push_bound")).toBool())
                    return true;
    return false;
}

/**
 * A replica of the stream is offline or it has no leader (STREAM_UNHEALTHY): a consumer placed on the missing server
 * may be left out of the listing without a word, so the consumers are not judged.
 */
bool replicaMissing(const StreamInfo &s)
{
    if (s.cluster.isEmpty())
        return false;
    if (s.cluster.value(QLatin1String("leader")).toString().isEmpty())
        return true;
    for (const QJsonValue &r : s.cluster.value(QLatin1String("replicas")).toArray())
        if (r.toObject().value(QLatin1String("offline")).toBool())
            return true;
    return false;
}

/** Since 2.12.3 a server adds retained messages to what it delivers only through its consumer, its own clients' too. */
bool onlyThroughConsumer(const QString &version)
{
    const auto v = ServerVersion::parse(version);
    return !v || v->atLeast(2, 12, 3);
}

} // namespace

void RetainedChecks::retainedConsumers(QList<Finding> &out) const
{
    const StreamInfo *rm = m_ctx.stream(MqttLayout::retainedStream());
    if (!rm || !rm->consumersKnown || replicaMissing(*rm))
        return;
    const QList<QJsonObject> consumers = AccountManagers::retainedConsumers(rm->consumers);
    const std::optional<AccountManagers> &managers = m_ctx.input->managers;
    const QString account = m_ctx.account;
    if (!managers) {
        // Without the servers' subscriptions: a connected client's durable proves a server set MQTT up. (A consumer
        // whose server did not answer counts as bound: boundCount.)
        if (AccountManagers::boundCount(consumers) > 0 || !clientDurableBound(m_ctx))
            return;
        Finding f = FindingCatalogue::make(FindingCodes::retainedConsumerMissing(), account, rm->name,
                                           {{QStringLiteral("servers"), QStringLiteral("the servers")}});
        f.repair.clear();
        f.expected = QJsonObject{{QStringLiteral("bound_retained_consumers"), QStringLiteral("one per server serving MQTT clients")}};
        f.actual = QJsonObject{{QStringLiteral("bound_retained_consumers"), 0},
                               {QStringLiteral("consumers"), consumersEvidence(consumers)},
                               {QStringLiteral("evidence"),
                                QStringLiteral("a durable of a connected MQTT client has a subscriber, "
                                               "no consumer of $MQTT_rmsgs has one")}};
        f.detail = QStringLiteral("An MQTT client of account \"%1\" is connected (a durable of its subscription has a subscriber), so "
                                  "its server set up MQTT for the account, yet no consumer on $MQTT_rmsgs delivers to any server: the "
                                  "retained-message consumer died with the stream. Since 2.12.3 a server takes retained messages only "
                                  "through it, so retained messages published now never reach new subscribers. Which servers are "
                                  "affected, and where to make the consumer again, only a system connection tells; without one, "
                                  "restart the servers that serve the account.")
                       .arg(account);
        out.append(f);
        return;
    }
    const QList<MqttManager> missing = managers->withoutConsumer(consumers);
    if (missing.isEmpty())
        return;
    QStringList names;
    bool dead = false;
    bool resolved = true;
    QJsonArray affected;
    for (const MqttManager &m : missing) {
        names << QStringLiteral("%1 (%2)").arg(m.server, m.version);
        dead = dead || onlyThroughConsumer(m.version);
        resolved = resolved && m.resolved();
        affected.append(m.toJson());
    }
    Finding f = FindingCatalogue::make(FindingCodes::retainedConsumerMissing(), account, rm->name,
                                       {{QStringLiteral("servers"), names.join(QStringLiteral(", "))}});
    f.severity = dead ? Sev::Error : Sev::Warning;
    f.expected = QJsonObject{{QStringLiteral("bound_retained_consumers"), int(managers->managers.size())}};
    f.actual = QJsonObject{{QStringLiteral("bound_retained_consumers"), AccountManagers::boundCount(consumers)},
                           {QStringLiteral("servers_without_consumer"), affected},
                           {QStringLiteral("consumers"), consumersEvidence(consumers)},
                           {QStringLiteral("evidence"),
                            QStringLiteral("SUBSZ of each server (its MQTT set-up's subscriptions), "
                                           "CONSUMER.LIST of $MQTT_rmsgs")}};
    f.detail = QStringLiteral("%1 set up MQTT for account \"%2\" and listen%3 for retained messages, but no consumer on $MQTT_rmsgs "
                              "delivers to %4: it died with the stream (deleted, or lost with its node) and a server makes it only "
                              "when it sets up MQTT, once per start. ")
                   .arg(names.join(QStringLiteral(", ")), account, missing.size() == 1 ? QStringLiteral("s") : QString(),
                        missing.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
    f.detail += dead ? QStringLiteral("From 2.12.3 on, a server learns of retained messages only through that consumer: retained "
                                      "messages published now never reach new subscribers.")
                     : QStringLiteral("These versions still deliver the retained messages their own clients publish, but never those "
                                      "published through another server.");
    if (!resolved) {
        f.repair.clear();
        f.detail += QStringLiteral(" Where to make the consumer again could not be read (%1): restart the servers named, one at a time.")
                        .arg(managers->unresolvedWhy.isEmpty() ? QStringLiteral("unknown") : managers->unresolvedWhy);
    } else {
        f.detail += QStringLiteral(" The repair makes the consumer again on the subject the server still listens on; a restart of the "
                                   "servers named does the same.");
    }
    out.append(f);
}

void RetainedChecks::legacySessions(QList<Finding> &out) const
{
    const bool sessPresent = m_ctx.stream(MqttLayout::sessionsStream()) != nullptr;
    for (const StreamInfo &s : m_ctx.input->account.streams) {
        if (!MqttLayout::isLegacySessionStream(s.name))
            continue;
        const qint64 messages = CheckContext::messagesOf(s);
        Finding f = FindingCatalogue::make(FindingCodes::legacySessionStreams(), m_ctx.account, s.name,
                                           {{QStringLiteral("messages"), QString::number(messages)}});
        f.expected = QJsonObject{{QStringLiteral("stream"), MqttLayout::sessionsStream()},
                                 {QStringLiteral("subject"), m_ctx.layout().sessionSubject(QStringLiteral("<hash>"))}};
        f.actual = QJsonObject{{QStringLiteral("stream"), s.name},
                               {QStringLiteral("subjects"), QJsonArray::fromStringList(MqttStreamSpec::subjectsOf(s.config))},
                               {QStringLiteral("messages"), messages}};
        if (messages == 0) {
            f.severity = Sev::Warning;
            f.explains = QStringList{CheckContext::line(QStringLiteral("transfer.sessions_load_failed"), QStringLiteral("js:10037")),
                                     CheckContext::line(QStringLiteral("transfer.sessions_retry"))};
            f.detail = QStringLiteral("%1 is an empty legacy per-session stream. When a server creates $MQTT_sess it moves legacy "
                                      "streams into it; an empty one makes that fail and retry every 5 s, forever (the streams "
                                      "after it are never moved).%2")
                           .arg(s.name,
                                sessPresent ? QStringLiteral(" $MQTT_sess exists, so this only happens if it is ever recreated.")
                                            : QStringLiteral(" $MQTT_sess does not exist: the next MQTT connect starts the loop."));
        } else if (sessPresent) {
            f.severity = Sev::Warning;
            f.explains = QStringList{CheckContext::line(QStringLiteral("transfer.sessions_start")),
                                     CheckContext::line(QStringLiteral("transfer.sessions_unmarshal_failed"))};
            f.detail = QStringLiteral("%1 holds a session record of a server up to 2.4. Servers move these into $MQTT_sess only when "
                                      "they create $MQTT_sess, which already exists: this session is never restored.")
                           .arg(s.name);
        } else {
            f.severity = Sev::Info;
            f.explains = QStringList{CheckContext::line(QStringLiteral("transfer.sessions_start")),
                                     CheckContext::line(QStringLiteral("transfer.sessions_unmarshal_failed")),
                                     CheckContext::line(QStringLiteral("transfer.sessions_store_failed"))};
            f.detail = QStringLiteral("%1 holds a session record of a server up to 2.4. The server that creates $MQTT_sess moves it "
                                      "there and deletes this stream (a record that is not a session is skipped and kept).")
                           .arg(s.name);
        }
        out.append(f);
    }
}

} // namespace MqttDoctor
