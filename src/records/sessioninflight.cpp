#include "records/sessioninflight.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

QJsonValue problemJson(const QString &p)
{
    return p.isEmpty() ? QJsonValue() : QJsonValue(p);
}

} // namespace

QJsonValue SessionInflight::timeJson(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

void SessionInflight::keepOlder(QDateTime &oldest, const QDateTime &t)
{
    if (t.isValid() && (!oldest.isValid() || t < oldest))
        oldest = t;
}

QDateTime SessionInflight::oldest() const
{
    QDateTime out;
    for (const Queued &q : queued)
        keepOlder(out, q.time);
    for (const Qos2Incoming &q : qos2Incoming)
        keepOlder(out, q.time);
    for (const PubRel &p : pubrelPending)
        keepOlder(out, p.time);
    return out;
}

QJsonObject SessionInflight::toJson(const Queued &q)
{
    return QJsonObject{{QStringLiteral("consumer"), q.consumer},
                       {QStringLiteral("seq"), qint64(q.seq)},
                       {QStringLiteral("subject"), q.subject},
                       {QStringLiteral("topic"), q.topic},
                       {QStringLiteral("qos"), q.qos},
                       {QStringLiteral("size"), q.size},
                       {QStringLiteral("time"), timeJson(q.time)},
                       {QStringLiteral("delivered"), q.delivered},
                       {QStringLiteral("delivered_exact"), q.deliveredExact},
                       {QStringLiteral("payload_preview"), q.payloadPreview},
                       {QStringLiteral("problem"), problemJson(q.problem)}};
}

QJsonObject SessionInflight::toJson(const Qos2Incoming &q)
{
    return QJsonObject{{QStringLiteral("packet_id"), q.packetId},     {QStringLiteral("seq"), qint64(q.seq)},
                       {QStringLiteral("stored_subject"), q.subject}, {QStringLiteral("topic"), q.topic},
                       {QStringLiteral("retain"), q.retain},          {QStringLiteral("size"), q.size},
                       {QStringLiteral("time"), timeJson(q.time)},    {QStringLiteral("problem"), problemJson(q.problem)}};
}

QJsonObject SessionInflight::toJson(const PubRel &p)
{
    return QJsonObject{{QStringLiteral("packet_id"), p.packetId},
                       {QStringLiteral("seq"), qint64(p.seq)},
                       {QStringLiteral("time"), timeJson(p.time)},
                       {QStringLiteral("problem"), problemJson(p.problem)}};
}

void SessionInflight::addToJson(QJsonObject &session) const
{
    QJsonArray q;
    for (const Queued &m : queued)
        q.append(toJson(m));
    QJsonArray in;
    for (const Qos2Incoming &m : qos2Incoming)
        in.append(toJson(m));
    QJsonArray out;
    for (const PubRel &p : pubrelPending)
        out.append(toJson(p));
    session.insert(QStringLiteral("queued"), q);
    session.insert(QStringLiteral("queued_total"), queuedTotal);
    session.insert(QStringLiteral("qos2_incoming"), in);
    session.insert(QStringLiteral("qos2_incoming_total"), qos2IncomingTotal);
    session.insert(QStringLiteral("pubrel_pending"), out);
    session.insert(QStringLiteral("pubrel_pending_total"), pubrelTotal);
    session.insert(QStringLiteral("inflight_limit"), limit);
    session.insert(QStringLiteral("qos2_streams"), qos2Streams);
    session.insert(QStringLiteral("inflight_notes"), QJsonArray::fromStringList(notes));
}

} // namespace MqttDoctor
