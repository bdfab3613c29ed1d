#include "records/qos2records.h"

#include <QJsonArray>

#include <algorithm>
#include <map>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

QJsonObject Qos2Records::Orphans::toJson() const
{
    QJsonArray seqs;
    for (quint64 s : sequences)
        seqs.append(qint64(s));
    QJsonArray pis;
    for (int p : packetIds)
        pis.append(p);
    return QJsonObject{
        {QStringLiteral("stream"), stream},
        {QStringLiteral("client_id"), clientId.isEmpty() ? QJsonValue() : QJsonValue(clientId)},
        {QStringLiteral("hash"), hash},
        {QStringLiteral("subject"), subjectFilter},
        {QStringLiteral("records"), qint64(sequences.size())},
        {QStringLiteral("sequences"), seqs},
        {QStringLiteral("packet_ids"), pis},
        {QStringLiteral("bytes"), bytes},
        {QStringLiteral("oldest"), oldest.isValid() ? QJsonValue(oldest.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue()}};
}

QString Qos2Records::qos2InFilter(const QString &clientId)
{
    if (clientId.isEmpty() || clientId.startsWith(QLatin1Char('.')) || clientId.endsWith(QLatin1Char('.'))
        || clientId.contains(QStringLiteral("..")))
        return {};
    for (QChar c : clientId)
        if (c == QLatin1Char('*') || c == QLatin1Char('>') || c.isSpace() || c.unicode() < 0x20)
            return {};
    return QStringLiteral("$MQTT.qos2.in.") + clientId + QStringLiteral(".*");
}

QList<Qos2Records::Orphans> Qos2Records::orphans(const QSet<QString> &sessionHashes) const
{
    // Keyed by (stream order, hash, client ID) so that the result is in a stable order.
    std::map<std::tuple<int, QString, QString>, Orphans> groups;
    for (const Record &r : records) {
        if (r.hash.isEmpty() || sessionHashes.contains(r.hash))
            continue;
        const int order = r.stream == MqttLayout::qos2InStream() ? 0 : 1;
        Orphans &o = groups[{order, r.hash, r.clientId}];
        if (o.sequences.isEmpty()) {
            o.stream = r.stream;
            o.clientId = r.clientId;
            o.hash = r.hash;
            o.subjectFilter = order == 0 ? qos2InFilter(r.clientId) : QStringLiteral("$MQTT.out.pubrel.") + r.hash;
        }
        o.sequences.append(r.seq);
        if (r.packetId > 0)
            o.packetIds.append(r.packetId);
        o.bytes += r.size;
        if (r.time.isValid() && (!o.oldest.isValid() || r.time < o.oldest))
            o.oldest = r.time;
    }
    QList<Orphans> out;
    for (auto &[key, o] : groups) {
        std::sort(o.sequences.begin(), o.sequences.end());
        out.append(std::move(o));
    }
    return out;
}

} // namespace MqttDoctor
