#include "repair/actions/gatheredsessions.h"

#include "mqtt/mqttlayout.h"

namespace MqttDoctor::GatheredSessions {

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

QString pendingText(const QJsonObject &info)
{
    return QStringLiteral("%1 pending, %2 unacknowledged")
        .arg(info.value(QLatin1String("num_pending")).toInteger())
        .arg(info.value(QLatin1String("num_ack_pending")).toInteger());
}

} // namespace MqttDoctor::GatheredSessions
