#include "records/accountinflight.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

QJsonValue ageJson(const QDateTime &t, const QDateTime &now)
{
    return t.isValid() && now.isValid() ? QJsonValue(qMax<qint64>(0, t.secsTo(now))) : QJsonValue();
}

QJsonArray intArray(const QList<int> &values)
{
    QJsonArray out;
    for (int v : values)
        out.append(v);
    return out;
}

} // namespace

QDateTime AccountInflight::Session::oldest() const
{
    QDateTime out;
    if (oldestQueued)
        SessionInflight::keepOlder(out, oldestQueued->time);
    SessionInflight::keepOlder(out, oldestQos2Incoming);
    SessionInflight::keepOlder(out, oldestPubrel);
    return out;
}

QJsonObject AccountInflight::Session::toJson(const QDateTime &now) const
{
    return QJsonObject{{QStringLiteral("client_id"), clientId.isEmpty() ? QJsonValue() : QJsonValue(clientId)},
                       {QStringLiteral("hash"), hash},
                       {QStringLiteral("subject"), subject},
                       {QStringLiteral("queued_total"), queuedTotal},
                       {QStringLiteral("oldest_queued"), oldestQueued ? QJsonValue(SessionInflight::toJson(*oldestQueued)) : QJsonValue()},
                       {QStringLiteral("qos2_incoming_total"), qos2Incoming},
                       {QStringLiteral("oldest_qos2_incoming"), SessionInflight::timeJson(oldestQos2Incoming)},
                       {QStringLiteral("qos2_incoming_packet_ids"), intArray(qos2PacketIds)},
                       {QStringLiteral("pubrel_pending_total"), pubrelPending},
                       {QStringLiteral("oldest_pubrel"), SessionInflight::timeJson(oldestPubrel)},
                       {QStringLiteral("pubrel_packet_ids"), intArray(pubrelPacketIds)},
                       {QStringLiteral("oldest"), SessionInflight::timeJson(oldest())},
                       {QStringLiteral("age_seconds"), ageJson(oldest(), now)}};
}

AccountInflight AccountInflight::olderThan(const QDateTime &cutoff) const
{
    if (!cutoff.isValid())
        return *this;
    AccountInflight out = *this;
    out.sessions.clear();
    out.orphans.clear();
    for (const Session &s : sessions)
        if (s.oldest().isValid() && s.oldest() < cutoff)
            out.sessions.append(s);
    for (const Qos2Records::Orphans &o : orphans)
        if (o.oldest.isValid() && o.oldest < cutoff)
            out.orphans.append(o);
    return out;
}

QJsonObject AccountInflight::toJson() const
{
    QJsonArray s;
    for (const Session &session : sessions)
        s.append(session.toJson(now));
    QJsonArray o;
    for (const Qos2Records::Orphans &orphan : orphans)
        o.append(orphan.toJson());
    return QJsonObject{{QStringLiteral("account"), account},
                       {QStringLiteral("sessions"), s},
                       {QStringLiteral("orphans"), o},
                       {QStringLiteral("qos2_streams"), qos2Streams},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
                       {QStringLiteral("time"), SessionInflight::timeJson(now)}};
}

} // namespace MqttDoctor
