#include "records/consumerindex.h"

#include <QHashFunctions>

#include <algorithm>

namespace MqttDoctor::SessionLoader {

namespace {

constexpr size_t kMinCapacity = 16;
constexpr size_t kNone = ~size_t(0);
// Lookups per findMany() pass: the state of one chunk stays on the stack.
constexpr size_t kChunk = 256;

inline void prefetch(const void *address)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    Q_UNUSED(address);
#endif
}

size_t capacityFor(size_t count)
{
    size_t capacity = kMinCapacity;
    while (capacity < count * 2)
        capacity *= 2;
    return capacity;
}

} // namespace

size_t ConsumerIndex::hashOf(QStringView name) const
{
    return m_hash ? m_hash(name, m_seed) : qHash(name, m_seed);
}

void ConsumerIndex::reserve(qsizetype count)
{
    if (count <= 0)
        return;
    m_entries.reserve(size_t(count));
    if (capacityFor(size_t(count)) > m_slots.size())
        rehash(capacityFor(size_t(count)));
}

void ConsumerIndex::rehash(size_t capacity)
{
    if (m_slots.empty())
        m_seed = QHashSeed::globalSeed(); // as QHash: names come from the server, no fixed probe sequence
    m_slots.assign(capacity, kEmpty);
    const size_t mask = capacity - 1;
    for (size_t position = 0; position < m_entries.size(); ++position) {
        const size_t hash = hashOf(m_entries[position].name);
        size_t i = hash & mask;
        while (m_slots[i] != kEmpty)
            i = (i + 1) & mask;
        m_slots[i] = slotFor(hash, position);
    }
}

size_t ConsumerIndex::probe(QStringView name, size_t hash) const
{
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint64_t slot = m_slots[i];
        if (slot == kEmpty || (tagMatches(slot, hash) && m_entries[positionOf(slot)].name == name))
            return i;
    }
}

void ConsumerIndex::insert(const QString &name, IndexedConsumer consumer)
{
    Q_ASSERT(m_entries.size() < 0xfffffffeu); // positions are 32-bit in a slot
    if ((m_entries.size() + 1) * 2 > m_slots.size())
        rehash(capacityFor(m_entries.size() + 1));
    const size_t hash = hashOf(name);
    const size_t i = probe(name, hash);
    if (m_slots[i] != kEmpty) {
        m_entries[positionOf(m_slots[i])].consumer = std::move(consumer);
        return;
    }
    m_slots[i] = slotFor(hash, m_entries.size());
    m_entries.push_back(Entry{name, std::move(consumer)});
}

const IndexedConsumer *ConsumerIndex::find(QStringView name) const
{
    if (m_entries.empty())
        return nullptr;
    const std::uint64_t slot = m_slots[probe(name, hashOf(name))];
    return slot == kEmpty ? nullptr : &m_entries[positionOf(slot)].consumer;
}

void ConsumerIndex::findMany(std::span<const QStringView> names, std::span<const IndexedConsumer *> out) const
{
    Q_ASSERT(out.size() >= names.size());
    if (m_entries.empty()) {
        std::fill_n(out.begin(), names.size(), nullptr);
        return;
    }
    const size_t mask = m_slots.size() - 1;
    size_t hashes[kChunk];
    size_t candidates[kChunk];
    for (size_t from = 0; from < names.size(); from += kChunk) {
        const size_t n = std::min(kChunk, names.size() - from);
        // 1. hash every name and fetch its home slot
        for (size_t k = 0; k < n; ++k) {
            hashes[k] = hashOf(names[from + k]);
            prefetch(&m_slots[hashes[k] & mask]);
        }
        // 2. the first slot with the name's tag (or none), and fetch that entry
        for (size_t k = 0; k < n; ++k) {
            candidates[k] = kNone;
            for (size_t i = hashes[k] & mask;; i = (i + 1) & mask) {
                const std::uint64_t slot = m_slots[i];
                if (slot == kEmpty)
                    break;
                if (tagMatches(slot, hashes[k])) {
                    candidates[k] = positionOf(slot);
                    prefetch(&m_entries[candidates[k]]);
                    break;
                }
            }
        }
        // 3. fetch the candidates' name characters
        for (size_t k = 0; k < n; ++k)
            if (candidates[k] != kNone)
                prefetch(m_entries[candidates[k]].name.constData());
        // 4. compare; a tag shared by another name (rare) takes the full probe
        for (size_t k = 0; k < n; ++k) {
            const QStringView name = names[from + k];
            if (candidates[k] == kNone)
                out[from + k] = nullptr;
            else if (m_entries[candidates[k]].name == name)
                out[from + k] = &m_entries[candidates[k]].consumer;
            else
                out[from + k] = find(name);
        }
    }
}

QStringList ConsumerIndex::names() const
{
    QStringList out;
    out.reserve(size());
    for (const Entry &e : m_entries)
        out << e.name;
    return out;
}

} // namespace MqttDoctor::SessionLoader
