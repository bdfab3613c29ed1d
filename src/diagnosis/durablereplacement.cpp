#include "durablereplacement.h"

#include <QHash>

#include <algorithm>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

QList<DurableReplacement> DurableReplacement::ofAccount(const SessionCheckInput &input)
{
    QList<DurableReplacement> out;
    if (!input.consumersKnown)
        return out;
    // Only records with a missing durable matter, and those are few: nothing is indexed until one is found.
    const auto missingSubscriptionDurable = [](const SessionConsumer &c) {
        return !c.exists && !c.name.isEmpty() && c.sid != QLatin1String("pubrel");
    };
    const bool anyMissing = std::any_of(input.sessions.begin(), input.sessions.end(), [&](const SessionEntry &e) {
        return e.record && !e.isLegacy() && std::any_of(e.consumers.cbegin(), e.consumers.cend(), missingSubscriptionDurable);
    });
    if (!anyMissing)
        return out;
    const QString msgs = MqttLayout::messagesStream();
    // The live durables of $MQTT_msgs that could stand in for a session's (a hash in their name), then
    // those no record names: the set is as big as the live durables, not as the records (an account
    // whose durables are all gone has none, and a million records are not put in a set for nothing).
    QHash<QString, const SessionLoader::ConsumerIndex::Entry *> unnamed; // name -> entry
    for (const SessionLoader::ConsumerIndex::Entry &entry : input.consumers)
        if (entry.consumer.stream == msgs && !MqttLayout::durableOwnerHash(msgs, entry.name).isEmpty())
            unnamed.insert(entry.name, &entry);
    if (unnamed.isEmpty())
        return out;
    for (const SessionEntry &e : input.sessions)
        if (e.record && !e.isLegacy())
            for (const SessionConsumer &c : e.consumers)
                unnamed.remove(c.name);
    // hash -> the unnamed durables of $MQTT_msgs with that hash, in the index's order
    QHash<QString, QList<const SessionLoader::ConsumerIndex::Entry *>> unnamedByHash;
    for (const SessionLoader::ConsumerIndex::Entry &entry : input.consumers)
        if (unnamed.value(entry.name) == &entry)
            unnamedByHash[MqttLayout::durableOwnerHash(msgs, entry.name)].append(&entry);
    QSet<QString> taken; // a live durable answers one missing name only
    for (const SessionEntry &e : input.sessions) {
        if (!e.record || e.isLegacy())
            continue;
        for (const SessionConsumer &c : e.consumers) {
            if (!missingSubscriptionDurable(c))
                continue;
            const auto candidates = unnamedByHash.constFind(e.hash);
            if (candidates == unnamedByHash.cend())
                continue;
            const QString filter = e.recordedConfig(c).value(QLatin1String("filter_subject")).toString();
            const SessionLoader::ConsumerIndex::Entry *match = nullptr;
            int matches = 0;
            for (const SessionLoader::ConsumerIndex::Entry *candidate : *candidates)
                if (!taken.contains(candidate->name)
                    && candidate->consumer.config.value(QLatin1String("filter_subject")).toString() == filter) {
                    match = candidate;
                    ++matches;
                }
            if (matches != 1)
                continue;
            taken.insert(match->name);
            DurableReplacement r;
            r.clientId = e.clientId;
            r.subject = e.subject;
            r.seq = e.seq;
            r.sid = c.sid;
            r.stream = msgs;
            r.filterSubject = filter;
            r.recorded = c.name;
            r.live = match->name;
            r.livePending = match->consumer.numPending;
            r.liveAckPending = match->consumer.numAckPending;
            out.append(r);
        }
    }
    return out;
}

QSet<QString> DurableReplacement::namesOf(const QList<DurableReplacement> &replacements)
{
    QSet<QString> out;
    for (const DurableReplacement &r : replacements)
        out << r.recorded << r.live;
    return out;
}

} // namespace MqttDoctor
