#include "interestholder.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>

#include "diagnosis/consumerowner.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

QString InterestHolder::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Session: return QStringLiteral("session");
    case Kind::ConnectedClient: return QStringLiteral("connected_client");
    case Kind::Orphan: return QStringLiteral("orphan");
    case Kind::UndecodableRecord: return QStringLiteral("undecodable_record");
    case Kind::NotMqtt: return QStringLiteral("not_mqtt");
    }
    return QStringLiteral("orphan");
}

QJsonObject InterestHolder::toJson() const
{
    const auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    return QJsonObject{{QStringLiteral("kind"), kindName(kind)},
                       {QStringLiteral("client_id"), orNull(clientId)},
                       {QStringLiteral("hash"), orNull(hash)},
                       {QStringLiteral("subject"), orNull(subject)},
                       {QStringLiteral("seq"), kind == Kind::Session ? QJsonValue(qint64(seq)) : QJsonValue()},
                       {QStringLiteral("written"), written.isValid() ? QJsonValue(written.toString(Qt::ISODateWithMs)) : QJsonValue()},
                       {QStringLiteral("clean"), clean},
                       {QStringLiteral("connected"), connected ? QJsonValue(*connected) : QJsonValue()},
                       {QStringLiteral("server"), orNull(server)},
                       {QStringLiteral("durables"), QJsonArray::fromStringList(durables)},
                       {QStringLiteral("messages"), messages},
                       {QStringLiteral("unacknowledged"), unacknowledged},
                       {QStringLiteral("bytes"), bytes}};
}

namespace {

InterestHolder::Kind holderKindOf(ConsumerOwner::Kind kind)
{
    switch (kind) {
    case ConsumerOwner::Kind::Session: return InterestHolder::Kind::Session;
    case ConsumerOwner::Kind::ConnectedClient: return InterestHolder::Kind::ConnectedClient;
    case ConsumerOwner::Kind::UndecodableRecord: return InterestHolder::Kind::UndecodableRecord;
    case ConsumerOwner::Kind::NotMqtt: return InterestHolder::Kind::NotMqtt;
    case ConsumerOwner::Kind::Orphan: return InterestHolder::Kind::Orphan;
    }
    return InterestHolder::Kind::Orphan;
}

} // namespace

QList<InterestHolder> InterestHolder::ofAccount(const SessionCheckInput &input, const AccountInfo &account)
{
    return ofAccount(input, account, ConsumerOwner::ofAccount(input));
}

QList<InterestHolder> InterestHolder::ofAccount(const SessionCheckInput &input, const AccountInfo &account,
                                                const QList<ConsumerOwner> &owners)
{
    QList<InterestHolder> out;
    // The average stored message of each interest stream.
    QHash<QString, double> averageBytes;
    for (const StreamInfo &s : account.streams) {
        const qint64 messages = s.state.value(QLatin1String("messages")).toInteger();
        if (messages > 0)
            averageBytes.insert(s.name, double(s.state.value(QLatin1String("bytes")).toInteger()) / double(messages));
    }
    // Only the durables that hold something are grouped: most of a big account's hold nothing.
    QHash<QString, qsizetype> holderAt; // owner key -> index in out
    for (const ConsumerOwner &o : owners) {
        const qint64 held = o.numPending + o.numAckPending;
        if (held <= 0)
            continue;
        // A durable standing in for a record's missing one holds that session's messages.
        const Kind kind = o.replacing.isEmpty() ? holderKindOf(o.kind) : Kind::Session;
        const QString key = (kind == Kind::Session || kind == Kind::ConnectedClient) ? QStringLiteral("c:") + o.clientId
            : kind == Kind::NotMqtt                                                  ? QStringLiteral("n:") + o.name
                                                                                     : QStringLiteral("h:") + o.hash;
        auto at = holderAt.constFind(key);
        if (at == holderAt.cend()) {
            InterestHolder h;
            h.kind = kind;
            h.clientId = (kind == Kind::Session || kind == Kind::ConnectedClient) ? o.clientId : QString();
            h.hash = o.hash;
            if (kind == Kind::ConnectedClient)
                h.connected = true;
            else if (kind != Kind::Session && input.connected)
                h.connected = false;
            if (kind == Kind::ConnectedClient && input.connected)
                h.server = input.connected->value(o.clientId);
            out.append(h);
            at = holderAt.insert(key, out.size() - 1);
        }
        InterestHolder &h = out[*at];
        h.durables.append(o.name);
        h.messages += held;
        h.unacknowledged += o.numAckPending;
        h.bytes += qint64(double(held) * averageBytes.value(o.stream, 0.0) + 0.5);
    }
    // The sessions' own facts, from their records (only those that hold something are looked up).
    QHash<QString, qsizetype> sessionAt;
    for (qsizetype i = 0; i < out.size(); ++i)
        if (out.at(i).kind == Kind::Session)
            sessionAt.insert(out.at(i).clientId, i);
    if (!sessionAt.isEmpty())
        for (const SessionEntry &e : input.sessions) {
            if (!e.record || e.isLegacy())
                continue;
            const auto it = sessionAt.constFind(e.clientId);
            if (it == sessionAt.cend())
                continue;
            InterestHolder &h = out[*it];
            h.hash = e.hash;
            h.subject = e.subject;
            h.seq = e.seq;
            h.written = e.time;
            h.clean = e.clean;
            if (input.connected) {
                h.connected = input.connected->contains(e.clientId);
                h.server = input.connected->value(e.clientId);
            }
        }
    for (InterestHolder &h : out)
        std::sort(h.durables.begin(), h.durables.end());
    std::sort(out.begin(), out.end(), [](const InterestHolder &a, const InterestHolder &b) {
        if (a.bytes != b.bytes)
            return a.bytes > b.bytes;
        if (a.messages != b.messages)
            return a.messages > b.messages;
        if (a.clientId != b.clientId)
            return a.clientId < b.clientId;
        return a.hash < b.hash;
    });
    return out;
}

} // namespace MqttDoctor
