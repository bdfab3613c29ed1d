// create_consumer (SESSION_MISSING_CONSUMER) and delete_consumer (ORPHAN_CONSUMER, and the consumer
// removals of purge_session and delete_session): one durable per step.
#include "repair/actions/sessionconsumeractions.h"

#include <QJsonArray>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/sessionrecord.h"
#include "nats/jserrors.h"
#include "repair/actions/actionfamilies.h"
#include "repair/actions/gatheredsessions.h"
#include "repair/actions/sessionlivestate.h"

namespace MqttDoctor::SessionRepair {

namespace {

const QString sessStream = MqttLayout::sessionsStream();

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

/** The fields that make a server-made durable the one a record names (the rest may differ by version defaults). */
bool sameDelivery(const QJsonObject &a, const QJsonObject &b)
{
    return str(a, "deliver_subject") == str(b, "deliver_subject") && str(a, "filter_subject") == str(b, "filter_subject");
}

/** The config the record on `body` gives the durable `name` (cons[*] or pubrel), empty when none. */
QJsonObject configInRecord(const QByteArray &body, const QString &name)
{
    auto rec = SessionRecord::decode(body);
    if (!rec)
        return {};
    for (auto it = rec->cons.cbegin(); it != rec->cons.cend(); ++it)
        if (it->durableName() == name)
            return it->toObject();
    if (rec->pubrel && rec->pubrel->durableName() == name)
        return rec->pubrel->toObject();
    return {};
}

class CreateConsumer final : public RepairAction
{
public:
    QString name() const override { return RepairActions::createConsumer(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        const QString durable = f.expected.toObject().value(QLatin1String("consumer")).toString();
        const SessionEntry *entry = GatheredSessions::entryOn(ctx, f.subject);
        QJsonObject config;
        QString sid;
        if (entry)
            for (const SessionConsumer &c : entry->consumers)
                if (c.name == durable && !c.exists) {
                    config = entry->configOf(c);
                    sid = c.sid;
                }
        if (durable.isEmpty() || !entry || !entry->record || config.isEmpty()) {
            *note = QStringLiteral("%1 (%2): the session record naming the consumer was not gathered; run check with the "
                                   "account's credentials and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        const QString stream = f.stream;
        RepairStep s;
        s.action = name();
        s.stream = stream;
        s.subject = f.subject;
        s.consumer = durable;
        s.clientId = f.clientId;
        s.description =
            QStringLiteral("Recreate the durable %1 on %2 for session \"%3\" (%4, deliver subject %5) from the record's own config")
                .arg(durable, stream, f.clientId,
                     sid == QLatin1String("pubrel") ? QStringLiteral("PUBREL") : QStringLiteral("subscription ") + sid,
                     str(config, "deliver_subject"));
        s.requests = {RepairRequest{ctx.apiSubject(QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(stream, durable)),
                                    QJsonObject{{QStringLiteral("stream_name"), stream}, {QStringLiteral("config"), config}}}};
        s.precondition = QStringLiteral("%1 still does not exist on %2 (exists: nothing to do), and the last record on %3 still "
                                        "names it with the same deliver and filter subjects")
                             .arg(durable, stream, f.subject);
        s.undo = QStringLiteral("delete the durable again (%1): it did not exist before this step")
                     .arg(ctx.apiSubject(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(stream, durable)));
        s.verification = QStringLiteral("CONSUMER.INFO of %1 shows deliver subject %2 and filter %3; the session's QoS 1/2 messages "
                                        "are delivered again when the client connects")
                             .arg(durable, str(config, "deliver_subject"), str(config, "filter_subject"));
        s.params = QJsonObject{
            {QStringLiteral("config"), config}, {QStringLiteral("record_seq"), qint64(entry->seq)}, {QStringLiteral("sid"), sid}};
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QJsonObject planned = step.params.value(QLatin1String("config")).toObject();
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (*info) {
            const QJsonObject actual = (*info)->value(QLatin1String("config")).toObject();
            return Precondition::alreadyDone(
                sameDelivery(actual, planned)
                    ? QStringLiteral("%1 exists with the record's deliver and filter subjects").arg(step.consumer)
                    : QStringLiteral("%1 exists, with deliver subject %2 and filter %3 (the record names %4 and %5)")
                          .arg(step.consumer, str(actual, "deliver_subject"), str(actual, "filter_subject"),
                               str(planned, "deliver_subject"), str(planned, "filter_subject")));
        }
        auto rec = SessionLiveState::lastOnSubject(ctx, sessStream, step.subject);
        if (!rec)
            return rec.error();
        if (!*rec)
            return Precondition::changed(QStringLiteral("the session record on %1 is gone").arg(step.subject));
        const QJsonObject now = configInRecord((*rec)->data, step.consumer);
        if (now.isEmpty())
            return Precondition::changed(
                QStringLiteral("the record on %1 (sequence %2) no longer names %3").arg(step.subject).arg((*rec)->seq).arg(step.consumer));
        if (!sameDelivery(now, planned))
            return Precondition::changed(QStringLiteral("the record on %1 now gives %2 deliver subject %3 and filter %4")
                                             .arg(step.subject, step.consumer, str(now, "deliver_subject"), str(now, "filter_subject")));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        const QJsonObject config = step.params.value(QLatin1String("config")).toObject();
        auto reply = ctx.api(QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(step.stream, step.consumer),
                             QJsonObject{{QStringLiteral("stream_name"), step.stream}, {QStringLiteral("config"), config}});
        if (reply)
            return QJsonArray{*reply};
        // Created meanwhile (a rerun, or the server): re-read, not fatal (docs/safety.md).
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (info && *info && sameDelivery((*info)->value(QLatin1String("config")).toObject(), config))
            return QJsonArray{**info};
        return reply.error().prefixed(QStringLiteral("creating %1 on %2").arg(step.consumer, step.stream));
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        const QJsonObject planned = step.params.value(QLatin1String("config")).toObject();
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (!*info)
            return Error(Error::Kind::NotFound, QStringLiteral("%1 does not exist on %2").arg(step.consumer, step.stream));
        const QJsonObject actual = (*info)->value(QLatin1String("config")).toObject();
        if (!sameDelivery(actual, planned))
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1 has deliver subject %2 and filter %3, not %4 and %5")
                             .arg(step.consumer, str(actual, "deliver_subject"), str(actual, "filter_subject"),
                                  str(planned, "deliver_subject"), str(planned, "filter_subject")));
        return {};
    }
};

class DeleteConsumer final : public RepairAction
{
public:
    QString name() const override { return RepairActions::deleteConsumer(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &ctx, QString *note) const override
    {
        // The finding names the consumer in its title only: match it against the gathered durables.
        QString durable;
        if (ctx.sessions)
            for (const SessionLoader::ConsumerIndex::Entry &e : ctx.sessions->consumers)
                if (e.consumer.stream == f.stream
                    && FindingCatalogue::title(f.code, {{QStringLiteral("consumer"), e.name}, {QStringLiteral("stream"), f.stream}})
                        == f.title)
                    durable = e.name;
        const QString hash = MqttLayout::durableOwnerHash(f.stream, durable);
        if (durable.isEmpty() || hash.isEmpty()) {
            *note = QStringLiteral("%1 (%2): the consumer was not among the gathered ones; run check with the account's credentials "
                                   "and plan again.")
                        .arg(f.code, f.title);
            return {};
        }
        const QString subject = GatheredSessions::subjectOfHash(ctx, hash);
        const SessionEntry *entry = GatheredSessions::entryOn(ctx, subject);
        WatchedSubject w{subject, entry ? entry->seq : 0, false};
        RepairStep s = deleteConsumerStep(ctx, f.stream, durable,
                                          QStringLiteral("(orphaned: no session record references it%1)")
                                              .arg(entry ? QStringLiteral("; the record on %1 names other durables").arg(subject)
                                                         : QStringLiteral("; %1 holds no record").arg(subject)),
                                          {w});
        if (ctx.sessions && !ctx.sessions->connected)
            *note = QStringLiteral("%1: connected clients were unknown when the plan was made; the step asks the servers (CONNZ) "
                                   "right before it runs.")
                        .arg(durable);
        return {s};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (!*info)
            return Precondition::alreadyDone(QStringLiteral("%1 no longer exists on %2").arg(step.consumer, step.stream));
        for (const QJsonValue &v : step.params.value(QLatin1String("watched")).toArray()) {
            const WatchedSubject w = WatchedSubject::fromJson(v.toObject());
            auto rec = SessionLiveState::lastOnSubject(ctx, sessStream, w.subject);
            if (!rec)
                return rec.error();
            if (!*rec)
                continue;
            if ((*rec)->seq != w.seq)
                return Precondition::changed(QStringLiteral("a session record was written on %1 since the plan (sequence %2, the plan "
                                                            "saw %3): a client with that hash connected")
                                                 .arg(w.subject)
                                                 .arg((*rec)->seq)
                                                 .arg(w.seq == 0 ? QStringLiteral("none") : QString::number(w.seq)));
            // The record the plan saw: an earlier step purges it (a dry run still sees it), or it names other durables.
            if (!w.purgedBefore && SessionLiveState::recordReferences((*rec)->data, step.consumer))
                return Precondition::changed(QStringLiteral("the record on %1 references %2").arg(w.subject, step.consumer));
        }
        const QString hash = step.params.value(QLatin1String("hash")).toString();
        if (step.params.value(QLatin1String("while_connected")).toBool())
            return Precondition::run();
        if (const auto clients = SessionLiveState::connectedNow(ctx)) {
            for (auto it = clients->cbegin(); it != clients->cend(); ++it)
                if (!hash.isEmpty() && ClientIdHash::hash(it.key()) == hash)
                    return Precondition::changed(
                        QStringLiteral("MQTT client \"%1\", whose ID hashes to %2, is connected to %3").arg(it.key(), hash, it.value()));
        }
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(name()); !w)
            return w.error();
        auto reply = ctx.api(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(step.stream, step.consumer));
        if (reply)
            return QJsonArray{*reply};
        if (reply.error().jsErrCode() == JsErrors::ConsumerNotFound) // already gone: a rerun
            return QJsonArray{QJsonObject{{QStringLiteral("note"), QStringLiteral("%1 was already deleted").arg(step.consumer)}}};
        return reply.error().prefixed(QStringLiteral("deleting %1 on %2").arg(step.consumer, step.stream));
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto info = ctx.consumerInfo(step.stream, step.consumer);
        if (!info)
            return info.error();
        if (*info)
            return Error(Error::Kind::Internal, QStringLiteral("%1 still exists on %2").arg(step.consumer, step.stream));
        return {};
    }
};

} // namespace

QJsonObject WatchedSubject::toJson() const
{
    return QJsonObject{
        {QStringLiteral("subject"), subject}, {QStringLiteral("seq"), qint64(seq)}, {QStringLiteral("purged_before"), purgedBefore}};
}

WatchedSubject WatchedSubject::fromJson(const QJsonObject &o)
{
    WatchedSubject w;
    w.subject = o.value(QLatin1String("subject")).toString();
    w.seq = quint64(o.value(QLatin1String("seq")).toInteger());
    w.purgedBefore = o.value(QLatin1String("purged_before")).toBool();
    return w;
}

RepairStep deleteConsumerStep(const PlanContext &ctx, const QString &stream, const QString &name, const QString &why,
                              const QList<WatchedSubject> &watched)
{
    const QJsonObject info = GatheredSessions::consumerInfo(ctx, name);
    const QJsonObject config = info.value(QLatin1String("config")).toObject();
    const QString filter = config.value(QLatin1String("filter_subject")).toString();
    const QString hash = MqttLayout::durableOwnerHash(stream, name);
    RepairStep s;
    s.action = RepairActions::deleteConsumer();
    s.stream = stream;
    s.consumer = name;
    // The messages it holds leave the stream with it (interest retention): they are backed up first, read
    // by subject with STREAM.MSG.GET (never a consumer on an interest stream), so "backed up" is true.
    const qint64 held = info.value(QLatin1String("num_pending")).toInteger() + info.value(QLatin1String("num_ack_pending")).toInteger();
    s.description =
        QStringLiteral("Delete the durable %1 on %2 (filter %3; %4%5) %6")
            .arg(name, stream, filter.isEmpty() ? QStringLiteral("-") : filter, GatheredSessions::pendingText(info),
                 held > 0 ? QStringLiteral(": the messages on its filter are backed up first, then dropped with it") : QString(), why);
    s.requests = {RepairRequest{ctx.apiSubject(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(stream, name)), {}}};
    s.destructive = true;
    RepairBackupSpec b;
    b.stream = stream;
    b.includeMessages = held > 0;
    b.subject = held > 0 ? filter : QString();
    b.allConsumers = false;
    b.consumers = {name};
    s.backups = {b};
    QStringList subjects;
    QJsonArray watchedJson;
    for (const WatchedSubject &w : watched) {
        subjects << w.subject;
        watchedJson.append(w.toJson());
    }
    s.precondition = QStringLiteral("%1 still exists; no session record on %2 references it or was written since the plan; no "
                                    "MQTT client whose ID hashes to %3 is connected (CONNZ through the account's connection; "
                                    "where no server answers it, a reconnect still shows as a new record, because servers "
                                    "save the session at every CONNECT)")
                         .arg(name, subjects.join(QStringLiteral(", ")), hash.isEmpty() ? QStringLiteral("-") : hash);
    s.undo = held > 0 ? QStringLiteral("restore the step's backup file (recreates the durable with its config and republishes the "
                                       "messages of its filter, which every durable on that filter then receives again)")
                      : QStringLiteral("restore the step's backup file (recreates the durable with its config; it held no message)");
    s.verification = QStringLiteral("CONSUMER.INFO of %1 on %2 answers \"consumer not found\"").arg(name, stream);
    s.params = QJsonObject{{QStringLiteral("hash"), hash},
                           {QStringLiteral("watched"), watchedJson},
                           {QStringLiteral("num_pending"), info.value(QLatin1String("num_pending"))},
                           {QStringLiteral("num_ack_pending"), info.value(QLatin1String("num_ack_pending"))}};
    return s;
}

} // namespace MqttDoctor::SessionRepair

namespace MqttDoctor::RepairActionFamilies {

const RepairAction *deleteConsumerAction()
{
    static const SessionRepair::DeleteConsumer action;
    return &action;
}

const RepairAction *createConsumerAction()
{
    static const SessionRepair::CreateConsumer action;
    return &action;
}

} // namespace MqttDoctor::RepairActionFamilies
