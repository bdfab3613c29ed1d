#include "consumerowner.h"

#include <QHash>
#include <QJsonObject>
#include <QSet>

#include "diagnosis/durablereplacement.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

QList<ConsumerOwner> ConsumerOwner::ofAccount(const SessionCheckInput &input)
{
    if (!input.consumersKnown || input.consumers.isEmpty())
        return {};
    return ofAccount(input, DurableReplacement::ofAccount(input));
}

QList<ConsumerOwner> ConsumerOwner::ofAccount(const SessionCheckInput &input, const QList<DurableReplacement> &replacements)
{
    QList<ConsumerOwner> out;
    if (!input.consumersKnown || input.consumers.isEmpty())
        return out; // no durable to own: the indexes of a hundred thousand records are not needed
    QHash<QString, QString> referencedBy; // durable -> client ID of the record naming it
    QHash<QString, QString> clientOfHash; // hash -> client ID of the decodable record on it
    QSet<QString> brokenHashes; // hashes with an undecodable record
    for (const SessionEntry &e : input.sessions) {
        if (e.isLegacy())
            continue;
        if (!e.record) {
            brokenHashes.insert(e.hash);
            continue;
        }
        clientOfHash.insert(e.hash, e.clientId);
        for (const SessionConsumer &c : e.consumers)
            referencedBy.insert(c.name, e.clientId);
    }
    QHash<QString, QString> connectedOfHash;
    if (input.connected)
        for (auto it = input.connected->cbegin(); it != input.connected->cend(); ++it)
            connectedOfHash.insert(ClientIdHash::hash(it.key()), it.key());

    out.reserve(input.consumers.size());
    for (const SessionLoader::ConsumerIndex::Entry &entry : input.consumers) {
        ConsumerOwner o;
        o.name = entry.name;
        o.stream = entry.consumer.stream;
        o.numPending = entry.consumer.numPending;
        o.numAckPending = entry.consumer.numAckPending;
        o.filterSubject = entry.consumer.config.value(QLatin1String("filter_subject")).toString();
        o.hash = MqttLayout::durableOwnerHash(o.stream, o.name);
        o.connectedUnknown = !input.connected.has_value();
        if (const auto it = referencedBy.constFind(o.name); it != referencedBy.constEnd()) {
            o.kind = Kind::Session;
            o.clientId = *it;
        } else if (o.hash.isEmpty()) {
            o.kind = Kind::NotMqtt;
        } else if (brokenHashes.contains(o.hash)) {
            o.kind = Kind::UndecodableRecord;
        } else if (const auto c = connectedOfHash.constFind(o.hash); c != connectedOfHash.constEnd()) {
            o.kind = Kind::ConnectedClient;
            o.clientId = *c;
        } else {
            o.kind = Kind::Orphan;
            o.recordOnHash = clientOfHash.value(o.hash);
        }
        out.append(o);
    }
    // A durable the server made in place of a record's missing one is that session's, under another name.
    if (!replacements.isEmpty()) {
        QHash<QString, const DurableReplacement *> byLive;
        for (const DurableReplacement &r : replacements)
            byLive.insert(r.live, &r);
        for (ConsumerOwner &o : out)
            if (const auto it = byLive.constFind(o.name); it != byLive.cend() && o.kind == Kind::Orphan) {
                o.replacing = (*it)->recorded;
                o.clientId = (*it)->clientId;
            }
    }
    return out;
}

} // namespace MqttDoctor
