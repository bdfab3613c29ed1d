#include "repair/actions/sessionactionsupport.h"

#include <QJsonArray>

#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/sessionrecord.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"

namespace MqttDoctor::SessionRepair {

namespace {


Result<std::optional<StoredRecord>> msgGet(const ExecContext &ctx, const QString &stream, const QJsonObject &body)
{
    auto reply = ctx.api(QStringLiteral("STREAM.MSG.GET.") + stream, body);
    if (!reply) {
        const int code = reply.error().jsErrCode();
        if (code == JsErrors::NoMessageFound || code == JsErrors::StreamNotFound)  // no message found, stream not found
            return std::optional<StoredRecord>();
        return reply.error();
    }
    const QJsonObject m = reply->value(QLatin1String("message")).toObject();
    StoredRecord r;
    r.subject = m.value(QLatin1String("subject")).toString();
    r.seq = quint64(m.value(QLatin1String("seq")).toInteger());
    r.timeNs = MessageGetter::parseTimeNs(m.value(QLatin1String("time")).toString());
    r.headers = QByteArray::fromBase64(m.value(QLatin1String("hdrs")).toString().toLatin1());
    r.data = QByteArray::fromBase64(m.value(QLatin1String("data")).toString().toLatin1());
    return std::optional<StoredRecord>(r);
}

} // namespace

Result<std::optional<StoredRecord>> lastOnSubject(const ExecContext &ctx, const QString &stream, const QString &subject)
{
    return msgGet(ctx, stream, QJsonObject{{QStringLiteral("last_by_subj"), subject}});
}

Result<std::optional<StoredRecord>> bySequence(const ExecContext &ctx, const QString &stream, quint64 seq)
{
    return msgGet(ctx, stream, QJsonObject{{QStringLiteral("seq"), qint64(seq)}});
}

std::optional<SessionLoader::ConnectedClients> connectedNow(const ExecContext &ctx, const QString &clientId)
{
    if (!ctx.target.connection)
        return std::nullopt;
    auto clients = SessionLoader::loadConnected(ctx.target.connection, ctx.target.account, clientId);
    if (!clients)
        return std::nullopt;
    return *clients;
}

bool recordReferences(const QByteArray &body, const QString &name)
{
    auto rec = SessionRecord::decode(body);
    return rec && rec->durableNames().contains(name);
}

const SessionEntry *entryOn(const PlanContext &ctx, const QString &subject)
{
    if (!ctx.sessions)
        return nullptr;
    for (const SessionEntry &e : ctx.sessions->sessions)
        if (e.subject == subject)
            return &e;
    return nullptr;
}

QStringList referencingSubjects(const PlanContext &ctx, const QString &name, const QString &exceptSubject)
{
    QStringList out;
    if (!ctx.sessions)
        return out;
    for (const SessionEntry &e : ctx.sessions->sessions) {
        if (!e.record || e.subject == exceptSubject)
            continue;
        if (e.record->durableNames().contains(name))
            out << e.subject;
    }
    return out;
}

QJsonObject consumerInfo(const PlanContext &ctx, const QString &name)
{
    const SessionLoader::IndexedConsumer *c = ctx.sessions ? ctx.sessions->consumers.find(name) : nullptr;
    return c ? c->info : QJsonObject();
}

QStringList durablesOfHash(const PlanContext &ctx, const QString &hash)
{
    QStringList out;
    if (!ctx.sessions)
        return out;
    for (const SessionLoader::ConsumerIndex::Entry &e : ctx.sessions->consumers)
        if (MqttLayout::durableOwnerHash(e.consumer.stream, e.name) == hash)
            out << e.name;
    out.sort();
    return out;
}

QString subjectOfHash(const PlanContext &ctx, const QString &hash)
{
    if (ctx.sessions)
        for (const SessionEntry &e : ctx.sessions->sessions)
            if (e.hash == hash)
                return e.subject;
    return ctx.layout.layout.sessionSubject(hash);
}

QJsonObject WatchedSubject::toJson() const
{
    return QJsonObject{{QStringLiteral("subject"), subject},
                       {QStringLiteral("seq"), qint64(seq)},
                       {QStringLiteral("purged_before"), purgedBefore}};
}

WatchedSubject WatchedSubject::fromJson(const QJsonObject &o)
{
    WatchedSubject w;
    w.subject = o.value(QLatin1String("subject")).toString();
    w.seq = quint64(o.value(QLatin1String("seq")).toInteger());
    w.purgedBefore = o.value(QLatin1String("purged_before")).toBool();
    return w;
}

QString pendingText(const QJsonObject &info)
{
    return QStringLiteral("%1 pending, %2 unacknowledged")
        .arg(info.value(QLatin1String("num_pending")).toInteger())
        .arg(info.value(QLatin1String("num_ack_pending")).toInteger());
}

RepairStep deleteConsumerStep(const PlanContext &ctx, const QString &stream, const QString &name, const QString &why,
                              const QList<WatchedSubject> &watched)
{
    const QJsonObject info = consumerInfo(ctx, name);
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
    s.description = QStringLiteral("Delete the durable %1 on %2 (filter %3; %4%5) %6")
                        .arg(name, stream, filter.isEmpty() ? QStringLiteral("-") : filter, pendingText(info),
                             held > 0 ? QStringLiteral(": the messages on its filter are backed up first, then dropped with it")
                                      : QString(),
                             why);
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
