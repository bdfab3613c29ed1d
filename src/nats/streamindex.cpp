#include "nats/streamindex.h"

#include <algorithm>

#include <QJsonArray>
#include <QJsonObject>

#include "nats/jetstreamclient.h"

namespace MqttDoctor {

StreamIndex::StreamIndex(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{}

QList<quint64> SequenceMap::liveSequences() const
{
    QList<quint64> out;
    if (lastSequence < firstSequence || firstSequence == 0)
        return out;
    out.reserve(static_cast<qsizetype>(std::min<quint64>(lastSequence - firstSequence + 1, 50'000'000)));
    auto del = deleted.cbegin();
    for (quint64 s = firstSequence; s <= lastSequence; ++s) {
        while (del != deleted.cend() && *del < s)
            ++del;
        if (del != deleted.cend() && *del == s)
            continue;
        out.append(s);
    }
    return out;
}

Result<SequenceMap> StreamIndex::sequenceMap(const QString &stream)
{
    const QString op = QStringLiteral("STREAM.INFO.") + stream;
    auto info = JetStreamClient(m_connection, m_domain).streamInfo(stream, {{QStringLiteral("deleted_details"), true}});
    if (!info)
        return info.error();
    const QJsonObject state = info->value(QLatin1String("state")).toObject();
    SequenceMap map;
    map.messages = quint64(state.value(QLatin1String("messages")).toInteger());
    map.firstSequence = quint64(state.value(QLatin1String("first_seq")).toInteger());
    map.lastSequence = quint64(state.value(QLatin1String("last_seq")).toInteger());
    const QJsonValue deletedValue = state.value(QLatin1String("deleted"));
    if (!deletedValue.isUndefined() && !deletedValue.isNull() && !deletedValue.isArray())
        return JetStreamClient::malformed(op, QStringLiteral("state.deleted is not an array"));
    const QJsonArray deleted = deletedValue.toArray();
    map.deleted.reserve(deleted.size());
    for (const QJsonValue &v : deleted) {
        const qint64 seq = v.toInteger(-1); // 2.10 lists sequence 0 for a recreated empty stream
        if (seq < 0 || !v.isDouble())
            return JetStreamClient::malformed(op, QStringLiteral("state.deleted holds something other than sequence numbers"));
        map.deleted.append(quint64(seq));
    }
    std::sort(map.deleted.begin(), map.deleted.end());
    map.deleted.erase(std::unique(map.deleted.begin(), map.deleted.end()), map.deleted.end());
    // The live sequences are enumerated from this: the range must agree with the message count, or
    // a bogus last_seq would have the caller list (and request) billions of sequences.
    if (map.lastSequence >= map.firstSequence && map.firstSequence > 0) {
        const quint64 range = map.lastSequence - map.firstSequence + 1;
        quint64 inside = 0;
        for (quint64 d : std::as_const(map.deleted))
            inside += (d >= map.firstSequence && d <= map.lastSequence) ? 1 : 0;
        // Same bound as StreamContent's: a real, dense stream passes; 2.9.10 serving a 2.10+ store was
        // seen reporting about a billion sequences for a handful of messages.
        // Past 100 million live sequences the list alone would take most of a machine's memory.
        if ((range - inside > 20'000'000 && range - inside > 4 * map.messages + 100000) || range - inside > 100'000'000)
            return Error(Error::Kind::Protocol,
                         QStringLiteral(
                             "JetStream %1: sequences %2..%3 with %4 deleted cannot hold only %5 messages: too sparse to read by sequence")
                             .arg(op)
                             .arg(map.firstSequence)
                             .arg(map.lastSequence)
                             .arg(inside)
                             .arg(map.messages),
                         QStringLiteral("if a 2.9 server serves streams a 2.10+ server wrote, upgrade it again first; otherwise "
                                        "check what answers on $JS.API for this account"));
    }
    return map;
}

Result<QList<SubjectCount>> StreamIndex::subjectCounts(const QString &stream, const QString &filter)
{
    JetStreamClient js(m_connection, m_domain);
    QList<SubjectCount> out;
    qint64 offset = 0;
    for (int page = 0; page < 100000; ++page) {
        QJsonObject body;
        body.insert(QStringLiteral("subjects_filter"), filter.isEmpty() ? QStringLiteral(">") : filter);
        if (offset > 0)
            body.insert(QStringLiteral("offset"), offset);
        const QString op = QStringLiteral("STREAM.INFO.") + stream;
        auto info = js.streamInfo(stream, body);
        if (!info)
            return info.error();
        const QJsonValue subjectsValue = info->value(QLatin1String("state")).toObject().value(QLatin1String("subjects"));
        if (!subjectsValue.isUndefined() && !subjectsValue.isNull() && !subjectsValue.isObject())
            return JetStreamClient::malformed(op, QStringLiteral("state.subjects is not an object of subject counts"));
        const QJsonObject subjects = subjectsValue.toObject();
        for (auto it = subjects.constBegin(); it != subjects.constEnd(); ++it) {
            const qint64 n = it.value().toInteger(-1);
            if (n < 0)
                return JetStreamClient::malformed(op, QStringLiteral("the count of subject %1 is not a number").arg(it.key().left(100)));
            out.append({it.key(), quint64(n)});
        }
        offset += subjects.size();
        if (out.size() > 20'000'000)
            return JetStreamClient::malformed(op, QStringLiteral("more than 20,000,000 subjects"));
        const qint64 total = info->value(QLatin1String("total")).toInteger();
        if (subjects.isEmpty() || offset >= total || page == 99999)
            break;
    }
    std::sort(out.begin(), out.end(), [](const SubjectCount &a, const SubjectCount &b) { return a.subject < b.subject; });
    return out;
}

} // namespace MqttDoctor
