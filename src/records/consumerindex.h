#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstdint>
#include <span>
#include <vector>

namespace MqttDoctor::SessionLoader {

/** One `CONSUMER.LIST` entry, with the fields the join reads taken out once (not per session). */
struct IndexedConsumer
{
    QString stream; ///< `$MQTT_msgs` or `$MQTT_out`
    qint64 numPending = 0;
    qint64 numAckPending = 0;
    QJsonObject config;
    QString unavailable; ///< why a cluster could not give its state (JetStreamClient's marker); empty: it did
    QJsonObject info; ///< the whole entry, plus `"stream"`
};

/**
 * The durables of `$MQTT_msgs`/`$MQTT_out` by name, for the session join: every loaded session looks
 * up one or more of its durables among what can be hundreds of thousands. The names and consumers sit
 * in one array in insertion order; an open-addressing table of (hash tag, position) pairs finds them,
 * so a lookup touches one table slot and the one entry it names. findMany() looks up a whole batch in
 * passes so that the memory latency of a large index overlaps instead of adding up per lookup.
 * A name inserted again replaces the earlier consumer (as a hash map would).
 */
class ConsumerIndex
{
public:
    struct Entry
    {
        QString name;
        IndexedConsumer consumer;
    };
    using const_iterator = std::vector<Entry>::const_iterator;
    /** How names are hashed: qHash() by default; tests pass a poor one to make names share tags and slots. */
    using HashFunction = size_t (*)(QStringView name, size_t seed);

    ConsumerIndex() = default;
    explicit ConsumerIndex(HashFunction hash) : m_hash(hash) {}

    void reserve(qsizetype count);
    void insert(const QString &name, IndexedConsumer consumer);
    /** The consumer named `name`, or null. */
    const IndexedConsumer *find(QStringView name) const;
    bool contains(QStringView name) const { return find(name) != nullptr; }
    /** `out[i]` = find(names[i]) for every i (`out` as long as `names`). */
    void findMany(std::span<const QStringView> names, std::span<const IndexedConsumer *> out) const;

    qsizetype size() const { return qsizetype(m_entries.size()); }
    bool isEmpty() const { return m_entries.empty(); }
    /** Every name, in insertion order. */
    QStringList names() const;
    const_iterator begin() const { return m_entries.cbegin(); }
    const_iterator end() const { return m_entries.cend(); }

private:
    static constexpr std::uint64_t kEmpty = 0;
    size_t hashOf(QStringView name) const;
    // A slot holds the hash's high 32 bits (the tag) and the entry's position + 1 (0: empty).
    static std::uint64_t slotFor(size_t hash, size_t position) { return (std::uint64_t(hash >> 32) << 32) | std::uint64_t(position + 1); }
    static bool tagMatches(std::uint64_t slot, size_t hash) { return (slot >> 32) == std::uint64_t(hash >> 32); }
    static size_t positionOf(std::uint64_t slot) { return size_t(slot & 0xffffffffu) - 1; }
    void rehash(size_t capacity);
    /** The slot index holding `name` (hash `hash`), or the empty slot where it would go. */
    size_t probe(QStringView name, size_t hash) const;

    std::vector<Entry> m_entries;
    std::vector<std::uint64_t> m_slots; // power-of-two size, at most half full
    size_t m_seed = 0;
    HashFunction m_hash = nullptr;
};

} // namespace MqttDoctor::SessionLoader
